import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import type { Cluster, InstanceGroup } from '../../src/api/types';
import { newCluster } from '../../src/create/new-cluster';
import { instanceGroupKubelet } from '../../src/expand/components/kubelet';
import { isControlPlane } from '../../src/expand/expand-context';
import { controlPlaneCommands, nodeCommands } from '../../src/flags/component-argv';
import { expandCluster } from '../../src/ops/expand-cluster';
import { clusterCertificates } from '../../src/pki/cluster-certificates';
import { KeysetYaml } from '../../src/pki/keyset-yaml';
import { expectGolden } from '../helpers/golden';
import { FIXTURES, GOLDEN_CASES } from '../helpers/golden-cases';

const STORE = 'memfs://golden';
/** Fixed certificates, so that the CA bundles in nodeup configs are part of the goldens (kops does the same). */
const CERTS = clusterCertificates(
  fs
    .readFileSync(path.join(FIXTURES, 'pki', 'keysets.yaml'), 'utf8')
    .split(/^---$/m)
    .map((doc, i) => KeysetYaml.parse(doc, `keysets.yaml document ${i}`)),
);

/** Every component's argv for every instance group, one flag per line, for reviewable diffs. */
function renderAllFlags(completed: Cluster, igs: InstanceGroup[]): string {
  const out: string[] = [];
  const cpIg = igs.find(isControlPlane);
  if (cpIg) for (const c of controlPlaneCommands(completed.spec)) out.push(`# ${c.component}`, c.argv[0], ...c.argv.slice(1).map((a) => `  ${a}`), '');
  for (const ig of [...igs].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))) {
    for (const c of nodeCommands(completed.spec, instanceGroupKubelet(completed.spec, ig))) {
      out.push(`# ${c.component} (instance group ${ig.metadata.name})`, c.argv[0], ...c.argv.slice(1).map((a) => `  ${a}`), '');
    }
  }
  return out.join('\n');
}

describe.each(GOLDEN_CASES)('expansion of $name', ({ name, load }) => {
  const { cluster, instanceGroups } = load();
  const before = JSON.stringify({ cluster, instanceGroups });
  const expanded = expandCluster(cluster, instanceGroups, STORE, undefined, CERTS);

  it('matches the golden completed spec', () => {
    expectGolden(`expand/${name}/cluster-completed.spec`, expanded.files.get(`${cluster.metadata.name}/cluster-completed.spec`) as string);
  });

  it('matches the golden component flags', () => {
    expectGolden(`expand/${name}/flags.txt`, renderAllFlags(expanded.completed, instanceGroups));
  });

  it('matches the golden nodeup configs', () => {
    for (const [key, content] of expanded.files) {
      if (!key.includes('/igconfig/')) continue;
      const rel = key.slice(key.indexOf('/igconfig/') + 1).replace(/\/nodeupconfig\.yaml$/, '').replace(/\//g, '_');
      expectGolden(`expand/${name}/${rel}.yaml`, content);
    }
  });

  it('does not modify its input and is deterministic', () => {
    expect(JSON.stringify({ cluster, instanceGroups })).toBe(before);
    const again = expandCluster(cluster, instanceGroups, STORE, undefined, CERTS);
    expect([...again.files.entries()]).toEqual([...expanded.files.entries()]);
  });

  it('derives ranges and endpoints by kops rules', () => {
    const spec = expanded.completed.spec;
    expect(spec.serviceClusterIPRange).toBeDefined();
    const main = spec.etcdClusters?.find((e) => e.name === 'main');
    expect(spec.kubeAPIServer?.apiServerCount).toBe(main?.etcdMembers?.length);
    expect(spec.kubeAPIServer?.etcdServers).toEqual(['https://127.0.0.1:4001']);
    expect(spec.kubeAPIServer?.etcdServersOverrides).toEqual(['/events#https://127.0.0.1:4002']);
    expect(spec.kubeControllerManager?.clusterCIDR).toBe(spec.podCIDR);
    expect(spec.kubelet?.clusterDNS).toBe(spec.kubeDNS?.serverIP);
    for (const e of spec.etcdClusters ?? []) expect(e.backups?.backupStore).toBe(`${STORE}/${cluster.metadata.name}/backups/etcd/${e.name}`);
    expect(yaml.load(expanded.files.get(`${cluster.metadata.name}/cluster-completed.spec`) as string)).toEqual(JSON.parse(JSON.stringify(expanded.completed)));
    expect(name).toBeTruthy();
  });
});

describe('kops derivation rules on the default ranges', () => {
  it('gives the acceptance values for a three-zone HA cluster', () => {
    const c = newCluster({ name: 'x.example.com', zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'], controlPlaneZones: ['us-east-1a', 'us-east-1b', 'us-east-1c'] });
    const spec = expandCluster(c.cluster, c.instanceGroups, STORE).completed.spec;
    expect(spec.subnets?.map((s) => s.cidr)).toEqual(['172.20.32.0/19', '172.20.64.0/19', '172.20.96.0/19']);
    expect(spec.etcdClusters?.map((e) => [e.name, e.etcdMembers?.length])).toEqual([['main', 3], ['events', 3]]);
    expect(spec.kubeAPIServer?.apiServerCount).toBe(3);
    expect(spec.serviceClusterIPRange).toBe('100.64.0.0/13');
    expect(spec.podCIDR).toBe('100.96.0.0/11');
    expect(spec.kubeProxy?.clusterCIDR).toBe('100.96.0.0/11');
    expect(spec.kubeDNS?.serverIP).toBe('100.64.0.10');
    expect(spec.kubeAPIServer?.serviceAccountIssuer).toBe('https://api.internal.x.example.com');
    expect(spec.kubeAPIServer?.authorizationMode).toBe('Node,RBAC');
    expect(spec.kubeAPIServer?.enableAdmissionPlugins).toContain('NodeRestriction');
    expect(spec.kubeAPIServer?.anonymousAuth).toBe(false);
    expect(spec.kubeAPIServer?.securePort).toBe(443);
    expect(spec.kubeAPIServer?.image).toBe(`registry.k8s.io/kube-apiserver:v${spec.kubernetesVersion}`);
  });

  it('gives utility subnets eighths of the first eighth', () => {
    const c = newCluster({ name: 'p.example.com', zones: ['us-east-1a', 'us-east-1b'], topology: 'private' });
    expect(c.cluster.spec.subnets?.map((s) => `${s.name}=${s.cidr}`)).toEqual([
      'us-east-1a=172.20.32.0/19',
      'us-east-1b=172.20.64.0/19',
      'utility-us-east-1a=172.20.0.0/22',
      'utility-us-east-1b=172.20.4.0/22',
    ]);
  });
});
