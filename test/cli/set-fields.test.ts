import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { expectCleanFailure, runCli, tempDir, treeDigest } from '../helpers/cli';
import { planManagedFiles } from '../../src/ops/plan-managed-files';
import { openVfs } from '../../src/state/vfs/open-vfs';
import { writeManagedFilesOf } from '../helpers/write-managed-files';

/** `set cluster`, `unset cluster`, `set instancegroup`, `unset instancegroup`: kops's field commands, saved as `edit` saves. */

const CLUSTER = 'f.k8s.local';
const IG = 'nodes-us-east-1a';

const stores: string[] = [];
afterAll(() => {
  for (const s of stores) fs.rmSync(s, { recursive: true, force: true });
});

function newStore(): string {
  const store = tempDir('kforge-set-');
  stores.push(store);
  const r = runCli(['create', 'cluster', CLUSTER, '--zones', 'us-east-1a', '--kubernetes-version', '1.35.7', '--state', store]);
  expect(r.status).toBe(0);
  return store;
}
const read = (store: string, key: string) => fs.readFileSync(path.join(store, CLUSTER, key), 'utf8');
const config = (store: string) => yaml.load(read(store, 'config')) as { spec: Record<string, Record<string, unknown> | undefined> };
const ig = (store: string) => yaml.load(read(store, `instancegroup/${IG}`)) as { spec: Record<string, unknown> };

describe('kforge set cluster / unset cluster', () => {
  it('sets fields (cluster as argument or --name), changes config only (update re-derives the completed spec), and unset gives back the original files', async () => {
    const store = newStore();
    await writeManagedFilesOf(store, CLUSTER);
    const original = treeDigest(store);
    const r = runCli(['set', 'cluster', CLUSTER, 'spec.kubelet.maxPods=200', 'spec.cloudLabels.team=infra', '--state', store]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`cluster "${CLUSTER}" updated\n`);
    expect(config(store).spec.kubelet).toEqual({ maxPods: 200 });
    expect(config(store).spec.cloudLabels).toEqual({ team: 'infra' });
    expect(read(store, 'cluster-completed.spec')).not.toMatch(/maxPods: 200/);
    const plan = await planManagedFiles(openVfs(store), CLUSTER);
    expect(plan.files.find((f) => f.path === `${CLUSTER}/cluster-completed.spec`)).toMatchObject({ action: 'update', diff: expect.stringMatching(/^\+ +maxPods: 200$/m) });
    expect(fs.existsSync(path.join(store, CLUSTER, 'kforge-lock.json'))).toBe(false);

    const same = runCli(['set', 'cluster', '--name', CLUSTER, 'spec.kubelet.maxPods=200', '--state', store]);
    expect(same.stdout).toBe(`cluster "${CLUSTER}" unchanged\n`);

    const u = runCli(['unset', 'cluster', CLUSTER, 'spec.kubelet.maxPods', 'spec.cloudLabels.team', '--state', store]);
    expect(u.stderr).toBe('');
    expect(u.status).toBe(0);
    expect(config(store).spec.kubelet).toBeUndefined();
    expect(treeDigest(store)).toBe(original);
  });

  it('an unknown field, a wrongly typed value or an invalid result names the field and writes nothing', () => {
    const store = newStore();
    const before = treeDigest(store);
    const typed = runCli(['set', 'cluster', CLUSTER, 'spec.kubelet.maxPods=lots', 'spec.kubelet.noSuchField=1', '--state', store]);
    expectCleanFailure(typed);
    expect(typed.stderr).toContain(`cluster ${CLUSTER} is invalid (2 errors)`);
    expect(typed.stderr).toContain('spec.kubelet.maxPods: "lots" is not a number');
    expect(typed.stderr).toContain('spec.kubelet.noSuchField: unknown field "noSuchField" at spec.kubelet');
    const invalid = runCli(['set', 'cluster', CLUSTER, 'spec.networkCIDR=172.20.0.0/33', '--state', store]);
    expectCleanFailure(invalid);
    expect(invalid.stderr).toContain('spec.networkCIDR');
    // A list item that does not fit its type is an error naming the field, not a crash of the YAML writer.
    const item = runCli(['set', 'cluster', CLUSTER, 'spec.etcdClusters=[oops', '--state', store]);
    expectCleanFailure(item);
    expect(item.stderr).toContain('spec.etcdClusters: "[oops" is not a valid object value');
    const unknown = runCli(['unset', 'cluster', CLUSTER, 'spec.kubelet.noSuchField', '--state', store]);
    expectCleanFailure(unknown);
    expect(unknown.stderr).toContain('spec.kubelet.noSuchField: unknown field "noSuchField" at spec.kubelet');
    const rename = runCli(['set', 'cluster', CLUSTER, 'metadata.name=other.k8s.local', '--state', store]);
    expectCleanFailure(rename);
    expect(rename.stderr).toContain('metadata.name: cannot be changed');
    const noValue = runCli(['set', 'cluster', '--name', CLUSTER, 'spec.kubelet.maxPods', '--state', store]);
    expectCleanFailure(noValue);
    expect(noValue.stderr).toContain('spec.kubelet.maxPods: expected path=value');
    expectCleanFailure(runCli(['set', 'cluster', CLUSTER, '--state', store]));
    expectCleanFailure(runCli(['set', 'cluster', 'nope.k8s.local', 'spec.kubelet.maxPods=1', '--state', store]));
    expect(treeDigest(store)).toBe(before);
  });
});

describe('kforge set instancegroup / unset instancegroup', () => {
  it('sets and unsets fields of one group; min > max is refused with the store unchanged', async () => {
    const store = newStore();
    const r = runCli(['set', 'instancegroup', IG, '--name', CLUSTER, 'spec.maxSize=5', 'spec.machineType=m6i.large', '--state', store]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`instance group "${IG}" of cluster "${CLUSTER}" updated\n`);
    expect(ig(store).spec).toMatchObject({ maxSize: 5, machineType: 'm6i.large' });
    expect((await planManagedFiles(openVfs(store), CLUSTER)).files.find((f) => f.path === `${CLUSTER}/igconfig/node/${IG}/nodeupconfig.yaml`)?.action).toBe('create');

    const u = runCli(['unset', 'ig', IG, '--name', CLUSTER, 'spec.machineType', '--state', store]);
    expect(u.stderr).toBe('');
    expect(u.status).toBe(0);
    expect(ig(store).spec.machineType).toBeUndefined();

    const before = treeDigest(store);
    const bad = runCli(['set', 'ig', IG, '--name', CLUSTER, 'spec.minSize=9', '--state', store]);
    expectCleanFailure(bad);
    expect(bad.stderr).toContain('spec.minSize');
    const typed = runCli(['set', 'ig', IG, '--name', CLUSTER, 'spec.maxSize=many', '--state', store]);
    expectCleanFailure(typed);
    expect(typed.stderr).toContain('spec.maxSize: "many" is not a number');
    const missing = runCli(['set', 'ig', 'nope', '--name', CLUSTER, 'spec.maxSize=3', '--state', store]);
    expectCleanFailure(missing);
    expect(missing.stderr).toContain('instance group "nope" not found');
    expect(treeDigest(store)).toBe(before);
  });
});
