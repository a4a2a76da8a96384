import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { runCli, tempDir } from '../helpers/cli';

/** What a kops user types: kops's flag names for images, volume types and the VPC, `--role` in any case, several names to `get clusters`. */
describe('create cluster and friends with kops flag names', () => {
  const dir = tempDir();
  const state = `file://${dir}`;
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  type Ig = { metadata: { name: string }; spec: { role: string; image?: string; rootVolumeType?: string } };
  const dryRun = (extra: string[]): { cluster: { spec: { networkID?: string } }; igs: Ig[] } => {
    const r = runCli(['create', 'cluster', 'x.k8s.local', '--zones', 'us-east-1a', '--topology', 'private', '--bastion', '--dry-run', '-o', 'yaml', '--state', state, ...extra]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const docs = yaml.loadAll(r.stdout) as Array<{ kind: string }>;
    return { cluster: docs.find((d) => d.kind === 'Cluster') as never, igs: docs.filter((d) => d.kind === 'InstanceGroup') as never };
  };
  const byRole = (igs: Ig[], role: string) => igs.filter((ig) => ig.spec.role === role);

  it('--node-image, --control-plane-image and --bastion-image take precedence over --image, per role', () => {
    const { igs } = dryRun(['--image', 'ami-0all', '--node-image', 'ami-0node', '--control-plane-image', 'ami-0cp', '--bastion-image', 'ami-0bastion']);
    expect(byRole(igs, 'Node').map((ig) => ig.spec.image)).toEqual(['ami-0node']);
    expect(byRole(igs, 'ControlPlane').map((ig) => ig.spec.image)).toEqual(['ami-0cp']);
    expect(byRole(igs, 'Bastion').map((ig) => ig.spec.image)).toEqual(['ami-0bastion']);
    const plain = dryRun(['--image', 'ami-0all', '--master-image', 'ami-0old']);
    expect(byRole(plain.igs, 'Node').map((ig) => ig.spec.image)).toEqual(['ami-0all']);
    expect(byRole(plain.igs, 'ControlPlane').map((ig) => ig.spec.image)).toEqual(['ami-0old']);
  });

  it('--node-volume-type and --control-plane-volume-type set rootVolumeType of their roles only', () => {
    const { igs } = dryRun(['--node-volume-type', 'io1', '--control-plane-volume-type', 'gp2']);
    expect(byRole(igs, 'Node').map((ig) => ig.spec.rootVolumeType)).toEqual(['io1']);
    expect(byRole(igs, 'ControlPlane').map((ig) => ig.spec.rootVolumeType)).toEqual(['gp2']);
    expect(byRole(igs, 'Bastion').map((ig) => ig.spec.rootVolumeType)).toEqual([undefined]);
  });

  it('--network-id is the VPC (kops\'s name; --vpc still works) and its errors name --network-id', () => {
    for (const flag of ['--network-id', '--vpc']) {
      const { cluster } = dryRun([flag, 'vpc-0abc', '--network-cidr', '10.1.0.0/16']);
      expect(cluster.spec.networkID).toBe('vpc-0abc');
    }
    const r = runCli(['create', 'cluster', 'x.k8s.local', '--zones', 'us-east-1a', '--network-id', 'vpc-0abc', '--state', state]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/--network-cidr: is required with --network-id/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('create instancegroup takes --role in any case; an unknown role is refused with the list', () => {
    const c = runCli(['create', 'cluster', 'a.k8s.local', '--zones', 'us-east-1a', '--state', state]);
    expect(c.status).toBe(0);
    // A local store can be planned from, not applied (update --yes refuses it): the next steps say so.
    expect(c.stdout).toContain('applying (--yes) needs a state store the nodes can read: kforge create state-store s3://BUCKET');
    expect(c.stdout).not.toContain('--yes --admin');
    for (const [role, want] of [['node', 'Node'], ['CONTROLPLANE', 'ControlPlane'], ['bastion', 'Bastion']]) {
      const r = runCli(['create', 'ig', `g-${role.toLowerCase()}`, '--name', 'a.k8s.local', '--role', role, '--subnet', 'us-east-1a', '--dry-run', '-o', 'yaml', '--state', state]);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect((yaml.load(r.stdout) as Ig).spec.role).toBe(want);
    }
    const before = fs.readdirSync(path.join(dir, 'a.k8s.local', 'instancegroup')).sort();
    const bad = runCli(['create', 'ig', 'g-x', '--name', 'a.k8s.local', '--role', 'worker', '--subnet', 'us-east-1a', '--state', state]);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('--role: "worker" is not a role; use one of Node, ControlPlane, Master, Bastion, APIServer');
    expect(fs.readdirSync(path.join(dir, 'a.k8s.local', 'instancegroup')).sort()).toEqual(before);
  });

  it('get clusters A B prints exactly those clusters; an unknown one is an error', () => {
    expect(runCli(['create', 'cluster', 'b.k8s.local', '--zones', 'us-east-1a', '--state', state]).status).toBe(0);
    expect(runCli(['create', 'cluster', 'c.k8s.local', '--zones', 'us-east-1a', '--state', state]).status).toBe(0);
    const r = runCli(['get', 'clusters', 'c.k8s.local', 'a.k8s.local', '-o', 'json', '--state', state]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const listed = JSON.parse(r.stdout) as Array<{ metadata: { name: string } }>;
    expect(listed.map((c) => c.metadata.name)).toEqual(['c.k8s.local', 'a.k8s.local']);
    const table = runCli(['get', 'clusters', 'a.k8s.local', 'b.k8s.local', '--state', state]);
    expect(table.stdout.trim().split('\n').slice(1).map((l) => l.split(/\s+/)[0])).toEqual(['a.k8s.local', 'b.k8s.local']);
    const missing = runCli(['get', 'clusters', 'a.k8s.local', 'nope.k8s.local', '--state', state]);
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toContain('nope.k8s.local');
    expect(missing.stderr).not.toMatch(/\n\s+at /);
  });
});
