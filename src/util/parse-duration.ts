import { UsageError } from '../errors/usage-error';
import { goDurationNs } from './go-duration';

/** Parses a Go-style duration (`18h`, `1h30m`, `90m`, `45s`) into milliseconds; UsageError naming `flag` otherwise. */
export function parseDuration(text: string, flag: string): number {
  const ns = goDurationNs(text);
  if (ns === undefined) throw new UsageError(`${flag}: "${text}" is not a duration (examples: 18h, 1h30m, 45m)`);
  if (ns <= 0) throw new UsageError(`${flag}: the duration must be positive`);
  return ns / 1e6;
}
