import { expectCleanFailure, runCli, tempDir, treeDigest } from '../helpers/cli';

// kops's everyday create-cluster flags: each lands in the field kops sets for it.

interface Obj {
  kind: string;
  metadata: { name: string };
  spec: Record<string, unknown> & { role?: string };
}

function dryRun(extra: string[]): Obj[] {
  const r = runCli(['create', 'cluster', 'flags.example.com', '--zones', 'us-east-1a,us-east-1b', '--dry-run', '-o', 'json', ...extra, '--state', tempDir()]);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as Obj[];
}

describe('create cluster flags kops users pass every day', () => {
  it('--admin-access, --ssh-access, --image, volume sizes, --no-associate-public-ip and --api-loadbalancer-type', () => {
    const objects = dryRun([
      '--admin-access', '203.0.113.0/24', '--admin-access', '198.51.100.7/32',
      '--ssh-access', '192.0.2.0/24',
      '--image', 'ami-0123456789abcdef0',
      '--node-volume-size', '50',
      '--control-plane-volume-size', '40',
      '--no-associate-public-ip',
      '--api-loadbalancer-type', 'internal',
    ]);
    const cluster = objects.find((o) => o.kind === 'Cluster') as Obj;
    expect(cluster.spec.kubernetesApiAccess).toEqual(['203.0.113.0/24', '198.51.100.7/32']);
    expect(cluster.spec.sshAccess).toEqual(['192.0.2.0/24']);
    expect(cluster.spec.api).toEqual({ loadBalancer: { type: 'Internal', class: 'Network' } });
    const groups = objects.filter((o) => o.kind === 'InstanceGroup');
    expect(groups.map((g) => [g.spec.role, g.spec.image, g.spec.rootVolumeSize, g.spec.associatePublicIp])).toEqual([
      ['ControlPlane', 'ami-0123456789abcdef0', 40, false],
      ['Node', 'ami-0123456789abcdef0', 50, false],
      ['Node', 'ami-0123456789abcdef0', 50, false],
    ]);
  });

  it('--ssh-access defaults to --admin-access, and without either both are open as in kops', () => {
    const [only] = dryRun(['--admin-access', '203.0.113.0/24']).filter((o) => o.kind === 'Cluster');
    expect([only.spec.kubernetesApiAccess, only.spec.sshAccess]).toEqual([['203.0.113.0/24'], ['203.0.113.0/24']]);
    const [none] = dryRun([]).filter((o) => o.kind === 'Cluster');
    expect([none.spec.kubernetesApiAccess, none.spec.sshAccess]).toEqual([['0.0.0.0/0', '::/0'], ['0.0.0.0/0', '::/0']]);
  });

  it.each([
    [['--admin-access', 'nope'], '--admin-access: "nope" is not a valid CIDR'],
    [['--ssh-access', '10.0.0.0/33'], '--ssh-access: "10.0.0.0/33" is not a valid CIDR'],
    [['--node-volume-size', '0'], '--node-volume-size: must be a whole number of GB, at least 1; got 0'],
    [['--associate-public-ip', '--topology', 'private'], '--associate-public-ip: instances in private subnets cannot have public IPs'],
  ])('refuses %j naming the flag, and writes nothing', (extra, message) => {
    const store = tempDir();
    const before = treeDigest(store);
    const r = runCli(['create', 'cluster', 'bad.example.com', '--zones', 'us-east-1a', ...extra, '--state', store]);
    expectCleanFailure(r);
    expect(r.stderr).toContain(message);
    expect(treeDigest(store)).toBe(before);
  });
});
