import { randomBytes } from 'node:crypto';
import * as os from 'node:os';
import { isProcessAlive } from '../../util/process-alive';
import { pidNamespaceOf, ProcessIdentity, selfIdentity, startTimeOf } from '../../util/process-identity';

/** The content of a cluster's lock object: who holds it, doing what, since when, for how long. */
export interface Lease {
  /** user@host of the holder. */
  holder: string;
  pid: number;
  /** The command line being run, e.g. `kforge edit cluster demo.k8s.local`. */
  command: string;
  /** ISO time the lock was taken. */
  acquiredAt: string;
  /** ISO time of the last refresh; the lease expires ttlSeconds after it. */
  renewedAt: string;
  ttlSeconds: number;
  /**
   * Random, unique to one acquisition: a command recognises its own lease by it, e.g. when the response
   * to its lock write was lost and the retry found the lease already there. Absent in leases of older kforge.
   */
  token?: string;
  /** The holder's boot (/proc/sys/kernel/random/boot_id); with the two below, what makes `pid` comparable. Absent in leases of older kforge. */
  bootId?: string;
  /** The holder's pid namespace (readlink /proc/self/ns/pid), e.g. `pid:[4026531836]`. */
  pidNamespace?: string;
  /** The holder's start time in clock ticks since boot (field 22 of /proc/self/stat), which tells a reused pid apart. */
  startTime?: string;
}

/** A new lease for this process. */
export function newLease(command: string, ttlSeconds: number, now: number): Lease {
  const at = new Date(now).toISOString();
  const self = selfIdentity();
  const identity = self.bootId && self.pidNamespace && self.startTime ? { bootId: self.bootId, pidNamespace: self.pidNamespace, startTime: self.startTime } : {};
  return { holder: localHolder(), pid: process.pid, command, acquiredAt: at, renewedAt: at, ttlSeconds, token: randomBytes(12).toString('hex'), ...identity };
}

/** Parses a stored lease; undefined when it is not one (a corrupt lease is treated as expired). */
export function parseLease(data: Buffer): Lease | undefined {
  try {
    const v = JSON.parse(data.toString()) as Partial<Lease>;
    if (typeof v.holder !== 'string' || typeof v.renewedAt !== 'string' || typeof v.ttlSeconds !== 'number' || Number.isNaN(Date.parse(v.renewedAt))) return undefined;
    return {
      holder: v.holder,
      pid: Number(v.pid ?? 0),
      command: String(v.command ?? ''),
      acquiredAt: String(v.acquiredAt ?? v.renewedAt),
      renewedAt: v.renewedAt,
      ttlSeconds: v.ttlSeconds,
      ...(typeof v.token === 'string' ? { token: v.token } : {}),
      ...(typeof v.bootId === 'string' ? { bootId: v.bootId } : {}),
      ...(typeof v.pidNamespace === 'string' ? { pidNamespace: v.pidNamespace } : {}),
      ...(typeof v.startTime === 'string' ? { startTime: v.startTime } : {}),
    };
  } catch {
    return undefined;
  }
}

/** Milliseconds until the lease expires (negative once expired). */
export function remainingMs(lease: Lease, now: number): number {
  return Date.parse(lease.renewedAt) + lease.ttlSeconds * 1000 - now;
}

/** A short human duration: 45s, 3m12s, 2h05m. */
export function humanDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** One line describing a lease, for errors and warnings. */
export function describeLease(lease: Lease, now: number): string {
  return `${lease.holder} (pid ${lease.pid}) running "${lease.command}" since ${humanDuration(now - Date.parse(lease.acquiredAt))} ago`;
}

/** `user@host` of this process, as leases record their holder. */
export function localHolder(): string {
  return `${safeUser()}@${os.hostname()}`;
}

/**
 * True when the lease was taken by a process of this host that is no longer running: its lease can be
 * taken over at once instead of after the TTL. `user@host` alone does not make its pid comparable with
 * ours: containers sharing a hostname, or `unshare --pid`, number their processes afresh. So the lease
 * must record the holder's boot, pid namespace and start time, and the boot and namespace must be ours.
 * Then the holder is gone when its pid is not running, or runs (in our namespace) with another start time:
 * the pid was reused. Anything that cannot be compared (a lease of older kforge, another namespace, a pid
 * whose namespace or start we cannot read) is treated as alive: the lease is waited for, as a remote one.
 */
export function holderIsDeadLocalProcess(lease: Lease, self: ProcessIdentity = selfIdentity()): boolean {
  if (lease.holder !== localHolder() || lease.pid === process.pid) return false;
  if (!lease.bootId || !lease.pidNamespace || !lease.startTime) return false;
  if (lease.bootId !== self.bootId || lease.pidNamespace !== self.pidNamespace) return false;
  if (!isProcessAlive(lease.pid)) return true;
  const namespace = pidNamespaceOf(lease.pid);
  const started = startTimeOf(lease.pid);
  return namespace === lease.pidNamespace && started !== undefined && started !== lease.startTime;
}

function safeUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return process.env.USER ?? 'unknown';
  }
}
