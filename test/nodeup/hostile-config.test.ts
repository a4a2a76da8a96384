import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import type { NodeupConfig } from '../../src/model/nodeup-config-builder';
import { flagFilePath } from '../../src/nodeup/flag-file-path';
import { renderNodeFiles } from '../../src/nodeup/render-node-files';
import { UnsafeNodeValueError } from '../../src/nodeup/unsafe-node-value-error';
import { createCluster } from '../../src/ops/create-cluster';
import { planManagedFiles, writeManagedFiles } from '../../src/ops/plan-managed-files';
import { withHostsBlock } from '../../src/protokube/publish-names';
import { StatePaths } from '../../src/state/state-paths';
import { openVfs } from '../../src/state/vfs/open-vfs';
import { listFiles, runCli, tempDir } from '../helpers/cli';
import { splitStages, STATUS_FILE } from './stage-lines';

// Defence in depth against a corrupted or hostile nodeup config: a file a component flag names is written
// only below the directories kops uses for that component, and a name that goes into /etc/hosts must be a
// DNS name (an address an IP). Each case is the real pipeline's config with one value changed; nodeup must
// exit 1 with UNSAFE_NODE_VALUE naming the field and the value, and write nothing but its status file.

const NAME = 'hostile.k8s.local';
let work: string;
let cp: NodeupConfig;
let node: NodeupConfig;

beforeAll(async () => {
  work = tempDir('kforge-nodeup-hostile-');
  const vfs = openVfs(path.join(work, 'store'));
  // calico keeps kube-proxy; .k8s.local has no DNS, so /etc/hosts entries are written.
  await createCluster(vfs, { name: NAME, zones: ['us-east-1a'], networking: 'calico' }, [], undefined, { command: 'test', ttlSeconds: 60, warn: () => undefined });
  await writeManagedFiles(vfs, await planManagedFiles(vfs, NAME));
  const read = (role: string, group: string) => yaml.load(fs.readFileSync(path.join(work, 'store', StatePaths.nodeupConfig(NAME, role, group)), 'utf8')) as NodeupConfig;
  cp = read('ControlPlane', 'control-plane-us-east-1a');
  node = read('Node', 'nodes-us-east-1a');
});

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** `config` with `--<flag>=` of `component` set to `value` (added when absent). */
function withFlag(config: NodeupConfig, component: string, flag: string, value: string): NodeupConfig {
  const c = structuredClone(config);
  const argv = c.ComponentFlags[component];
  const at = argv.findIndex((a) => a.startsWith(`--${flag}=`));
  if (at >= 0) argv[at] = `--${flag}=${value}`;
  else argv.push(`--${flag}=${value}`);
  return c;
}

const CASES: Array<{ name: string; make: () => NodeupConfig; field: string }> = [
  { name: 'kubelet --config over /etc/shadow', make: () => withFlag(node, 'kubelet', 'config', '/etc/shadow'), field: 'ComponentFlags.kubelet --config=/etc/shadow' },
  { name: 'kube-proxy --kubeconfig into /etc/cron.d', make: () => withFlag(node, 'kube-proxy', 'kubeconfig', '/etc/cron.d/kforge'), field: 'ComponentFlags.kube-proxy --kubeconfig=/etc/cron.d/kforge' },
  {
    name: 'kubelet --bootstrap-kubeconfig climbing out with ..',
    make: () => withFlag(node, 'kubelet', 'bootstrap-kubeconfig', '/var/lib/kubelet/../../../etc/shadow'),
    field: 'ComponentFlags.kubelet --bootstrap-kubeconfig=/var/lib/kubelet/../../../etc/shadow',
  },
  {
    name: 'kube-proxy --kubeconfig in another component’s directory',
    make: () => withFlag(node, 'kube-proxy', 'kubeconfig', '/var/lib/kubelet/kubeconfig'),
    field: 'ComponentFlags.kube-proxy --kubeconfig=/var/lib/kubelet/kubeconfig',
  },
  {
    name: 'kube-apiserver --tls-private-key-file among the static pods',
    make: () => withFlag(cp, 'kube-apiserver', 'tls-private-key-file', '/etc/kubernetes/manifests/evil.manifest'),
    field: 'ComponentFlags.kube-apiserver --tls-private-key-file=/etc/kubernetes/manifests/evil.manifest',
  },
  {
    name: 'kube-controller-manager --cluster-signing-key-file in /root/.ssh',
    make: () => withFlag(cp, 'kube-controller-manager', 'cluster-signing-key-file', '/root/.ssh/authorized_keys'),
    field: 'ComponentFlags.kube-controller-manager --cluster-signing-key-file=/root/.ssh/authorized_keys',
  },
  { name: 'an APIInternalName with a newline', make: () => ({ ...structuredClone(cp), APIInternalName: 'api.internal.x\n10.9.9.9 evil.example.com' }), field: 'APIInternalName' },
  {
    name: 'a PublicName with a space',
    make: () => {
      const c = structuredClone(cp);
      (c.APIServerConfig as { PublicName: string }).PublicName = 'api.x evil.example.com';
      return c;
    },
    field: 'APIServerConfig.PublicName',
  },
  { name: 'an APIServerIPs entry that is not an address', make: () => ({ ...structuredClone(node), APIServerIPs: ['10.0.0.1 evil.example.com'] }), field: 'APIServerIPs[0]' },
];

describe.each(CASES)('$name', ({ make, field }) => {
  it('is refused by nodeup with UNSAFE_NODE_VALUE naming the field, and nothing but the status file is written', () => {
    const conf = path.join(work, `conf-${Math.random().toString(36).slice(2)}.yaml`);
    fs.writeFileSync(conf, yaml.dump(make()));
    const root = tempDir('kforge-nodeup-hostile-root-');
    try {
      const r = splitStages(runCli(['nodeup', '--conf', conf, '--root', root]));
      expect(r.status).toBe(1);
      expect(r.stages).toEqual(['failed: UNSAFE_NODE_VALUE']);
      expect(r.stderr.startsWith(`Error: ${conf}: ${field}`)).toBe(true);
      expect(r.stderr).not.toContain('    at ');
      expect(listFiles(root)).toEqual([STATUS_FILE]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('is refused by the pure renderer too (defence in depth)', () => {
    expect(() => renderNodeFiles(make(), { etcHosts: 'absent' })).toThrow(UnsafeNodeValueError);
  });
});

it('the paths kforge itself renders pass, including every flag-named file of both configs', () => {
  expect(renderNodeFiles(cp, { etcHosts: 'absent' }).length).toBeGreaterThan(0);
  expect(flagFilePath(node, 'kubelet', 'config')).toBe('/var/lib/kubelet/kubelet.conf');
  expect(flagFilePath(node, 'kube-proxy', 'kubeconfig')).toBe('/var/lib/kube-proxy/kubeconfig');
  expect(flagFilePath(cp, 'kube-apiserver', 'service-account-key-file')).toBe('/srv/kubernetes/kube-apiserver/service-account.pub');
});

it('protokube refuses a host name from a volume tag that is not a DNS name, or an address that is not an IP', () => {
  expect(() => withHostsBlock('', [{ name: 'etcd-a.internal.x\n1.2.3.4 evil', addresses: ['10.0.0.1'] }])).toThrow(UnsafeNodeValueError);
  expect(() => withHostsBlock('', [{ name: 'etcd-a.internal.x', addresses: ['10.0.0.1 evil'] }])).toThrow(UnsafeNodeValueError);
  expect(withHostsBlock('', [{ name: 'etcd-a.internal.x', addresses: ['10.0.0.1'] }])).toContain('10.0.0.1\tetcd-a.internal.x\n');
});
