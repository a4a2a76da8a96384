import { UsageError } from '../errors/usage-error';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parses a Go-style duration (`18h`, `1h30m`, `90m`, `45s`) into milliseconds; UsageError naming `flag` otherwise. */
export function parseDuration(text: string, flag: string): number {
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  const consumed = parts.map((p) => p[0]).join('');
  if (parts.length === 0 || consumed !== text) throw new UsageError(`${flag}: "${text}" is not a duration (examples: 18h, 1h30m, 45m)`);
  const ms = parts.reduce((sum, p) => sum + Number(p[1]) * UNIT_MS[p[2]], 0);
  if (ms <= 0) throw new UsageError(`${flag}: the duration must be positive`);
  return ms;
}
