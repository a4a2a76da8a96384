import * as fs from 'node:fs';
import * as path from 'node:path';
import { listFiles, runCli, startCli, tempDir, treeDigest } from '../helpers/cli';

/**
 * A signal sent to `kforge edit cluster` while the editor runs ends the editor, removes the edit's
 * temporary directory and leaves the store as it was (its lock released). The editor is a script that
 * records its pid and then sleeps, as a user's editor waits for the user.
 */

const CLUSTER = 'e.k8s.local';

/** True while `pid` is a live process (a zombie left for an init that does not reap counts as gone). */
function isRunning(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    if (fs.existsSync('/proc/self/stat')) return false;
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

async function waitFor(what: string, done: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('kforge edit: a signal ends the editor and removes the temporary directory', () => {
  let work: string;
  let store: string;

  beforeAll(() => {
    work = tempDir('kforge-edit-signals-');
    store = path.join(work, 'store');
    const r = runCli(['create', 'cluster', CLUSTER, '--zones', 'us-east-1a', '--kubernetes-version', '1.35.7', '--state', store]);
    expect(r.status).toBe(0);
  });

  afterAll(() => {
    fs.rmSync(work, { recursive: true, force: true });
  });

  test.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)('%s', async (signal, status) => {
    const tmp = fs.mkdtempSync(path.join(work, 'tmp-'));
    const pidFile = path.join(tmp, 'editor.pid');
    const editor = path.join(work, `editor-${signal}.sh`);
    fs.writeFileSync(editor, `#!/bin/sh\necho $$ > "${pidFile}"\nexec sleep 600\n`, { mode: 0o755 });
    const before = treeDigest(store);

    const cli = startCli(['edit', 'cluster', CLUSTER, '--state', store], { EDITOR: editor, KUBE_EDITOR: '', TMPDIR: tmp });
    await waitFor('the editor to start', () => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim() !== '');
    const editorPid = Number(fs.readFileSync(pidFile, 'utf8').trim());
    expect(isRunning(editorPid)).toBe(true);
    expect(fs.readdirSync(tmp).filter((n) => n.startsWith('kforge-edit-'))).toHaveLength(1);
    expect(listFiles(store)).toContain(`${CLUSTER}/kforge-lock.json`);

    process.kill(cli.pid, signal);
    const r = await cli.done;
    expect(r.status).toBe(status);
    expect(r.stderr).not.toContain('    at ');
    expect(r.stdout).toBe('');
    await waitFor('the editor to end', () => !isRunning(editorPid));
    expect(fs.readdirSync(tmp).filter((n) => n.startsWith('kforge-edit-'))).toEqual([]);
    expect(treeDigest(store)).toBe(before);
  });
});
