import { createHash } from 'node:crypto';

/** Version token of stores that have no native one: the sha256 of the content. */
export function contentVersion(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}
