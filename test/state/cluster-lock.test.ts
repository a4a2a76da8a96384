import { ClusterLock, withClusterLocks } from '../../src/state/lock/cluster-lock';
import { LockedError } from '../../src/errors/locked-error';
import { FileVfs } from '../../src/state/vfs/file-vfs';
import { MemoryVfs } from '../../src/state/vfs/memory-vfs';
import type { Vfs } from '../../src/state/vfs/vfs';
import { selfIdentity, startTimeOf } from '../../src/util/process-identity';
import { tempDir } from '../helpers/cli';

const KEY = 'c.k8s.local/kforge-lock.json';
const stores: Array<[string, () => Vfs]> = [
  ['file', () => new FileVfs(tempDir())],
  ['memory', () => new MemoryVfs(`lock-${Math.random()}`)],
];

function lease(vfs: Vfs, renewedAgoMs: number, ttlSeconds = 60): Promise<string> {
  const at = new Date(Date.now() - renewedAgoMs).toISOString();
  return vfs.write(KEY, JSON.stringify({ holder: 'ci@runner-7', pid: 4242, command: 'kforge update cluster c.k8s.local --yes', acquiredAt: at, renewedAt: at, ttlSeconds }));
}

describe.each(stores)('cluster lock on a %s store', (_name, make) => {
  it('records the holder, refuses a second taker naming holder and age, and is gone after release', async () => {
    const vfs = make();
    const warnings: string[] = [];
    const lock = await ClusterLock.acquire(vfs, 'c.k8s.local', { command: 'kforge edit cluster c.k8s.local', warn: (m) => warnings.push(m) });
    const stored = JSON.parse((await vfs.read(KEY))?.data.toString() ?? '{}');
    expect(stored).toMatchObject({ pid: process.pid, command: 'kforge edit cluster c.k8s.local', ttlSeconds: 60 });
    expect(stored.holder).toMatch(/^.+@.+$/);
    const second = ClusterLock.acquire(vfs, 'c.k8s.local', { command: 'kforge delete cluster c.k8s.local --yes' });
    await expect(second).rejects.toBeInstanceOf(LockedError);
    await expect(second).rejects.toThrow(new RegExp(`locked by ${stored.holder} \\(pid ${process.pid}\\) running "kforge edit cluster c.k8s.local" since \\d+s ago.*--force-unlock`));
    await lock.release();
    expect(await vfs.read(KEY)).toBeUndefined();
    expect(warnings).toEqual([]);
    // Released means free: the next command gets it at once.
    await (await ClusterLock.acquire(vfs, 'c.k8s.local', { command: 'x' })).release();
  });

  it('takes over an expired lease with a warning naming the old holder', async () => {
    const vfs = make();
    await lease(vfs, 10 * 60_000);
    const warnings: string[] = [];
    const lock = await ClusterLock.acquire(vfs, 'c.k8s.local', { command: 'kforge edit cluster c.k8s.local', warn: (m) => warnings.push(m) });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/expired lock of cluster "c.k8s.local" from ci@runner-7 \(pid 4242\) running "kforge update cluster c.k8s.local --yes".*not renewed for 10m00s/);
    expect(JSON.parse((await vfs.read(KEY))?.data.toString() ?? '{}').pid).toBe(process.pid);
    await lock.release();
  });

  it('--force-unlock takes a live lease, with a warning', async () => {
    const vfs = make();
    await lease(vfs, 1000);
    await expect(ClusterLock.acquire(vfs, 'c.k8s.local', { command: 'y' })).rejects.toThrow(/locked by ci@runner-7 \(pid 4242\)/);
    const warnings: string[] = [];
    const lock = await ClusterLock.acquire(vfs, 'c.k8s.local', { command: 'y', forceUnlock: true, warn: (m) => warnings.push(m) });
    expect(warnings[0]).toMatch(/^--force-unlock: taking the lock of cluster "c.k8s.local" from ci@runner-7/);
    await lock.release();
    expect(await vfs.read(KEY)).toBeUndefined();
  });

  it('an unreadable lease is replaced with a warning', async () => {
    const vfs = make();
    await vfs.write(KEY, 'not json');
    const warnings: string[] = [];
    await (await ClusterLock.acquire(vfs, 'c.k8s.local', { command: 'z', warn: (m) => warnings.push(m) })).release();
    expect(warnings[0]).toMatch(/unreadable lock object/);
  });

  it('renews the lease while the command runs, so it does not expire under a long command', async () => {
    const vfs = make();
    const lock = await ClusterLock.acquire(vfs, 'c.k8s.local', { command: 'long', ttlSeconds: 0.6 });
    const first = JSON.parse((await vfs.read(KEY))?.data.toString() ?? '{}').renewedAt;
    await new Promise((r) => setTimeout(r, 1000));
    const later = JSON.parse((await vfs.read(KEY))?.data.toString() ?? '{}');
    expect(Date.parse(later.renewedAt)).toBeGreaterThan(Date.parse(first));
    await expect(ClusterLock.acquire(vfs, 'c.k8s.local', { command: 'other' })).rejects.toBeInstanceOf(LockedError);
    await lock.release();
  });

  it('a holder whose lease was taken does not delete the new holder\'s lease', async () => {
    const vfs = make();
    const warnings: string[] = [];
    const mine = await ClusterLock.acquire(vfs, 'c.k8s.local', { command: 'mine', ttlSeconds: 0.3, warn: (m) => warnings.push(m) });
    const theirs = await ClusterLock.acquire(vfs, 'c.k8s.local', { command: 'theirs', forceUnlock: true, warn: () => undefined });
    await new Promise((r) => setTimeout(r, 250));
    await mine.release();
    expect(JSON.parse((await vfs.read(KEY))?.data.toString() ?? '{}').command).toBe('theirs');
    expect(warnings.join('\n')).toMatch(/^lost the cluster lock of "c\.k8s\.local" to .* running "theirs" since \d+s ago: starting no new change$/);
    await theirs.release();
  });

  it('withClusterLocks releases the locks when the work fails', async () => {
    const vfs = make();
    await expect(withClusterLocks(vfs, ['c.k8s.local', 'b.k8s.local'], { command: 'w' }, async () => {
      expect((await vfs.list('')).filter((k) => k.endsWith('kforge-lock.json'))).toEqual(['b.k8s.local/kforge-lock.json', KEY]);
      throw new Error('boom');
    })).rejects.toThrow('boom');
    expect(await vfs.list('')).toEqual([]);
  });
});

