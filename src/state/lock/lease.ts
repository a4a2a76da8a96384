import { randomBytes } from 'node:crypto';
import * as os from 'node:os';
import { isProcessAlive } from '../../util/process-alive';

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
}

/** A new lease for this process. */
export function newLease(command: string, ttlSeconds: number, now: number): Lease {
  const at = new Date(now).toISOString();
  return { holder: localHolder(), pid: process.pid, command, acquiredAt: at, renewedAt: at, ttlSeconds, token: randomBytes(12).toString('hex') };
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
 * True when the lease was taken by a process of this host (same user@host) that is no longer running:
 * its lease can be taken over at once instead of after the TTL. A pid reused since is seen as alive,
 * which only means waiting for the TTL as before.
 */
export function holderIsDeadLocalProcess(lease: Lease): boolean {
  return lease.holder === localHolder() && lease.pid !== process.pid && !isProcessAlive(lease.pid);
}

function safeUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return process.env.USER ?? 'unknown';
  }
}
