import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { ROOT, runCli, tempDir, treeDigest } from '../helpers/cli';

interface Obj {
  kind: string;
  metadata: { name: string };
}

const key = (o: Obj) => `${o.kind}/${o.metadata.name}`;
const byKey = (docs: Obj[]) => new Map(docs.map((d) => [key(d), JSON.stringify(d)]));

describe.each(['minimal', 'ha', 'private-bastion'])('kops manifest %s', (fixture) => {
  const file = path.join(ROOT, 'test/fixtures/kops', `${fixture}.yaml`);
  const input = yaml.loadAll(fs.readFileSync(file, 'utf8')) as Obj[];
  const clusterName = input.find((d) => d.kind === 'Cluster')?.metadata.name as string;
  const store = tempDir();

  it('goes through create -f and get -o yaml unchanged (same objects, same key order)', () => {
    const c = runCli(['create', '-f', file, '--state', store]);
    expect(c.stderr).toBe('');
    expect(c.status).toBe(0);
    const out = runCli(['get', 'all', clusterName, '-o', 'yaml', '--state', store]);
    expect(out.status).toBe(0);
    expect(byKey(yaml.loadAll(out.stdout) as Obj[])).toEqual(byKey(input));
  });

  it('replace -f of the get output changes nothing', () => {
    const out = runCli(['get', 'all', clusterName, '-o', 'yaml', '--state', store]).stdout;
    const f = path.join(tempDir(), 'out.yaml');
    fs.writeFileSync(f, out);
    const before = treeDigest(store);
    const r = runCli(['replace', '-f', f, '--state', store]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(treeDigest(store)).toBe(before);
  });

  it('get -o json output is accepted by create -f in another store, giving the same objects', () => {
    const json = runCli(['get', 'all', clusterName, '-o', 'json', '--state', store]).stdout;
    const f = path.join(tempDir(), 'out.json');
    fs.writeFileSync(f, json);
    const other = tempDir();
    expect(runCli(['create', '-f', f, '--state', other]).status).toBe(0);
    const again = runCli(['get', 'all', clusterName, '-o', 'yaml', '--state', other]).stdout;
    expect(byKey(yaml.loadAll(again) as Obj[])).toEqual(byKey(input));
  });
});

describe('replace -f', () => {
  it('applies a valid change, which the completed spec follows', () => {
    const store = tempDir();
    runCli(['create', 'cluster', 'r.k8s.local', '--zones', 'us-east-1a', '--kubernetes-version', '1.35.7', '--state', store]);
    const out = runCli(['get', 'all', 'r.k8s.local', '-o', 'yaml', '--state', store]).stdout.replace('kubernetesVersion: 1.35.7', 'kubernetesVersion: 1.36.4');
    const f = path.join(tempDir(), 'c.yaml');
    fs.writeFileSync(f, out);
    const r = runCli(['replace', '-f', f, '--state', store]);
    expect(r.status).toBe(0);
    const completed = runCli(['get', 'cluster', 'r.k8s.local', '--full', '-o', 'yaml', '--state', store]).stdout;
    expect(completed).toContain('image: registry.k8s.io/kube-apiserver:v1.36.4');
  });
});