describe('file store compare-and-swap', () => {
  it('lets exactly one of many concurrent writers with the same version win', async () => {
    const vfs = new FileVfs(tempDir());
    const v0 = await vfs.write('k', '0');
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => vfs.write('k', String(i + 1), { ifVersion: v0 })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await vfs.list('')).toEqual(['k']);
  });
});

describe('lock safety', () => {
  it('takes over at once, with a warning, a lease of this host whose process is gone; a live one still blocks', async () => {
    const vfs = new FileVfs(tempDir());
    const { localHolder } = await import('../../src/state/lock/lease');
    const { spawnSync } = await import('node:child_process');
    // A pid that existed and is gone: a child that has exited.
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid as number;
    const at = new Date().toISOString();
    // Recorded as this kforge records it: same boot and pid namespace as ours, so the pid is comparable.
    const { bootId, pidNamespace } = selfIdentity();
    await vfs.write(KEY, JSON.stringify({ holder: localHolder(), pid: deadPid, command: 'kforge create cluster c.k8s.local', acquiredAt: at, renewedAt: at, ttlSeconds: 3600, bootId, pidNamespace, startTime: '1' }));
    const warnings: string[] = [];
    const lock = await ClusterLock.acquire(vfs, 'c.k8s.local', { command: 'mine', warn: (m) => warnings.push(m) });
    expect(warnings).toEqual([expect.stringMatching(new RegExp(`^taking over the lock of cluster "c\\.k8s\\.local" from .* \\(pid ${deadPid}\\) running "kforge create cluster c\\.k8s\\.local".*: that process is no longer running on this host$`))]);
    await lock.release();
    // The parent of this test is alive: its lease blocks for the TTL as before.
    await vfs.write(KEY, JSON.stringify({ holder: localHolder(), pid: process.ppid, command: 'other', acquiredAt: at, renewedAt: at, ttlSeconds: 3600, bootId, pidNamespace, startTime: startTimeOf(process.ppid) }));
    await expect(ClusterLock.acquire(vfs, 'c.k8s.local', { command: 'mine' })).rejects.toBeInstanceOf(LockedError);
  });

  it('recognises its own lease by its token when its create-only write was reported as lost', async () => {
    const vfs = new MemoryVfs(`lock-token-${Math.random()}`);
    // A store that applies the first lock write and then reports a conflict, as a retried S3 PUT does.
    let applied = false;
    const lossy: Vfs = {
      url: vfs.url,
      read: (k) => vfs.read(k),
      list: (p) => vfs.list(p),
      delete: (k, o) => vfs.delete(k, o),
      write: async (k, d, o) => {
        if (!applied && o?.ifNotExists) {
          applied = true;
          await vfs.write(k, d, o);
          const { ConflictError } = await import('../../src/errors/conflict-error');
          throw new ConflictError('already exists');
        }
        return vfs.write(k, d, o);
      },
    };
    const lock = await ClusterLock.acquire(lossy, 'c.k8s.local', { command: 'mine', warn: () => undefined });
    expect(JSON.parse((await vfs.read(KEY))!.data.toString()).token).toMatch(/^[0-9a-f]{24}$/);
    await lock.release();
    expect(await vfs.read(KEY)).toBeUndefined();
  });

  it.each(['-1', '0', '9', '3601', '1.5', 'abc'])('refuses KFORGE_LOCK_TTL_SECONDS=%s with a clear error', async (value) => {
    const { lockTtlSeconds } = await import('../../src/state/lock/lock-ttl');
    expect(() => lockTtlSeconds({ KFORGE_LOCK_TTL_SECONDS: value })).toThrow(
      `KFORGE_LOCK_TTL_SECONDS="${value}" is not valid: use a whole number of seconds from 10 to 3600 (default 60)`,
    );
  });

  it('accepts KFORGE_LOCK_TTL_SECONDS from 10 to 3600 and defaults to 60', async () => {
    const { lockTtlSeconds } = await import('../../src/state/lock/lock-ttl');
    expect([lockTtlSeconds({}), lockTtlSeconds({ KFORGE_LOCK_TTL_SECONDS: '10' }), lockTtlSeconds({ KFORGE_LOCK_TTL_SECONDS: '3600' })]).toEqual([60, 10, 3600]);
  });
});
