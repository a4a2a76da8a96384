import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { listFiles, runCli, runCliAsync, tempDir, treeDigest } from '../helpers/cli';
import { KEYSTORE_FILES } from '../helpers/cluster-layout';
import { writeManagedFilesOf } from '../helpers/write-managed-files';

type Spec = Record<string, unknown> & {
  subnets: Array<{ cidr: string }>;
  etcdClusters: Array<{ name: string; etcdMembers: unknown[] }>;
  kubeAPIServer: { apiServerCount: number };
};

describe('kforge create cluster (as users run it)', () => {
  it('writes the acceptance cluster: 3 etcd members each, apiServerCount 3, three /19 subnets', async () => {
    const dir = tempDir();
    const r = runCli(['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a,us-east-1b,us-east-1c', '--control-plane-zones', 'us-east-1a,us-east-1b,us-east-1c', '--state', `file://${dir}`]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`Created cluster x.example.com in state store file://${dir}`);
    // As kops: the user's objects only; the PKI and the managed files come with the first update.
    const users = ['config', ...['a', 'b', 'c'].flatMap((z) => [`instancegroup/control-plane-us-east-1${z}`])];
    expect(listFiles(path.join(dir, 'x.example.com'))).toEqual([...users, ...['a', 'b', 'c'].map((z) => `instancegroup/nodes-us-east-1${z}`)]);
    const full = runCli(['get', 'cluster', 'x.example.com', '--full', '-o', 'yaml', '--state', dir]);
    const spec = (yaml.load(full.stdout) as { spec: Spec }).spec;
    expect(spec.subnets.map((s) => s.cidr)).toEqual(['172.20.32.0/19', '172.20.64.0/19', '172.20.96.0/19']);
    expect(spec.etcdClusters.map((e) => [e.name, e.etcdMembers.length])).toEqual([['main', 3], ['events', 3]]);
    expect(spec.kubeAPIServer.apiServerCount).toBe(3);
    await writeManagedFilesOf(dir, 'x.example.com');
    expect(fs.readFileSync(path.join(dir, 'x.example.com/cluster-completed.spec'), 'utf8')).toBe(full.stdout);
    expect(listFiles(path.join(dir, 'x.example.com'))).toEqual([
      // The bootstrap channel and the manifests of the addons a default AWS cluster gets (docs/addons.md).
      'addons/aws-cloud-controller.addons.k8s.io/k8s-1.18.yaml',
      'addons/aws-ebs-csi-driver.addons.k8s.io/k8s-1.17.yaml',
      'addons/bootstrap-channel.yaml',
      'addons/coredns.addons.k8s.io/k8s-1.12.yaml',
      'addons/kubelet-api.rbac.addons.k8s.io/k8s-1.9.yaml',
      'addons/limit-range.addons.k8s.io/v1.5.0.yaml',
      'addons/networking.cilium.io/k8s-1.16-v1.15.yaml',
      'addons/node-bootstrap.rbac.addons.kforge.io/k8s-1.33.yaml',
      'addons/node-termination-handler.aws/k8s-1.11.yaml',
      'addons/storage-aws.addons.k8s.io/v1.15.0.yaml',
      'cluster-completed.spec',
      'config',
      'igconfig/controlplane/control-plane-us-east-1a/nodeupconfig.yaml',
      'igconfig/controlplane/control-plane-us-east-1b/nodeupconfig.yaml',
      'igconfig/controlplane/control-plane-us-east-1c/nodeupconfig.yaml',
      'igconfig/node/nodes-us-east-1a/nodeupconfig.yaml',
      'igconfig/node/nodes-us-east-1b/nodeupconfig.yaml',
      'igconfig/node/nodes-us-east-1c/nodeupconfig.yaml',
      'instancegroup/control-plane-us-east-1a',
      'instancegroup/control-plane-us-east-1b',
      'instancegroup/control-plane-us-east-1c',
      'instancegroup/nodes-us-east-1a',
      'instancegroup/nodes-us-east-1b',
      'instancegroup/nodes-us-east-1c',
      ...KEYSTORE_FILES,
    ]);
  });

  it('uses ~/.kforge/state when no store is given, and says where it wrote', () => {
    const home = tempDir();
    const r = runCli(['create', 'cluster', 'demo.k8s.local', '--zones', 'us-east-1a'], { env: { HOME: home } });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`file://${home}/.kforge/state`);
    expect(fs.existsSync(path.join(home, '.kforge/state/demo.k8s.local/config'))).toBe(true);
    const again = runCli(['get', 'clusters'], { env: { HOME: home } });
    expect(again.stdout).toMatch(/^NAME\s+CLOUD\s+ZONES\ndemo\.k8s\.local\s+aws\s+us-east-1a\n$/);
  });

  it('honours KFORGE_STATE_STORE', () => {
    const dir = tempDir();
    expect(runCli(['create', 'cluster', 'env.k8s.local', '--zones', 'us-east-1a'], { env: { KFORGE_STATE_STORE: dir } }).status).toBe(0);
    expect(fs.existsSync(path.join(dir, 'env.k8s.local/config'))).toBe(true);
  });

  it('refuses an existing cluster and changes nothing', () => {
    const dir = tempDir();
    expect(runCli(['create', 'cluster', 'twice.k8s.local', '--zones', 'us-east-1a', '--state', dir]).status).toBe(0);
    const before = treeDigest(dir);
    const r = runCli(['create', 'cluster', 'twice.k8s.local', '--zones', 'us-east-1b', '--state', dir]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^Error: cluster "twice\.k8s\.local" already exists/);
    expect(treeDigest(dir)).toBe(before);
  });

  it('lets exactly one of two concurrent creates of one name win', async () => {
    const dir = tempDir();
    const args = (zone: string) => ['create', 'cluster', 'race.k8s.local', '--zones', zone, '--state', dir];
    const results = await Promise.all([runCliAsync(args('us-east-1a')), runCliAsync(args('us-east-1b'))]);
    expect(results.map((r) => r.status).sort()).toEqual([0, 1]);
    // The loser either finds the winner's lock or, if it came after, the finished cluster.
    expect(results.find((r) => r.status === 1)?.stderr).toMatch(/already exists|is locked by .* running "kforge create cluster race\.k8s\.local/);
    const winner = results[0].status === 0 ? 'us-east-1a' : 'us-east-1b';
    const cfg = fs.readFileSync(path.join(dir, 'race.k8s.local/config'), 'utf8');
    expect(cfg).toContain(`zone: ${winner}`);
    expect(fs.readdirSync(path.join(dir, 'race.k8s.local/instancegroup'))).toEqual([`control-plane-${winner}`, `nodes-${winner}`]);
  });

  it('--dry-run -o yaml prints Cluster and InstanceGroups and writes nothing', () => {
    const dir = tempDir();
    const r = runCli(['create', 'cluster', 'dry.k8s.local', '--zones', 'us-east-1a', '--set', 'spec.kubelet.maxPods=200', '--dry-run', '-o', 'yaml', '--state', dir]);
    expect(r.status).toBe(0);
    const docs = yaml.loadAll(r.stdout) as Array<{ kind: string; spec: { kubelet?: { maxPods?: number } } }>;
    expect(docs.map((d) => d.kind)).toEqual(['Cluster', 'InstanceGroup', 'InstanceGroup']);
    expect(docs[0].spec.kubelet?.maxPods).toBe(200);
    expect(listFiles(dir)).toEqual([]);
    const json = runCli(['create', 'cluster', 'dry.k8s.local', '--zones', 'us-east-1a', '--dry-run', '-o', 'json', '--state', dir]);
    expect((JSON.parse(json.stdout) as unknown[]).length).toBe(3);
  });

  it('private topology adds utility subnets and a bastion group', () => {
    const dir = tempDir();
    const r = runCli(['create', 'cluster', 'priv.example.com', '--zones', 'us-east-1a,us-east-1b', '--topology', 'private', '--bastion', '--networking', 'calico', '--dns', 'private', '--dns-zone', 'example.com', '--state', dir]);
    expect(r.status).toBe(0);
    const ig = runCli(['get', 'instancegroups', '--name', 'priv.example.com', '--state', dir]);
    expect(ig.stdout.split('\n')[0]).toMatch(/^NAME\s+ROLE\s+MACHINETYPE\s+MIN\s+MAX\s+SUBNETS$/);
    expect(ig.stdout).toMatch(/bastions\s+Bastion\s+\(auto\)\s+1\s+1\s+utility-us-east-1a,utility-us-east-1b/);
    const cfg = yaml.load(fs.readFileSync(path.join(dir, 'priv.example.com/config'), 'utf8')) as { spec: { subnets: Array<{ name: string; type: string }>; topology: { dns: { type: string } } } };
    expect(cfg.spec.subnets.map((s) => `${s.name}:${s.type}`)).toEqual(['us-east-1a:Private', 'us-east-1b:Private', 'utility-us-east-1a:Utility', 'utility-us-east-1b:Utility']);
    expect(cfg.spec.topology.dns.type).toBe('Private');
  });

  it('stores the admin SSH public key under pki/ssh/public/admin/<fingerprint>', () => {
    const dir = tempDir();
    const key = path.join(dir, 'id.pub');
    fs.writeFileSync(key, 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGcrL4tKYrW8zBZeq9gNqUQX3zBL0Q0qAe6gVgmbHVbP test@example\n');
    const store = path.join(dir, 'store');
    expect(runCli(['create', 'cluster', 'ssh.k8s.local', '--zones', 'us-east-1a', '--ssh-public-key', key, '--state', store]).status).toBe(0);
    const files = listFiles(path.join(store, 'ssh.k8s.local/pki/ssh/public/admin'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('kforge get / delete', () => {
  it('get cluster --full prints the completed spec in yaml and json, computed before the first update as update writes it', async () => {
    const dir = tempDir();
    runCli(['create', 'cluster', 'full.k8s.local', '--zones', 'us-east-1a', '--state', dir]);
    const y = runCli(['get', 'cluster', 'full.k8s.local', '--full', '-o', 'yaml', '--state', dir]);
    expect(y.status).toBe(0);
    expect(fs.existsSync(path.join(dir, 'full.k8s.local/cluster-completed.spec'))).toBe(false);
    await writeManagedFilesOf(dir, 'full.k8s.local');
    expect(y.stdout).toBe(fs.readFileSync(path.join(dir, 'full.k8s.local/cluster-completed.spec'), 'utf8'));
    const j = JSON.parse(runCli(['get', 'cluster', 'full.k8s.local', '--full', '-o', 'json', '--state', dir]).stdout) as { spec: { podCIDR: string } };
    expect(j.spec.podCIDR).toBe('100.96.0.0/11');
  });

  it('delete cluster lists without --yes and removes every object with --yes', () => {
    const dir = tempDir();
    runCli(['create', 'cluster', 'del.k8s.local', '--zones', 'us-east-1a', '--state', dir]);
    runCli(['create', 'cluster', 'keep.k8s.local', '--zones', 'us-east-1a', '--state', dir]);
    const before = treeDigest(dir);
    const list = runCli(['delete', 'cluster', 'del.k8s.local', '--unregister', '--state', dir]);
    expect(list.status).toBe(0);
    expect(list.stdout).toContain('del.k8s.local/config');
    expect(list.stdout).toContain('Must specify --yes to delete cluster');
    expect(treeDigest(dir)).toBe(before);
    const del = runCli(['delete', 'cluster', 'del.k8s.local', '--yes', '--unregister', '--state', dir]);
    expect(del.status).toBe(0);
    expect(fs.existsSync(path.join(dir, 'del.k8s.local'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'keep.k8s.local/config'))).toBe(true);
  });

  it('create ig adds a validated group and delete ig removes it; its nodeup config follows at the next update', async () => {
    const dir = tempDir();
    runCli(['create', 'cluster', 'ig.k8s.local', '--zones', 'us-east-1a', '--state', dir]);
    const c = runCli(['create', 'ig', 'gpu', '--name', 'ig.k8s.local', '--role', 'Node', '--subnet', 'us-east-1a', '--machine-type', 'g5.xlarge', '--state', dir]);
    expect(c.stderr).toBe('');
    expect(c.status).toBe(0);
    expect(fs.existsSync(path.join(dir, 'ig.k8s.local/instancegroup/gpu'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'ig.k8s.local/igconfig'))).toBe(false);
    await writeManagedFilesOf(dir, 'ig.k8s.local');
    expect(fs.existsSync(path.join(dir, 'ig.k8s.local/igconfig/node/gpu/nodeupconfig.yaml'))).toBe(true);
    const d = runCli(['delete', 'ig', 'gpu', '--name', 'ig.k8s.local', '--yes', '--state', dir]);
    expect(d.status).toBe(0);
    expect(fs.existsSync(path.join(dir, 'ig.k8s.local/instancegroup/gpu'))).toBe(false);
    const plan = await writeManagedFilesOf(dir, 'ig.k8s.local');
    expect(plan.files.filter((f) => f.action !== 'none')).toEqual([{ path: 'ig.k8s.local/igconfig/node/gpu/nodeupconfig.yaml', action: 'delete', diff: expect.stringMatching(/^-\d+ lines$/) }]);
    expect(fs.existsSync(path.join(dir, 'ig.k8s.local/igconfig/node/gpu'))).toBe(false);
  });
});

describe('help and version', () => {
  it.each(['create cluster', 'create', 'get clusters', 'get instancegroups', 'edit cluster', 'edit instancegroup', 'delete cluster', 'delete instancegroup', 'replace', 'create instancegroup'])(
    '%s --help shows usage and examples',
    (cmd) => {
      const r = runCli([...cmd.split(' '), '--help']);
      expect(r.status).toBe(0);
      expect(r.stdout).toContain('USAGE');
      expect(r.stdout).toContain('EXAMPLES');
    },
  );

  it('--version and --help answer from the fast path with the same text oclif prints', () => {
    expect(runCli(['--version']).stdout).toMatch(/^kforge\/\d+\.\d+\.\d+ \S+ node-v\d+/);
    const fast = runCli(['--help']).stdout;
    expect(fast).toContain('COMMANDS');
    expect(fast).toContain('create');
  });
});
