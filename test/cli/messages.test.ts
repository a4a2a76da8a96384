import * as fs from 'node:fs';
import * as path from 'node:path';
import { expectCleanFailure, runCli, tempDir, treeDigest } from '../helpers/cli';

/** A store holding demo.k8s.local (two zones, one control-plane group). */
function storeWithCluster(): string {
  const dir = tempDir();
  const r = runCli(['create', 'cluster', 'demo.k8s.local', '--zones', 'us-east-1a,us-east-1b', '--state', dir]);
  expect(r.status).toBe(0);
  return dir;
}

describe('messages say what happened', () => {
  let store: string;
  beforeAll(() => {
    store = storeWithCluster();
  });

  it.each([
    [['get', 'ig', 'demo.k8s.local'], 'instance groups'],
    [['get', 'instancegroups', 'demo.k8s.local'], 'instance groups'],
    [['get', 'keypairs', 'demo.k8s.local'], 'keysets'],
  ])('%j: the argument names %s, the cluster goes in --name', (args, what) => {
    const r = runCli([...args, '--state', store]);
    expectCleanFailure(r);
    expect(r.stderr).not.toContain('pass it as an argument');
    expect(r.stderr).toContain(`name ${what}`);
    expect(r.stderr).toContain(`--name demo.k8s.local`);
  });

  it.each([
    ['delete', 'instancegroup', 'nodes-us-east-1a'],
    ['create', 'instancegroup', 'extra', '--subnet', 'us-east-1a'],
  ])('%s %s without --name says the argument names the group', (...args) => {
    const r = runCli([...args, '--state', store]);
    expectCleanFailure(r);
    expect(r.stderr).not.toContain('pass it as an argument');
    expect(r.stderr).toContain('--name');
  });

  it('deleting a control-plane group that etcd members use says so, and changes nothing', () => {
    const before = treeDigest(store);
    for (const yes of [[], ['--yes']]) {
      const r = runCli(['delete', 'instancegroup', 'control-plane-us-east-1a', '--name', 'demo.k8s.local', ...yes, '--state', store]);
      expectCleanFailure(r);
      expect(r.stderr).toContain('instance group "control-plane-us-east-1a" cannot be deleted: etcd members still run on it: main/a (spec.etcdClusters[0].etcdMembers[0]), events/a (spec.etcdClusters[1].etcdMembers[0])');
      expect(r.stderr).not.toContain('does not exist');
    }
    expect(treeDigest(store)).toBe(before);
  });

  it('export kubeconfig of a missing cluster says "not found"', () => {
    const r = runCli(['export', 'kubeconfig', 'nope.k8s.local', '--state', store, '--kubeconfig', path.join(tempDir(), 'config')]);
    expectCleanFailure(r);
    expect(r.stderr).toBe(`Error: cluster "nope.k8s.local" not found in state store file://${store}\n`);
  });

  it('a bad KFORGE_STATE_STORE is reported as coming from that variable', () => {
    const r = runCli(['get', 'clusters'], { env: { KFORGE_STATE_STORE: 'bogus://x' } });
    expectCleanFailure(r);
    expect(r.stderr).toContain('KFORGE_STATE_STORE (environment variable): unsupported state store scheme "bogus://"');
    expect(r.stderr).not.toContain('--state');
  });

  it('a bad --state is reported as --state', () => {
    const r = runCli(['get', 'clusters', '--state', 'bogus://x'], { env: { KFORGE_STATE_STORE: '/tmp' } });
    expectCleanFailure(r);
    expect(r.stderr).toContain('--state: unsupported state store scheme "bogus://"');
  });

  it('--state help lists s3:// and gs://, not memfs://, and names its variable once', () => {
    const help = runCli(['get', 'clusters', '--help']).stdout;
    const state = help.slice(help.indexOf('--state=<value>'), help.lastIndexOf('--verbose')).replace(/\s+/g, ' ');
    expect(state).toContain('s3://');
    expect(state).toContain('gs://');
    expect(state).not.toContain('memfs');
    expect(state.split('KFORGE_STATE_STORE').length - 1).toBe(1);
  });

  it('replace -f of an unchanged object says "unchanged"', () => {
    const dir = storeWithCluster();
    const file = path.join(tempDir(), 'demo.yaml');
    const got = runCli(['get', 'all', 'demo.k8s.local', '-o', 'yaml', '--state', dir]);
    fs.writeFileSync(file, got.stdout);
    const r = runCli(['replace', '-f', file, '--state', dir]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('cluster "demo.k8s.local" unchanged');
    expect(r.stdout).toContain('instancegroup "nodes-us-east-1a" unchanged in cluster "demo.k8s.local"');
    fs.writeFileSync(file, got.stdout.replace('maxSize: 1', 'maxSize: 3'));
    const changed = runCli(['replace', '-f', file, '--state', dir]);
    expect(changed.status).toBe(0);
    expect(changed.stdout).toMatch(/instancegroup "\S+" replaced/);
  });

  it('--networking weave is refused: kops removed Weave', () => {
    const dir = tempDir();
    const r = runCli(['create', 'cluster', 'w.k8s.local', '--zones', 'us-east-1a', '--networking', 'weave', '--state', dir]);
    expectCleanFailure(r);
    expect(r.stderr).toContain('--networking');
    expect(r.stderr).toContain('Weave was removed from kops');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('an unknown --networking lists only options kforge accepts', () => {
    const r = runCli(['create', 'cluster', 'w.k8s.local', '--zones', 'us-east-1a', '--networking', 'nope', '--dry-run', '-o', 'yaml']);
    expectCleanFailure(r);
    expect(r.stderr).toContain('cilium');
    expect(r.stderr).not.toContain('weave');
  });
});
