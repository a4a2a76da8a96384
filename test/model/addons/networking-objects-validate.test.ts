import type { Cluster } from '../../../src/api/types';
import type { KubeObject } from '../../../src/model/addons/addon';
import { amazonVpcAddon } from '../../../src/model/addons/amazon-vpc-addon';
import { calicoAddon } from '../../../src/model/addons/calico-addon';
import { ciliumAddon } from '../../../src/model/addons/cilium-addon';
import { flannelAddon } from '../../../src/model/addons/flannel-addon';
import { kubeRouterAddon } from '../../../src/model/addons/kube-router-addon';
import { newCluster } from '../../../src/create/new-cluster';
import { completeCluster } from '../../../src/ops/expand-cluster';
import { supportedMinors } from '../../../src/expand/assets/asset-catalog';
import { completeKopsCase } from '../../helpers/kops-addon-case';

/**
 * Every object of the networking addons validates as its kind (kubernetes-models' JSON schemas of the
 * Kubernetes API), for each case and each supported Kubernetes minor. A kind kubernetes-models does not know
 * fails the test: the networking addons use only built-in kinds.
 */
type Model = new (o: unknown) => { validate(): void };

function model(o: KubeObject): Model {
  const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : [undefined, o.apiVersion];
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(`kubernetes-models/${group ? `${group}/` : ''}${version}/${o.kind}`) as { default?: Model } & Record<string, Model>;
  return mod[o.kind] ?? (mod.default as Model);
}

const CASES: Array<[string, (c: { cluster: Cluster; instanceGroups: [] }) => Array<{ objects: KubeObject[] }>]> = [
  ['privatecilium', ciliumAddon],
  ['privatecilium-eni', ciliumAddon],
  ['privatecalico', calicoAddon],
  ['privateflannel', flannelAddon],
  ['many-addons-ccm', amazonVpcAddon],
];

describe.each(supportedMinors())('networking addon objects validate at Kubernetes %s', (minor) => {
  it.each(CASES)('%s', (name, builder) => {
    const { cluster } = completeKopsCase(name, (c) => (c.spec.kubernetesVersion = `${minor}.0`));
    const objects = builder({ cluster, instanceGroups: [] }).flatMap((a) => a.objects);
    expect(objects.length).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const o of objects) {
      try {
        new (model(o))(o).validate();
      } catch (e) {
        problems.push(`${o.kind} ${o.metadata.name}: ${(e as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('kube-router', () => {
    const { cluster: c, instanceGroups } = newCluster({ name: 'kr.example.com', zones: ['us-east-1a'], networking: 'kube-router', cloud: 'aws', kubernetesVersion: `${minor}.0` });
    const objects = kubeRouterAddon({ cluster: completeCluster(c, instanceGroups, 'memfs://store'), instanceGroups }).flatMap((a) => a.objects);
    expect(objects).toHaveLength(5);
    for (const o of objects) expect(() => new (model(o))(o).validate()).not.toThrow();
  });
});

describe('the validation has teeth', () => {
  it('refuses a DaemonSet whose containers are not a list', () => {
    const { cluster } = completeKopsCase('privateflannel');
    const ds = flannelAddon({ cluster, instanceGroups: [] })[0].objects.find((o) => o.kind === 'DaemonSet') as KubeObject;
    (ds.spec as { template: { spec: { containers: unknown } } }).template.spec.containers = 'kube-flannel';
    expect(() => new (model(ds))(ds).validate()).toThrow();
  });
});
