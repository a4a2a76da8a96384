import { UsageError } from '../errors/usage-error';

/** Parses `k=v,k2=v2` (kops's --cloud-labels syntax); names the flag in errors. */
export function parseKeyValueList(text: string, flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new UsageError(`${flag}: "${part}" is not key=value`);
    out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return out;
}
