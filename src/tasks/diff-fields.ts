import type { Change } from './task';

/**
 * Compares desired fields to actual ones, kops's BuildChanges: a desired value that is undefined means
 * "don't care"; `tags` are compared key by key (extra actual tags are left alone). Arrays compare as sets of JSON.
 */
export function diffFields(actual: Record<string, unknown> | undefined, desired: Record<string, unknown>): Change[] {
  const changes: Change[] = [];
  for (const field of Object.keys(desired).sort()) {
    const want = desired[field];
    if (want === undefined) continue;
    const have = actual?.[field];
    if (field === 'tags' && isRecord(want)) {
      const haveTags = isRecord(have) ? have : {};
      for (const k of Object.keys(want).sort()) if (haveTags[k] !== want[k]) changes.push({ field: `tags.${k}`, from: haveTags[k], to: want[k] });
    } else if (!same(have, want)) {
      changes.push({ field, from: have, to: want });
    }
  }
  return changes;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    const sa = a.map((x) => JSON.stringify(x)).sort();
    const sb = b.map((x) => JSON.stringify(x)).sort();
    return sa.length === sb.length && sa.every((x, i) => x === sb[i]);
  }
  return JSON.stringify(a) === JSON.stringify(b);
}
