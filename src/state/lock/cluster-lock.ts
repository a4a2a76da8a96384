import { ConflictError } from '../../errors/conflict-error';
import { LockedError } from '../../errors/locked-error';
import { LockLostError } from '../../errors/lock-lost-error';
import { hasForegroundChild } from '../../util/foreground-child';
import { StatePaths } from '../state-paths';
import type { Vfs } from '../vfs/vfs';
import { describeLease, holderIsDeadLocalProcess, humanDuration, Lease, newLease, parseLease, remainingMs } from './lease';
import { fencedVfs, LockFence } from './lock-fence';
import { lockTtlSeconds } from './lock-ttl';

/** How to take a cluster's lock. */
export interface LockOptions {
  /** The command line, recorded in the lease for whoever finds it locked. */
  command: string;
  /** Take the lock even if someone holds it (their lease is overwritten, with a warning). Default: false. */
  forceUnlock?: boolean;
  /** Lease lifetime; refreshed every third of it. Default: env KFORGE_LOCK_TTL_SECONDS (10-3600), else 60 s. */
  ttlSeconds?: number;
  /** Where warnings go. Default: stderr. */
  warn?: (message: string) => void;
}

/**
 * A lease object (`<cluster>/kforge-lock.json`) that serialises mutating commands on one cluster. It is
 * taken with a create-only write, refreshed with compare-and-swap while the command runs, and released
 * with a conditional delete. A lease whose holder stopped refreshing expires and may be taken over.
 * The holder checks it still holds the lease before each change (`verify`, the fence): once another
 * command has taken it (`--force-unlock`), or it expired because renewals failed, the lock is lost and
 * every later `verify` rejects with LockLostError naming the new holder.
 */
export class ClusterLock {
  private timer?: NodeJS.Timeout;
  private refreshing: Promise<void> = Promise.resolve();
  private verifying?: Promise<void>;
  private lostError?: LockLostError;
  private released = false;

  private constructor(
    private readonly vfs: Vfs,
    private readonly cluster: string,
    private readonly key: string,
    private lease: Lease,
    private version: string,
    private readonly warn: (message: string) => void,
  ) {}

