import { promises as fs } from 'node:fs';

/** Bytes read, and whether the source had more than the limit (only `limit + 1` bytes are kept then). */
export interface LimitedBytes {
  bytes: Buffer;
  truncated: boolean;
}

/**
 * Reads a file (by path) or a stream, stopping one byte past `limit`: an oversized input — or an endless
 * one such as /dev/zero or a pipe — costs no more memory or time than the limit before it is refused.
 */
export async function readLimited(source: string | AsyncIterable<Buffer | string>, limit: number): Promise<LimitedBytes> {
  if (typeof source !== 'string') {
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const c of source) {
      const chunk = typeof c === 'string' ? Buffer.from(c) : c;
      chunks.push(chunk);
      total += chunk.length;
      if (total > limit) break;
    }
    const bytes = Buffer.concat(chunks, total);
    return total > limit ? { bytes: bytes.subarray(0, limit + 1), truncated: true } : { bytes, truncated: false };
  }
  const handle = await fs.open(source, 'r');
  try {
    const buf = Buffer.allocUnsafe(limit + 1);
    let total = 0;
    while (total < buf.length) {
      const { bytesRead } = await handle.read(buf, total, Math.min(64 * 1024, buf.length - total), null);
      if (bytesRead === 0) break;
      total += bytesRead;
    }
    // A copy, so the unused part of the limit-sized buffer is not kept alive.
    return { bytes: Buffer.from(buf.subarray(0, total)), truncated: total > limit };
  } finally {
    await handle.close();
  }
}
