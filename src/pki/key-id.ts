import { randomBytes } from 'node:crypto';

/**
 * A new certificate serial number, which is also the key's id in its keyset. As in kops, the high bits
 * are the time in nanoseconds and the low 32 bits random, so ids sort by creation time and never collide.
 */
export function newSerial(now: Date = new Date()): bigint {
  const nanos = BigInt(now.getTime()) * 1_000_000n;
  return (nanos << 32n) | BigInt(randomBytes(4).readUInt32BE(0));
}
