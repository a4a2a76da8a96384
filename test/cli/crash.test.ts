import * as fs from 'node:fs';
import * as path from 'node:path';
import { listFiles, ROOT, runCli, tempDir } from '../helpers/cli';
import { writeManagedFilesOf } from '../helpers/write-managed-files';

// SIGKILL after every single write of create, edit and delete (file store), through a test-only preload
// (test/hooks/crash-after-writes.js) that the CLI never loads itself. After each kill a re-run succeeds
// and leaves the whole cluster (or, for delete, nothing), with no temporary file left behind. Create and
// edit write the user's objects only (as kops); crashes while the PKI and the managed files are written
// (update) are covered in test/ops/plan-managed-files.test.ts.

const HOOK = path.join(ROOT, 'test', 'hooks', 'crash-after-writes.js');
const NAME = 'crash.k8s.local';

function run(args: string[], store: string, env: NodeJS.ProcessEnv = {}) {
  return runCli([...args, '--state', store], { env: { NODE_OPTIONS: `--require ${HOOK}`, EDITOR: editor(), ...env } });
}

/** An editor that sets spec.kubelet.maxPods to the value in $MAX_PODS. */
let editorFile: string | undefined;
function editor(): string {
  if (!editorFile) {
    editorFile = path.join(tempDir(), 'set-max-pods.js');
    const yamlModule = JSON.stringify(require.resolve('js-yaml'));
    fs.writeFileSync(
      editorFile,
      `#!${process.execPath}\nconst fs = require('fs'); const yaml = require(${yamlModule});\n` +
        `const doc = yaml.load(fs.readFileSync(process.argv[2], 'utf8')); doc.spec.kubelet = { ...doc.spec.kubelet, maxPods: Number(process.env.MAX_PODS) };\n` +
        `fs.writeFileSync(process.argv[2], yaml.dump(doc));\n`,
      { mode: 0o755 },
    );
  }
  return editorFile;
}

/** How many store mutations a command makes when nothing stops it. */
function countWrites(args: string[], store: string, env: NodeJS.ProcessEnv = {}): number {
  const file = path.join(tempDir(), 'count');
  const r = run(args, store, { ...env, KFORGE_TEST_COUNT_FILE: file });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return Number(fs.readFileSync(file, 'utf8'));
}

/** A copy of a store, so each kill starts from the same cluster without creating it again. */
function copyOf(store: string): string {
  const copy = tempDir();
  fs.cpSync(store, copy, { recursive: true });
  return copy;
}

const createArgs = ['create', 'cluster', NAME, '--zones', 'us-east-1a'];

let reference: string[];
beforeAll(() => {
  const store = tempDir();
  expect(run(createArgs, store).status).toBe(0);
  reference = listFiles(store);
});

