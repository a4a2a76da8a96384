import { spawnSync } from 'node:child_process';
import { LockedError } from '../../src/errors/locked-error';
import { LockLostError } from '../../src/errors/lock-lost-error';
import { ClusterLock, withClusterLocks } from '../../src/state/lock/cluster-lock';
import { localHolder } from '../../src/state/lock/lease';
import { FileVfs } from '../../src/state/vfs/file-vfs';
import type { Vfs } from '../../src/state/vfs/vfs';
import { selfIdentity, startTimeOf } from '../../src/util/process-identity';
import { tempDir } from '../helpers/cli';

const CLUSTER = 'c.k8s.local';
const KEY = `${CLUSTER}/kforge-lock.json`;

/** A lease of this host (same user@host) for `pid`, with the identity fields given. */
function localLease(pid: number, identity: Record<string, string | undefined>): string {
  const at = new Date().toISOString();
  return JSON.stringify({ holder: localHolder(), pid, command: 'kforge update cluster c.k8s.local --yes', acquiredAt: at, renewedAt: at, ttlSeconds: 3600, ...identity });
}

/** A pid that existed and is gone: a child that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid as number;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!condition()) throw new Error(`${what} did not happen`);
}

describe('which local holders are known to be gone', () => {
  const self = selfIdentity();

  it('this machine exposes what makes pids comparable', () => {
    expect(self.bootId).toMatch(/^[0-9a-f-]{36}$/);
    expect(self.pidNamespace).toMatch(/^pid:\[\d+\]$/);
    expect(self.startTime).toMatch(/^\d+$/);
  });

  it.each([
    ['a lease of older kforge (no boot, namespace or start time)', {}],
    ['a holder in another pid namespace (a container sharing the hostname, unshare --pid)', { bootId: self.bootId, pidNamespace: 'pid:[1]', startTime: '1' }],
    ['a holder of another boot', { bootId: '00000000-0000-0000-0000-000000000000', pidNamespace: self.pidNamespace, startTime: '1' }],
    ['a lease missing its start time', { bootId: self.bootId, pidNamespace: self.pidNamespace }],
  ])('%s is waited for even when its pid is not running here', async (_what, identity) => {
    const vfs = new FileVfs(tempDir());
    await vfs.write(KEY, localLease(deadPid(), identity));
    await expect(ClusterLock.acquire(vfs, CLUSTER, { command: 'mine', warn: () => undefined })).rejects.toBeInstanceOf(LockedError);
  });

  it('a holder of this boot and namespace whose pid now runs another process (another start time) is gone', async () => {
    const vfs = new FileVfs(tempDir());
    await vfs.write(KEY, localLease(process.ppid, { bootId: self.bootId, pidNamespace: self.pidNamespace, startTime: '1' }));
    const warnings: string[] = [];
    const lock = await ClusterLock.acquire(vfs, CLUSTER, { command: 'mine', warn: (m) => warnings.push(m) });
    expect(warnings).toEqual([expect.stringMatching(new RegExp(`\\(pid ${process.ppid}\\).*: that process is no longer running on this host$`))]);
    await lock.release();
  });

  it('a holder of this boot and namespace that runs with its recorded start time holds the lock', async () => {
    const vfs = new FileVfs(tempDir());
    await vfs.write(KEY, localLease(process.ppid, { bootId: self.bootId, pidNamespace: self.pidNamespace, startTime: startTimeOf(process.ppid) }));
    await expect(ClusterLock.acquire(vfs, CLUSTER, { command: 'mine' })).rejects.toThrow(new RegExp(`is locked by .* \\(pid ${process.ppid}\\) running "kforge update cluster c\\.k8s\\.local --yes"`));
  });

  it('a new lease records the boot, pid namespace and start time of its holder', async () => {
    const vfs = new FileVfs(tempDir());
    const lock = await ClusterLock.acquire(vfs, CLUSTER, { command: 'mine' });
    expect(JSON.parse((await vfs.read(KEY))!.data.toString())).toMatchObject({ pid: process.pid, bootId: self.bootId, pidNamespace: self.pidNamespace, startTime: self.startTime });
    await lock.release();
  });
});

describe('the lock fence', () => {
  it('verifies while held; once another command takes the lock, refuses every write naming the new holder and leaves its lease', async () => {
    const vfs = new FileVfs(tempDir());
    const warnings: string[] = [];
    const work = withClusterLocks(vfs, [CLUSTER], { command: 'kforge update cluster c.k8s.local --yes', warn: (m) => warnings.push(m) }, async (fence) => {
      const store = fence.vfs(vfs);
      await fence.verify();
      await store.write(`${CLUSTER}/before`, 'mine');
      const theirs = await ClusterLock.acquire(vfs, CLUSTER, { command: 'kforge delete cluster c.k8s.local --yes --force-unlock', forceUnlock: true, warn: () => undefined });
      const refused = await store.write(`${CLUSTER}/after`, 'mine').then(() => undefined, (e: unknown) => e);
      expect(refused).toBeInstanceOf(LockLostError);
      expect((refused as LockLostError).code).toBe('LOCK_LOST');
      await expect(store.delete(`${CLUSTER}/before`)).rejects.toBeInstanceOf(LockLostError);
      await expect(fence.verify()).rejects.toBeInstanceOf(LockLostError);
      return theirs;
    });
    // The command's own outcome is the lost lock, whatever its work returned.
    const err = (await work.then(() => undefined, (e: unknown) => e)) as LockLostError;
    expect(err).toBeInstanceOf(LockLostError);
    expect(err.message).toMatch(/^lost the cluster lock of "c\.k8s\.local" to .* \(pid \d+\) running "kforge delete cluster c\.k8s\.local --yes --force-unlock" since \d+s ago; this command stopped/);
    expect(warnings).toEqual([expect.stringMatching(/^lost the cluster lock of "c\.k8s\.local" to .*: starting no new change$/)]);
    expect((await vfs.list(CLUSTER)).sort()).toEqual([`${CLUSTER}/before`, KEY]);
    expect(JSON.parse((await vfs.read(KEY))!.data.toString()).command).toBe('kforge delete cluster c.k8s.local --yes --force-unlock');
  });

  it('a renewal that finds the lease taken marks the lock lost without any verify', async () => {
    const vfs = new FileVfs(tempDir());
    const lock = await ClusterLock.acquire(vfs, CLUSTER, { command: 'mine', ttlSeconds: 0.6, warn: () => undefined });
    const theirs = await ClusterLock.acquire(vfs, CLUSTER, { command: 'theirs', forceUnlock: true, warn: () => undefined });
    await until(() => lock.lost !== undefined, 'the renewal noticing the takeover');
    expect(lock.lost?.message).toMatch(/to .* running "theirs"/);
    await lock.release();
    await theirs.release();
  });

  it('a lease deleted by another command is lost', async () => {
    const vfs = new FileVfs(tempDir());
    const lock = await ClusterLock.acquire(vfs, CLUSTER, { command: 'mine', warn: () => undefined });
    await vfs.delete(KEY);
    await expect(lock.verify()).rejects.toThrow(/^lost the cluster lock of "c\.k8s\.local" its lease .*kforge-lock\.json was deleted or replaced by another command/);
    await lock.release();
  });

  it('a lease whose renewals fail is lost once its TTL has passed unrenewed, not before', async () => {
    const inner = new FileVfs(tempDir());
    let failWrites = false;
    const flaky: Vfs = {
      url: inner.url,
      read: (k) => inner.read(k),
      list: (p) => inner.list(p),
      delete: (k, o) => inner.delete(k, o),
      write: (k, d, o) => (failWrites ? Promise.reject(new Error('connect ECONNREFUSED')) : inner.write(k, d, o)),
    };
    const warnings: string[] = [];
    // Whether the lock counted as lost when each warning was given.
    const lostThen: boolean[] = [];
    const lock: ClusterLock = await ClusterLock.acquire(flaky, CLUSTER, { command: 'mine', ttlSeconds: 0.9, warn: (m) => (warnings.push(m), lostThen.push(lock.lost !== undefined)) });
    failWrites = true;
    await until(() => warnings.some((w) => w.startsWith('could not renew')), 'a failed renewal');
    await until(() => lock.lost !== undefined, 'the lease expiring unrenewed');
    expect(warnings[0]).toMatch(/^could not renew the lock .*: connect ECONNREFUSED$/);
    expect(lostThen[0]).toBe(false);
    await expect(lock.verify()).rejects.toThrow(/within its TTL of 0\.9s/);
    await lock.release();
  });
});
