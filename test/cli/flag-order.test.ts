import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { runCli, tempDir } from '../helpers/cli';

type Cluster = { spec: { subnets: Array<{ name: string; zone: string }>; kubelet?: { maxPods?: number } } };
type Ig = { metadata: { name: string }; spec: { role: string; subnets: string[]; rootVolumeSize?: number } };

/** The objects `create cluster --dry-run -o yaml` prints. */
function dryRun(args: string[]): { cluster: Cluster; igs: Ig[] } {
  const r = runCli(['create', 'cluster', ...args, '--dry-run', '-o', 'yaml', '--state', tempDir()]);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const docs = yaml.loadAll(r.stdout) as Array<{ kind: string }>;
  return { cluster: docs.find((d) => d.kind === 'Cluster') as unknown as Cluster, igs: docs.filter((d) => d.kind === 'InstanceGroup') as unknown as Ig[] };
}

describe('repeatable flags never take positional arguments (kops argument order)', () => {
  it.each([
    [['--zones', 'us-east-1a', 'demo.k8s.local']],
    [['--zones=us-east-1a', 'demo.k8s.local']],
    [['--zones', 'us-east-1a,us-east-1b', 'demo.k8s.local']],
  ])('create cluster %j writes demo.k8s.local', (args) => {
    const dir = tempDir();
    const r = runCli(['create', 'cluster', ...args, '--state', dir]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(fs.existsSync(path.join(dir, 'demo.k8s.local', 'config'))).toBe(true);
  });

  it('--control-plane-zones and --set before the name', () => {
    const { cluster, igs } = dryRun(['--zones', 'us-east-1a,us-east-1b', '--control-plane-zones', 'us-east-1b', '--set', 'spec.kubelet.maxPods=200', 'demo.k8s.local']);
    expect(cluster.spec.kubelet?.maxPods).toBe(200);
    expect(igs.filter((ig) => ig.spec.role === 'ControlPlane').map((ig) => ig.metadata.name)).toEqual(['control-plane-us-east-1b']);
  });

  it('a comma-separated flag takes one value per occurrence and may be repeated', () => {
    const { cluster } = dryRun(['--zones', 'us-east-1a', '--zones', 'us-east-1b,us-east-1c', 'demo.k8s.local']);
    expect(cluster.spec.subnets.map((s) => s.zone)).toEqual(['us-east-1a', 'us-east-1b', 'us-east-1c']);
  });

  it('--set is repeatable and each occurrence takes one value', () => {
    const { cluster } = dryRun(['--set', 'spec.kubelet.maxPods=200', '--set', 'spec.kubelet.maxPods=150', 'demo.k8s.local', '--zones', 'us-east-1a']);
    expect(cluster.spec.kubelet?.maxPods).toBe(150);
  });

  it('create instancegroup: --subnet and --set before the group name', () => {
    const dir = tempDir();
    expect(runCli(['create', 'cluster', 'demo.k8s.local', '--zones', 'us-east-1a,us-east-1b', '--state', dir]).status).toBe(0);
    const r = runCli(['create', 'instancegroup', '--name', 'demo.k8s.local', '--subnet', 'us-east-1a', '--subnet', 'us-east-1b', '--set', 'spec.rootVolumeSize=64', 'extra', '--dry-run', '-o', 'yaml', '--state', dir]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const ig = yaml.load(r.stdout) as Ig;
    expect(ig.metadata.name).toBe('extra');
    expect(ig.spec.subnets).toEqual(['us-east-1a', 'us-east-1b']);
    expect(ig.spec.rootVolumeSize).toBe(64);
  });
});
