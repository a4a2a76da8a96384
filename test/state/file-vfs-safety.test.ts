import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { StateStoreError } from '../../src/errors/state-store-error';
import { FileVfs } from '../../src/state/vfs/file-vfs';
import { listFiles, runCli, tempDir, treeDigest } from '../helpers/cli';

// The directory store never follows a symbolic link below its root, at any level, for any operation;
// a symlinked root is fine.

const LEVELS: Array<{ link: string; key: string }> = [
  { link: 'c.k8s.local', key: 'c.k8s.local/pki/private/kubernetes-ca/keyset.yaml' },
  { link: 'c.k8s.local/pki', key: 'c.k8s.local/pki/private/kubernetes-ca/keyset.yaml' },
  { link: 'c.k8s.local/pki/private/kubernetes-ca', key: 'c.k8s.local/pki/private/kubernetes-ca/keyset.yaml' },
  { link: 'c.k8s.local/config', key: 'c.k8s.local/config' },
];

/** A store whose `link` points at an outside directory (or file), open to everyone, holding a decoy. */
function storeWithLink(link: string): { root: string; outside: string } {
  const root = tempDir();
  const outside = tempDir('kforge-outside-');
  fs.chmodSync(outside, 0o777);
  fs.writeFileSync(path.join(outside, 'decoy'), 'outside');
  fs.mkdirSync(path.dirname(path.join(root, link)), { recursive: true });
  fs.symlinkSync(link.endsWith('config') ? path.join(outside, 'decoy') : outside, path.join(root, link));
  return { root, outside };
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  return undefined;
}

describe.each(LEVELS)('a symlink at $link', ({ link, key }) => {
  it('is refused by write, read, delete and list, naming the link; nothing outside changes', async () => {
    const { root, outside } = storeWithLink(link);
    const before = treeDigest(outside);
    const modeBefore = fs.statSync(outside).mode;
    const vfs = new FileVfs(root);
    const ops: Array<[string, () => Promise<unknown>]> = [
      ['write', () => vfs.write(key, 'privateMaterial: secret', { secret: true })],
      ['read', () => vfs.read(key)],
      ['delete', () => vfs.delete(key)],
      ['list', () => vfs.list('c.k8s.local/')],
      ['removeTemporaryFiles', () => vfs.removeTemporaryFiles('c.k8s.local/')],
    ];
    for (const [op, run] of ops) {
      const e = await rejection(run());
      expect({ op, error: e instanceof StateStoreError }).toEqual({ op, error: true });
      expect((e as Error).message).toContain(`${path.join(root, link)} is a symbolic link inside the state store`);
    }
    expect(treeDigest(outside)).toBe(before);
    expect(fs.statSync(outside).mode).toBe(modeBefore);
  });
});

describe('the directory store', () => {
  it('works through a symlinked root', async () => {
    const real = tempDir();
    const parent = tempDir();
    fs.symlinkSync(real, path.join(parent, 'store'));
    const vfs = new FileVfs(path.join(parent, 'store'));
    await vfs.write('c/config', 'x');
    expect(await vfs.list('')).toEqual(['c/config']);
    expect(fs.readFileSync(path.join(real, 'c', 'config'), 'utf8')).toBe('x');
  });

  it('create cluster and get clusters refuse a symlinked cluster directory with a clear error, writing nothing outside', () => {
    const { root, outside } = storeWithLink('c.k8s.local');
    const created = runCli(['create', 'cluster', 'c.k8s.local', '--zones', 'us-east-1a', '--state', root]);
    expect(created.status).toBe(1);
    expect(created.stderr).toMatch(/^Error: .*c\.k8s\.local is a symbolic link inside the state store/);
    expect(created.stderr).not.toContain('    at ');
    expect(listFiles(outside)).toEqual(['decoy']);
    const listed = runCli(['get', 'clusters', '--state', root]);
    expect(listed.status).toBe(1);
    expect(listed.stderr).toContain('is a symbolic link inside the state store');
  });

  it('removeTemporaryFiles removes every temporary file below a prefix, and empty directories with them', async () => {
    const root = tempDir();
    const vfs = new FileVfs(root);
    await vfs.write('c/pki/private/ca/keyset.yaml', 'k', { secret: true });
    fs.writeFileSync(path.join(root, 'c/pki/private/ca/.kforge-tmp-000000000000'), 'key');
    fs.mkdirSync(path.join(root, 'c/igconfig/x'), { recursive: true });
    fs.writeFileSync(path.join(root, 'c/igconfig/x/.kforge-tmp-guard-nodeupconfig.yaml'), `${DEAD_PID}@${os.hostname()}`);
    fs.writeFileSync(path.join(root, 'other-tmp'), '');
    expect(await vfs.removeTemporaryFiles('c/')).toBe(2);
    expect(listFiles(root)).toEqual(['c/pki/private/ca/keyset.yaml', 'other-tmp']);
    expect(fs.existsSync(path.join(root, 'c/igconfig'))).toBe(false);
  });

  it('removeTemporaryFiles leaves the writes of live processes: another create may be taking the lock in that directory', async () => {
    const root = tempDir();
    const vfs = new FileVfs(root);
    await vfs.write('c/config', 'x');
    // A write under way names its host (file-vfs.ts's short hash of the host name) and process; a guard holds its owner.
    const host = createHash('sha256').update(os.hostname()).digest('hex').slice(0, 8);
    const dir = path.join(root, 'c');
    fs.writeFileSync(path.join(dir, `.kforge-tmp-${host}-${process.pid}-aaaaaaaaaaaa`), 'mine');
    fs.writeFileSync(path.join(dir, `.kforge-tmp-${host}-${DEAD_PID}-bbbbbbbbbbbb`), 'left by a crash');
    fs.writeFileSync(path.join(dir, '.kforge-tmp-guard-config'), `${process.pid}@${os.hostname()}`);
    expect(await vfs.removeTemporaryFiles('c/')).toBe(1);
    expect(fs.readdirSync(dir).filter((n) => n.startsWith('.kforge-tmp-')).sort()).toEqual([`.kforge-tmp-${host}-${process.pid}-aaaaaaaaaaaa`, '.kforge-tmp-guard-config']);
  });
});

// A pid no process has (Linux's pid_max is at most 2^22).
const DEAD_PID = 4_194_304 + 1;