describe('SIGKILL after each write', () => {
  it('a stale temporary file (older than 5 minutes) in a directory being written is removed; a fresh one is left to its writer', () => {
    const store = tempDir();
    expect(run(createArgs, store).status).toBe(0);
    const dir = path.join(store, NAME);
    const stale = path.join(dir, '.kforge-tmp-aaaaaaaaaaaa');
    const fresh = path.join(dir, '.kforge-tmp-bbbbbbbbbbbb');
    fs.writeFileSync(stale, 'privateMaterial: old');
    fs.writeFileSync(fresh, 'privateMaterial: new');
    const old = new Date(Date.now() - 10 * 60_000);
    fs.utimesSync(stale, old, old);
    // An edit rewrites config in that directory.
    expect(runCli(['edit', 'cluster', NAME, '--state', store], { env: { EDITOR: editor(), MAX_PODS: '99' } }).status).toBe(0);
    expect([fs.existsSync(stale), fs.existsSync(fresh)]).toEqual([false, true]);
  });

  it('of create: the name never looks like a cluster until it is complete, and a re-run of create succeeds', () => {
    const writes = countWrites(createArgs, tempDir());
    // The lock, the instance groups, config, the lock's release.
    expect(writes).toBeGreaterThan(3);
    for (let n = 1; n <= writes; n++) {
      const store = tempDir();
      const killed = run(createArgs, store, { KFORGE_TEST_CRASH_AFTER: String(n) });
      expect({ n, status: killed.status }).toEqual({ n, status: -1 });
      const files = listFiles(store).filter((f) => !path.basename(f).startsWith('.kforge-tmp-') && !f.endsWith('kforge-lock.json'));
      // config is the commit point: written last, so before it nothing reads as a cluster.
      const listed = runCli(['get', 'clusters', '--state', store]);
      if (files.includes(`${NAME}/config`)) {
        expect(files).toEqual(reference);
        expect(listed.stdout).toContain(NAME);
        continue;
      }
      expect(listed.stdout).not.toContain(NAME);
      if (files.length > 0) expect(listed.stderr).toContain(`"${NAME}" is an incomplete cluster (no config), left by an interrupted command; "kforge delete cluster ${NAME} --yes" removes it`);
      const again = runCli([...createArgs, '--state', store]);
      expect({ n, status: again.status, stderr: again.stderr.replace(/^Warning: .*\n/gm, '') }).toEqual({ n, status: 0, stderr: '' });
      expect(listFiles(store)).toEqual(reference);
    }
  }, 300_000);

  it('of edit: a re-run of the edit succeeds and leaves config and derived files in agreement', () => {
    const base = tempDir();
    expect(run(createArgs, base).status).toBe(0);
    const writes = countWrites(['edit', 'cluster', NAME], copyOf(base), { MAX_PODS: '101' });
    expect(writes).toBeGreaterThan(5);
    for (let n = 1; n <= writes; n++) {
      const store = copyOf(base);
      const killed = run(['edit', 'cluster', NAME], store, { KFORGE_TEST_CRASH_AFTER: String(n), MAX_PODS: '110' });
      expect({ n, status: killed.status }).toEqual({ n, status: -1 });
      const again = runCli(['edit', 'cluster', NAME, '--state', store], { env: { EDITOR: editor(), MAX_PODS: '120' } });
      expect({ n, status: again.status }).toEqual({ n, status: 0 });
      const full = runCli(['get', 'cluster', NAME, '--full', '-o', 'json', '--state', store]);
      expect(JSON.parse(full.stdout).spec.kubelet.maxPods).toBe(120);
      // A temporary file of the killed write may remain until it is stale (it could be a live writer's);
      // deleting the cluster removes it.
      expect(runCli(['delete', 'cluster', NAME, '--yes', '--unregister', '--state', store]).status).toBe(0);
      expect(listFiles(store)).toEqual([]);
    }
  }, 300_000);

  it('of delete: a re-run of delete removes everything, temporary files with keys included', async () => {
    const base = tempDir();
    expect(run(createArgs, base).status).toBe(0);
    await writeManagedFilesOf(base, NAME);
    const writes = countWrites(['delete', 'cluster', NAME, '--yes', '--unregister'], copyOf(base));
    for (let n = 1; n <= writes; n++) {
      const store = copyOf(base);
      // A temporary file of a write that crashed earlier, holding a key.
      const stray = path.join(store, NAME, 'pki', 'private', 'kubernetes-ca', '.kforge-tmp-0123456789ab');
      fs.writeFileSync(stray, 'privateMaterial: secret');
      const killed = run(['delete', 'cluster', NAME, '--yes', '--unregister'], store, { KFORGE_TEST_CRASH_AFTER: String(n) });
      expect({ n, status: killed.status }).toEqual({ n, status: -1 });
      // config goes first (write 2, after the lock): from then on the cluster is gone for readers.
      expect(fs.existsSync(path.join(store, NAME, 'config'))).toBe(n === 1);
      // Killed after its last write (the lock's release), the delete was complete but for the lock's guard file.
      const again = runCli(['delete', 'cluster', NAME, '--yes', '--unregister', '--state', store]);
      expect({ n, status: again.status, stderr: again.stderr.replace(/^Warning: taking over .*\n/, '') }).toEqual({ n, status: 0, stderr: '' });
      expect(listFiles(store)).toEqual([]);
    }
  }, 300_000);
});
