import type { KubeObject } from '../../src/model/addons/addon';
import { amazonVpcAddon } from '../../src/model/addons/amazon-vpc-addon';
import { calicoAddon } from '../../src/model/addons/calico-addon';
import { ciliumAddon } from '../../src/model/addons/cilium-addon';
import { flannelAddon } from '../../src/model/addons/flannel-addon';
import { kubeRouterAddon } from '../../src/model/addons/kube-router-addon';
import { newCluster } from '../../src/create/new-cluster';
import { completeCluster } from '../../src/ops/expand-cluster';
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
    expect([ciliumAddon, calicoAddon, flannelAddon, kubeRouterAddon, amazonVpcAddon].flatMap((b) => b({ cluster, instanceGroups }))).toEqual([]);
  });
});

describe('kube-router (kops has no integration case for it: checked against kops\'s template, k8s-1.12.yaml.template at 268927e)', () => {
  const { cluster, instanceGroups } = (() => {
    const { cluster: c, instanceGroups: igs } = newCluster({ name: 'kr.example.com', zones: ['us-east-1a'], networking: 'kube-router', cloud: 'aws' });
    return { cluster: completeCluster(c, igs, 'memfs://store'), instanceGroups: igs };
  })();
  const addons = kubeRouterAddon({ cluster, instanceGroups });

  it('renders the template\'s objects with kops\'s channel name, id and the networking selector', () => {
    expect(addons.map((a) => [a.name, a.id, a.selector])).toEqual([['networking.kuberouter', 'k8s-1.12', { 'role.kubernetes.io/networking': '1' }]]);
    expect(addons[0].objects.map(key)).toEqual([
      'ConfigMap kube-system/kube-router-cfg',
      'DaemonSet kube-system/kube-router',
      'ServiceAccount kube-system/kube-router',
      'ClusterRole /kube-router',
      'ClusterRoleBinding /kube-router',
    ]);
  });

  it('runs kube-router v2.11.1 with the cluster\'s service range, quoted inside the flag as kops\'s template writes it', () => {
    const c = containers(addons[0].objects) as Record<string, { image: string; args?: string[] }>;
    const router = c['DaemonSet kube-system/kube-router kube-router'];
    expect(router.image).toBe('docker.io/cloudnativelabs/kube-router:v2.11.1');
    expect(router.args?.slice(-2)).toEqual(['--hairpin-mode=true', `--service-cluster-ip-range="${cluster.spec.serviceClusterIPRange}"`]);
    expect(router.args).toContain('--run-service-proxy=true');
    expect(cluster.spec.kubeProxy?.enabled).toBe(false);
  });
});
