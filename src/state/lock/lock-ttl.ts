import { UsageError } from '../../errors/usage-error';

/** The lease lifetime when KFORGE_LOCK_TTL_SECONDS is not set. */
export const DEFAULT_LOCK_TTL_SECONDS = 60;
const MIN_TTL = 10;
const MAX_TTL = 3600;

/**
 * The lock's lease lifetime from KFORGE_LOCK_TTL_SECONDS (default 60 s). Anything but a whole number of
 * seconds from 10 to 3600 is a usage error: a zero or negative TTL would make the lock expire at once
 * (no lock at all, and a renewal storm), and an hour is already longer than any command should hold it.
 */
export function lockTtlSeconds(env: NodeJS.ProcessEnv): number {
  const raw = env.KFORGE_LOCK_TTL_SECONDS;
  if (raw === undefined || raw.trim() === '') return DEFAULT_LOCK_TTL_SECONDS;
  const value = Number(raw.trim());
  if (!/^\d+$/.test(raw.trim()) || value < MIN_TTL || value > MAX_TTL) {
    throw new UsageError(`KFORGE_LOCK_TTL_SECONDS=${JSON.stringify(raw)} is not valid: use a whole number of seconds from ${MIN_TTL} to ${MAX_TTL} (default ${DEFAULT_LOCK_TTL_SECONDS})`);
  }
  return value;
}
