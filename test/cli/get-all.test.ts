import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { expectCleanFailure, runCli, tempDir, treeDigest } from '../helpers/cli';

/** `kforge get NAME` and `kforge get all NAME`: kops's view of a cluster and its instance groups. */

const CLUSTER = 'g.k8s.local';
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
function newStore(): string {
  const store = tempDir('kforge-get-all-');
  dirs.push(store);
  const r = runCli(['create', 'cluster', CLUSTER, '--zones', 'us-east-1a', '--state', store]);
  expect(r.status).toBe(0);
  return store;
}

describe('kforge get NAME / get all NAME', () => {
  let store: string;
  beforeAll(() => {
    store = newStore();
  });

  it('prints the cluster table then the instance-group table; get NAME, get all NAME, --name and the env variable agree', () => {
    const r = runCli(['get', CLUSTER, '--state', store]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('Cluster');
    expect(lines[1]).toMatch(/^NAME\s+CLOUD\s+ZONES$/);
    expect(lines[2]).toMatch(new RegExp(`^${CLUSTER}\\s+aws\\s+us-east-1a$`));
    expect(lines[3]).toBe('');
    expect(lines[4]).toBe('Instance Groups');
    expect(lines[5]).toMatch(/^NAME\s+ROLE\s+MACHINETYPE\s+MIN\s+MAX\s+SUBNETS$/);
    expect(lines.slice(6).map((l) => l.split(/\s+/).slice(0, 2))).toEqual([
      ['control-plane-us-east-1a', 'ControlPlane'],
      ['nodes-us-east-1a', 'Node'],
    ]);
    expect(runCli(['get', 'all', CLUSTER, '--state', store]).stdout).toBe(r.stdout);
    expect(runCli(['get', 'all', '--name', CLUSTER, '--state', store]).stdout).toBe(r.stdout);
    expect(runCli(['get', '--name', CLUSTER, '--state', store]).stdout).toBe(r.stdout);
    expect(runCli(['get', '--state', store], { env: { KFORGE_CLUSTER_NAME: CLUSTER } }).stdout).toBe(r.stdout);
  });

  it('-o yaml lists the cluster and its groups, which create -f accepts (get cluster NAME is the Cluster alone); -o json is an array of the same objects', () => {
    const y = runCli(['get', CLUSTER, '-o', 'yaml', '--state', store]);
    expect(y.status).toBe(0);
    expect(y.stdout.startsWith(runCli(['get', 'cluster', CLUSTER, '-o', 'yaml', '--state', store]).stdout)).toBe(true);
    expect(runCli(['get', 'all', CLUSTER, '-o', 'yaml', '--state', store]).stdout).toBe(y.stdout);
    const docs = yaml.loadAll(y.stdout) as Array<{ kind: string; metadata: { name: string } }>;
    expect(docs.map((d) => [d.kind, d.metadata.name])).toEqual([
      ['Cluster', CLUSTER],
      ['InstanceGroup', 'control-plane-us-east-1a'],
      ['InstanceGroup', 'nodes-us-east-1a'],
    ]);
    const j = JSON.parse(runCli(['get', 'all', CLUSTER, '-o', 'json', '--state', store]).stdout) as unknown[];
    expect(j).toEqual(docs);
    const file = path.join(tempDir('kforge-get-all-file-'), 'all.yaml');
    dirs.push(path.dirname(file));
    fs.writeFileSync(file, y.stdout);
    const other = tempDir('kforge-get-all-other-');
    dirs.push(other);
    const c = runCli(['create', '-f', file, '--state', other]);
    expect(c.stderr).toBe('');
    expect(c.status).toBe(0);
    expect(runCli(['get', CLUSTER, '-o', 'yaml', '--state', other]).stdout).toBe(y.stdout);
  });

  it('an unknown cluster, a mistyped subcommand or no name at all fails with exit 1 and the store unchanged', () => {
    const before = treeDigest(store);
    const missing = runCli(['get', 'nope.k8s.local', '--state', store]);
    expectCleanFailure(missing);
    expect(missing.stderr).toContain('cluster "nope.k8s.local" not found');
    expectCleanFailure(runCli(['get', 'all', 'nope.k8s.local', '--state', store]));
    const typo = runCli(['get', 'clsuters', '--state', store]);
    expectCleanFailure(typo);
    expect(typo.stderr).toContain('unknown command "get clsuters". Did you mean "kforge get clusters"?');
    const none = runCli(['get', '--state', store]);
    expectCleanFailure(none);
    expect(none.stderr).toContain('name a cluster');
    expect(runCli(['get', 'clusters', '--state', store]).stdout).toMatch(new RegExp(`^${CLUSTER}\\s`, 'm'));
    expect(treeDigest(store)).toBe(before);
  });
});
