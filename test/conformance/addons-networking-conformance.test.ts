import type { KubeObject } from '../../src/model/addons/addon';
import { amazonVpcAddon } from '../../src/model/addons/amazon-vpc-addon';
import { calicoAddon } from '../../src/model/addons/calico-addon';
import { ciliumAddon } from '../../src/model/addons/cilium-addon';
import { flannelAddon } from '../../src/model/addons/flannel-addon';
import type { AddonBuilder } from '../../src/model/addons/addon';
import { completeKopsCase, kopsAddonObjects } from '../helpers/kops-addon-case';

/**
 * kforge's networking addons against kops's own rendered manifests (test/fixtures/kops-addons, kops commit
 * 268927e26409f861634e18f3632c9dd483c350cf) for the same input: the objects (kind, namespace, name), each
 * container's image and args, each ClusterRole's rules, and then every object whole. kops stamps
 * `addon.kops.k8s.io/name` and `app.kubernetes.io/managed-by` on each object when it builds the channel; in
 * kforge the channel assembly does, so they are compared without them.
 */
const CASES: Array<[string, string, AddonBuilder, { name: string; id: string; manifestFile?: string }]> = [
  ['privatecilium', 'networking.cilium.io-k8s-1.16_content', ciliumAddon, { name: 'networking.cilium.io', id: 'k8s-1.16', manifestFile: 'k8s-1.16-v1.15.yaml' }],
  ['privatecilium-eni', 'networking.cilium.io-k8s-1.16_content', ciliumAddon, { name: 'networking.cilium.io', id: 'k8s-1.16', manifestFile: 'k8s-1.16-v1.15.yaml' }],
  ['privatecalico', 'networking.projectcalico.org-k8s-1.25_content', calicoAddon, { name: 'networking.projectcalico.org', id: 'k8s-1.25' }],
  ['privateflannel', 'networking.flannel-k8s-1.25_content', flannelAddon, { name: 'networking.flannel', id: 'k8s-1.25' }],
  ['many-addons', 'networking.amazon-vpc-routed-eni-k8s-1.16_content', amazonVpcAddon, { name: 'networking.amazon-vpc-routed-eni', id: 'k8s-1.16' }],
  ['many-addons-ccm', 'networking.amazon-vpc-routed-eni-k8s-1.16_content', amazonVpcAddon, { name: 'networking.amazon-vpc-routed-eni', id: 'k8s-1.16' }],
];

const key = (o: KubeObject): string => `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`;

interface Container {
  name: string;
  image: string;
  args?: string[];
  command?: string[];
}

/** Each container of each workload: `<object> <container>` → image, command and args. */
function containers(objects: KubeObject[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const o of objects) {
    const pod = (o.spec as { template?: { spec?: { initContainers?: Container[]; containers?: Container[] } } } | undefined)?.template?.spec;
    for (const c of [...(pod?.initContainers ?? []), ...(pod?.containers ?? [])]) out[`${key(o)} ${c.name}`] = { image: c.image, command: c.command, args: c.args };
  }
  return out;
}

const clusterRoleRules = (objects: KubeObject[]): Record<string, unknown> =>
  Object.fromEntries(objects.filter((o) => o.kind === 'ClusterRole').map((o) => [o.metadata.name, o.rules]));

describe.each(CASES)('networking addon conformance: %s', (name, file, builder, entry) => {
  const { cluster, instanceGroups } = completeKopsCase(name);
  const addons = builder({ cluster, instanceGroups });
  const kops = kopsAddonObjects(name, file);

  it('renders one addon with kops\'s channel name, id and manifest', () => {
    expect(addons.map((a) => ({ name: a.name, id: a.id, manifestFile: a.manifestFile }))).toEqual([{ manifestFile: undefined, ...entry }]);
  });

  it('renders kops\'s objects (kind, namespace, name), in kops\'s order', () => {
    expect(addons[0].objects.map(key)).toEqual(kops.map(key));
  });

  it('gives each container kops\'s image, command and args', () => {
    expect(containers(addons[0].objects)).toEqual(containers(kops));
  });

  it('gives each ClusterRole kops\'s rules', () => {
    expect(clusterRoleRules(addons[0].objects)).toEqual(clusterRoleRules(kops));
  });

  it('renders every object as kops does', () => {
    const mine = new Map(addons[0].objects.map((o) => [key(o), o]));
    for (const o of kops) expect({ [key(o)]: mine.get(key(o)) }).toEqual({ [key(o)]: o });
  });
});

describe('networking addons render only for their option', () => {
  it('a cluster with a user-provided CNI gets no networking addon', () => {
    const { cluster, instanceGroups } = completeKopsCase('minimal-1.33');
    expect([ciliumAddon, calicoAddon, flannelAddon, amazonVpcAddon].flatMap((b) => b({ cluster, instanceGroups }))).toEqual([]);
  });
});
