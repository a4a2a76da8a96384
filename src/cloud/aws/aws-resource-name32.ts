// RFC 4648 "extended hex" alphabet, Go's base32.HexEncoding, which kops's hash suffix uses.
const BASE32_HEX = '0123456789abcdefghijklmnopqrstuv';

/**
 * kops's `awsup.GetResourceName32`: `<prefix>-<cluster with dots as dashes>`, cut to fit ELB's 32-character
 * limit and always ending in `-<6-character hash>`, so a load balancer or target group keeps the name kops
 * gives it (a cluster moved from kops finds its own) and two long cluster names do not collide.
 */
export function awsResourceName32(cluster: string, prefix: string): string {
  const s = `${prefix}-${cluster.replace(/\./g, '-')}`;
  const hash = fnv32aBase32Hex(s).slice(0, 6);
  return `${s.slice(0, 32 - hash.length - 1)}-${hash}`;
}

/** FNV-1a (32 bit) of the UTF-8 bytes, big-endian, in lowercase base32hex: kops's truncate.TruncateString hash. */
export function fnv32aBase32Hex(s: string): string {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(s, 'utf8')) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  // 32 bits in 5-bit groups, padded with zero bits to 35: seven characters (Go adds a '=' we never use).
  let out = '';
  const bits = BigInt(h) << 3n;
  for (let i = 6; i >= 0; i--) out += BASE32_HEX[Number((bits >> BigInt(i * 5)) & 31n)];
  return out;
}
