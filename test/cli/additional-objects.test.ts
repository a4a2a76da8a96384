import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { ROOT, runCli, tempDir, treeDigest } from '../helpers/cli';

/** Documents of other APIs in a kops manifest travel with the cluster, as kops keeps them (`clusteraddons/default`). */
const MINIMAL = fs.readFileSync(path.join(ROOT, 'test/fixtures/kops/minimal.yaml'), 'utf8');
const SCHEDULER = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      disabled:
      - name: NodeResourcesBalancedAllocation
`;

function write(text: string): string {
  const file = path.join(tempDir(), 'cluster.yaml');
  fs.writeFileSync(file, text);
  return file;
}

describe('objects of other kinds in a manifest', () => {
  const store = tempDir();

  it('are kept with the cluster by create -f, in kops\'s clusteraddons/default', () => {
    const r = runCli(['create', '-f', write(`${MINIMAL}\n---\n${SCHEDULER}`), '--state', store]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const stored = yaml.loadAll(fs.readFileSync(path.join(store, 'minimal.example.com', 'clusteraddons', 'default'), 'utf8'));
    expect(stored).toEqual([yaml.load(SCHEDULER)]);
  });

  it('come back from get all -o yaml, and replace -f of that output changes nothing', () => {
    const out = runCli(['get', 'all', 'minimal.example.com', '-o', 'yaml', '--state', store]);
    expect(out.status).toBe(0);
    const docs = yaml.loadAll(out.stdout) as Array<{ kind: string }>;
    expect(docs.map((d) => d.kind)).toEqual(['Cluster', 'InstanceGroup', 'InstanceGroup', 'KubeSchedulerConfiguration']);
    const before = treeDigest(store);
    const r = runCli(['replace', '-f', write(out.stdout), '--state', store]);
    expect(r.status).toBe(0);
    expect(treeDigest(store)).toBe(before);
  });

  it('are deleted with the cluster', () => {
    expect(runCli(['delete', 'cluster', 'minimal.example.com', '--yes', '--unregister', '--state', store]).status).toBe(0);
    expect(fs.existsSync(path.join(store, 'minimal.example.com'))).toBe(false);
  });

  it('must say which cluster they go with when a file holds several, and nothing is written', () => {
    const other = MINIMAL.replace(/minimal\.example\.com/g, 'other.example.com');
    const empty = tempDir();
    const r = runCli(['create', '-f', write(`${MINIMAL}\n---\n${other}\n---\n${SCHEDULER}`), '--state', empty]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/cluster\.yaml:\d+: KubeSchedulerConfiguration: metadata\.labels\["kops\.k8s\.io\/cluster"\]: must name the cluster this object goes with/);
    expect(fs.readdirSync(empty)).toEqual([]);
  });

  it('still refuse a document without apiVersion or kind, with its line', () => {
    const r = runCli(['create', '-f', write(`${MINIMAL}\n---\nkind: ConfigMap\nmetadata:\n  name: x\n`), '--state', tempDir()]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/cluster\.yaml:\d+: document 4: apiVersion: null is not supported/);
  });
});
