import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli, runCliAsync, tempDir, treeDigest } from '../helpers/cli';

const CLUSTER = 'lock.k8s.local';

/** An editor that changes nothing and returns only when `release` exists (at most 30 s), so its kforge process holds the lock meanwhile. */
function heldEditor(release: string): string {
  const file = path.join(tempDir(), 'held-editor.sh');
  fs.writeFileSync(file, `#!/bin/sh\ni=0\nwhile [ ! -f '${release}' ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done\n`, { mode: 0o755 });
  return file;
}

async function waitFor(file: string, timeoutMs = 10000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!fs.existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`${file} did not appear`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the cluster lock between two kforge processes (file store)', () => {
  let store: string;
  beforeEach(() => {
    store = tempDir();
    expect(runCli(['create', 'cluster', CLUSTER, '--zones', 'us-east-1a', '--state', store]).status).toBe(0);
  });

  it('a second mutating command fails at once naming the holder; the lease is renewed during a long edit; it is gone afterwards', async () => {
    const lockFile = path.join(store, CLUSTER, 'kforge-lock.json');
    const release = path.join(tempDir(), 'release');
    // The shortest lease allowed (10 s) is renewed every 3.3 s while the editor runs.
    const first = runCliAsync(['edit', 'cluster', CLUSTER, '--state', store], { EDITOR: heldEditor(release), KFORGE_LOCK_TTL_SECONDS: '10' });
    await waitFor(lockFile);
    const lease = JSON.parse(fs.readFileSync(lockFile, 'utf8'));
    expect(lease.command).toBe(`kforge edit cluster ${CLUSTER} --state ${store}`);
    await new Promise((r) => setTimeout(r, 3800));
    const configBefore = fs.readFileSync(path.join(store, CLUSTER, 'config'));
    for (const args of [['edit', 'cluster', CLUSTER], ['delete', 'cluster', CLUSTER, '--yes', '--unregister'], ['create', 'ig', 'x', '--name', CLUSTER, '--subnet', 'us-east-1a']]) {
      const second = runCli([...args, '--state', store], { env: { EDITOR: 'true' } });
      expect(second.status).toBe(1);
      expect(second.stderr).toMatch(new RegExp(`^Error: cluster "${CLUSTER}" is locked by ${lease.holder.replace(/[.]/g, '\\.')} \\(pid ${lease.pid}\\) running "kforge edit cluster ${CLUSTER}`));
      expect(second.stderr).toContain('--force-unlock');
      expect(second.stderr).not.toMatch(/\n\s+at /);
    }
    expect(Date.parse(JSON.parse(fs.readFileSync(lockFile, 'utf8')).renewedAt)).toBeGreaterThan(Date.parse(lease.renewedAt));
    expect(fs.existsSync(path.join(store, CLUSTER, 'instancegroup', 'x'))).toBe(false);
    expect(fs.readFileSync(path.join(store, CLUSTER, 'config'))).toEqual(configBefore);
    fs.writeFileSync(release, '');
    const r = await first;
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Edit cancelled, no changes made');
    expect(fs.existsSync(lockFile)).toBe(false);
  });

  it('a crashed holder\'s expired lease is taken over with a warning; --force-unlock takes a live one', () => {
    const lockFile = path.join(store, CLUSTER, 'kforge-lock.json');
    const stale = new Date(Date.now() - 5 * 60_000).toISOString();
    fs.writeFileSync(lockFile, JSON.stringify({ holder: 'ci@runner', pid: 99999, command: 'kforge replace -f x.yaml', acquiredAt: stale, renewedAt: stale, ttlSeconds: 60 }));
    const taken = runCli(['edit', 'cluster', CLUSTER, '--state', store], { env: { EDITOR: 'true' } });
    expect(taken.status).toBe(0);
    expect(taken.stderr).toMatch(/^Warning: taking over the expired lock of cluster "lock\.k8s\.local" from ci@runner \(pid 99999\) running "kforge replace -f x\.yaml"/);
    expect(fs.existsSync(lockFile)).toBe(false);

    const now = new Date().toISOString();
    fs.writeFileSync(lockFile, JSON.stringify({ holder: 'ci@runner', pid: 99999, command: 'kforge replace -f x.yaml', acquiredAt: now, renewedAt: now, ttlSeconds: 60 }));
    expect(runCli(['delete', 'cluster', CLUSTER, '--yes', '--unregister', '--state', store]).status).toBe(1);
    expect(fs.existsSync(path.join(store, CLUSTER, 'config'))).toBe(true);
    const forced = runCli(['delete', 'cluster', CLUSTER, '--yes', '--unregister', '--force-unlock', '--state', store]);
    expect(forced.status).toBe(0);
    expect(forced.stderr).toMatch(/^Warning: --force-unlock: taking the lock of cluster "lock\.k8s\.local" from ci@runner \(pid 99999\)/);
    expect(fs.existsSync(path.join(store, CLUSTER))).toBe(false);
  });

  it('an edit whose object changed meanwhile (someone else saved, e.g. after --force-unlock) fails and keeps their change', () => {
    const config = path.join(store, CLUSTER, 'config');
    const theirs = fs.readFileSync(config, 'utf8') + '# saved by someone else\n';
    const editor = path.join(tempDir(), 'racing-editor.sh');
    // While "our" editor is open, another writer replaces config; then we save a change of our own.
    fs.writeFileSync(editor, `#!/bin/sh\ncat > '${config}.new' <<'EOF2'\n${theirs}EOF2\nmv '${config}.new' '${config}'\nsed -i 's/maxPods: .*//; s/^spec:$/spec:\\n  kubelet:\\n    maxPods: 150/' "$1"\n`, { mode: 0o755 });
    const r = runCli(['edit', 'cluster', CLUSTER, '--state', store], { env: { EDITOR: editor } });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^Error: .*${CLUSTER}/config changed since you read it; re-run the command to start from the current version`));
    expect(fs.readFileSync(config, 'utf8')).toBe(theirs);
    expect(fs.existsSync(path.join(store, CLUSTER, 'kforge-lock.json'))).toBe(false);
  });

  it('a command on a cluster that does not exist writes no lock', () => {
    const before = treeDigest(store);
    const r = runCli(['edit', 'cluster', 'nope.k8s.local', '--state', store], { env: { EDITOR: 'true' } });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^Error: cluster "nope\.k8s\.local" not found/);
    expect(treeDigest(store)).toBe(before);
  });
});

describe('KFORGE_LOCK_TTL_SECONDS', () => {
  it('a negative TTL is refused before anything is written', () => {
    const store = tempDir();
    const r = runCli(['create', 'cluster', CLUSTER, '--zones', 'us-east-1a', '--state', store], { env: { KFORGE_LOCK_TTL_SECONDS: '-1' } });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('Error: KFORGE_LOCK_TTL_SECONDS="-1" is not valid: use a whole number of seconds from 10 to 3600 (default 60)\n');
    expect(fs.readdirSync(store)).toEqual([]);
  });
});