  /** Takes the lock of `cluster`, or throws LockedError naming the holder and its age. */
  static async acquire(vfs: Vfs, cluster: string, options: LockOptions): Promise<ClusterLock> {
    const warn = options.warn ?? ((m: string) => process.stderr.write(`Warning: ${m}\n`));
    const ttl = options.ttlSeconds ?? lockTtlSeconds(process.env);
    const key = StatePaths.lock(cluster);
    // A few rounds: each lost race re-reads what the winner wrote.
    // One token for every attempt: an attempt whose response was lost shows up in the next one's read.
    const token = newLease(options.command, ttl, Date.now()).token;
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = Date.now();
      const lease = { ...newLease(options.command, ttl, now), token };
      const body = JSON.stringify(lease, null, 2);
      const current = await vfs.read(key);
      try {
        if (!current) return new ClusterLock(vfs, cluster, key, lease, await vfs.write(key, body, { ifNotExists: true }), warn).start();
        const held = parseLease(current.data);
        // Our own lease (a lost response to our lock write, retried by the store client) is ours to keep.
        if (held?.token !== undefined && held.token === lease.token) return new ClusterLock(vfs, cluster, key, lease, current.version, warn).start();
        const deadHolder = held !== undefined && holderIsDeadLocalProcess(held);
        if (held && remainingMs(held, now) > 0 && !options.forceUnlock && !deadHolder) {
          throw new LockedError(
            `cluster "${cluster}" is locked by ${describeLease(held, now)}; the lease expires in ${humanDuration(remainingMs(held, now))} unless renewed. ` +
              'Wait for that command to finish, or if it is no longer running, pass --force-unlock.',
          );
        }
        if (!held) warn(`replacing an unreadable lock object at ${vfs.url}/${key}`);
        else if (deadHolder) warn(`taking over the lock of cluster "${cluster}" from ${describeLease(held, now)}: that process is no longer running on this host`);
        else if (remainingMs(held, now) > 0) warn(`--force-unlock: taking the lock of cluster "${cluster}" from ${describeLease(held, now)}; if that command is still running, its changes and yours may conflict`);
        else warn(`taking over the expired lock of cluster "${cluster}" from ${describeLease(held, now)} (not renewed for ${humanDuration(now - Date.parse(held.renewedAt))})`);
        return new ClusterLock(vfs, cluster, key, lease, await vfs.write(key, body, { ifVersion: current.version }), warn).start();
      } catch (e) {
        if (!(e instanceof ConflictError)) throw e;
      }
    }
    throw new LockedError(`cluster "${cluster}" is being locked by another command right now; try again`);
  }

  private start(): this {
    const periodMs = (this.lease.ttlSeconds * 1000) / 3;
    this.timer = setInterval(() => {
      this.refreshing = this.refreshing.then(() => this.refresh());
    }, periodMs);
    // The lease must not keep a finished process alive.
    this.timer.unref();
    return this;
  }

  private async refresh(): Promise<void> {
    if (this.lostError) return;
    const renewed: Lease = { ...this.lease, renewedAt: new Date().toISOString() };
    try {
      this.version = await this.vfs.write(this.key, JSON.stringify(renewed, null, 2), { ifVersion: this.version });
      this.lease = renewed;
    } catch (e) {
      if (e instanceof ConflictError) {
        await this.lostTo();
      } else if (this.expired()) {
        this.markLost(`its lease ${this.where()} could not be renewed within its TTL of ${this.lease.ttlSeconds}s (${errorText(e)}), so another command may hold it now`);
      } else {
        this.warn(`could not renew the lock ${this.where()}: ${errorText(e)}`);
      }
    }
  }

  /**
   * The fence: resolves while this command still holds the lease, as the store says now (one read of the
   * lease, shared by the checks made while it is under way); rejects with LockLostError once it is lost.
   * When the store cannot be read, a lease renewed less than its TTL ago still counts as held: nobody can
   * have taken it over as expired yet.
   */
  verify(): Promise<void> {
    if (!this.lostError && this.expired()) this.markLost(`its lease ${this.where()} was not renewed within its TTL of ${this.lease.ttlSeconds}s, so another command may hold it now`);
    if (this.lostError) return Promise.reject(this.lostError);
    this.verifying ??= this.readHolder().finally(() => (this.verifying = undefined));
    return this.verifying;
  }

  private async readHolder(): Promise<void> {
    let current: Awaited<ReturnType<Vfs['read']>>;
    try {
      current = await this.vfs.read(this.key);
    } catch (e) {
      if (this.expired()) this.markLost(`its lease ${this.where()} could not be read or renewed within its TTL of ${this.lease.ttlSeconds}s (${errorText(e)})`);
      if (this.lostError) throw this.lostError;
      return;
    }
    const held = current ? parseLease(current.data) : undefined;
    if (!held || held.token !== this.lease.token) this.markLost(held ? `to ${describeLease(held, Date.now())}` : `its lease ${this.where()} was deleted or replaced by another command`);
    if (this.lostError) throw this.lostError;
  }

  /** Reads who holds the lease now (a renewal found it changed) and records the loss. */
  private async lostTo(): Promise<void> {
    const current = await this.vfs.read(this.key).catch(() => undefined);
    const held = current ? parseLease(current.data) : undefined;
    this.markLost(held ? `to ${describeLease(held, Date.now())}` : `its lease ${this.where()} was deleted or replaced by another command`);
  }

  /** Whether the lease has gone unrenewed for its whole TTL. */
  private expired(): boolean {
    return remainingMs(this.lease, Date.now()) <= 0;
  }

  private markLost(how: string): void {
    if (this.lostError) return;
    this.lostError = new LockLostError(
      `lost the cluster lock of "${this.cluster}" ${how}; this command stopped: it started nothing after noticing (what it had done stays done). ` +
        'Check what that command changes, then re-run this one.',
    );
    this.warn(`lost the cluster lock of "${this.cluster}" ${how}: starting no new change`);
  }

  private where(): string {
    return `${this.vfs.url}/${this.key}`;
  }

  /** The LockLostError once the lock is lost (as seen by the last renewal or verify), else undefined. */
  get lost(): LockLostError | undefined {
    return this.lostError;
  }

  /** Stops refreshing and deletes the lease, unless someone else has taken it meanwhile. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    clearInterval(this.timer);
    await this.refreshing;
    if (this.lostError) return;
    try {
      await this.vfs.delete(this.key, { ifVersion: this.version });
    } catch (e) {
      if (!(e instanceof ConflictError)) throw e;
    }
  }
}

/**
 * Runs `fn` while holding the lock of every cluster in `clusters` (taken in sorted order, released in
 * reverse). `fn` gets the fence of the locks: it verifies it before each change it makes, and stores it
 * writes through `fence.vfs(...)` do so on every write. If a lock was lost meanwhile, the command fails
 * with LockLostError, also when `fn` finished or failed otherwise: what it did may have raced the new holder.
 */
export async function withClusterLocks<T>(vfs: Vfs, clusters: string[], options: LockOptions, fn: (fence: LockFence) => Promise<T>): Promise<T> {
  const held: ClusterLock[] = [];
  const releaseAll = async () => {
    for (const l of [...held].reverse()) await l.release();
  };
  const verify = async (): Promise<void> => {
    for (const l of held) await l.verify();
  };
  const fence: LockFence = { verify, vfs: (v) => fencedVfs(v, verify) };
  const lost = () => held.find((l) => l.lost)?.lost;
  // An interrupted command gives its lock back instead of leaving it to expire. While the editor runs,
  // Ctrl-C is the editor's; the edit loop ends normally after it and releases the lock then.
  const onSignal = (signal: NodeJS.Signals) => {
    if (signal === 'SIGINT' && hasForegroundChild()) return;
    void releaseAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    for (const c of [...new Set(clusters)].sort()) held.push(await ClusterLock.acquire(vfs, c, options));
    let result: T;
    try {
      result = await fn(fence);
    } catch (e) {
      throw lost() ?? e;
    }
    const gone = lost();
    if (gone) throw gone;
    return result;
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    await releaseAll();
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
