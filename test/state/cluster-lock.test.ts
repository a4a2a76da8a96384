import { ClusterLock, withClusterLocks } from '../../src/state/lock/cluster-lock';
import { LockedError } from '../../src/errors/locked-error';
import { FileVfs } from '../../src/state/vfs/file-vfs';
import { MemoryVfs } from '../../src/state/vfs/memory-vfs';
import type { Vfs } from '../../src/state/vfs/vfs';
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
    expect(warnings.join('\n')).toMatch(/taken by another command/);
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
