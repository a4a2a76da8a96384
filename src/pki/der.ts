/**
 * A minimal DER encoder: just the ASN.1 types an X.509 certificate needs. Node's crypto generates keys,
 * exports SubjectPublicKeyInfo and signs natively; node-forge cannot sign with ECDSA keys, so kforge
 * builds the certificate structure itself (docs/pki.md explains the choice).
 */
export const Der = {
  /** A SEQUENCE of already-encoded elements. */
  sequence: (...items: Buffer[]): Buffer => tlv(0x30, Buffer.concat(items)),
  /** A SET OF already-encoded elements (DER sorts SET OF contents by their encoding). */
  set: (...items: Buffer[]): Buffer => tlv(0x31, Buffer.concat([...items].sort(Buffer.compare))),
  /** A non-negative INTEGER from a bigint (minimal two's complement). */
  integer: (value: bigint): Buffer => tlv(0x02, integerBytes(value)),
  /** An OBJECT IDENTIFIER from dotted notation. */
  oid: (dotted: string): Buffer => tlv(0x06, oidBytes(dotted)),
  /** NULL. */
  null: (): Buffer => Buffer.from([0x05, 0x00]),
  /** A BOOLEAN. */
  boolean: (value: boolean): Buffer => tlv(0x01, Buffer.from([value ? 0xff : 0x00])),
  /** An OCTET STRING. */
  octetString: (data: Buffer): Buffer => tlv(0x04, data),
  /** A BIT STRING of whole bytes. */
  bitString: (data: Buffer, unusedBits = 0): Buffer => tlv(0x03, Buffer.concat([Buffer.from([unusedBits]), data])),
  /** A UTF8String. */
  utf8: (text: string): Buffer => tlv(0x0c, Buffer.from(text, 'utf8')),
  /** UTCTime for years 1950–2049, GeneralizedTime otherwise, as RFC 5280 requires; whole seconds. */
  time: (date: Date): Buffer => {
    const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
    const digits = iso.slice(0, 19).replace(/[-T:]/g, '');
    const year = date.getUTCFullYear();
    return year >= 1950 && year < 2050 ? tlv(0x17, Buffer.from(`${digits.slice(2)}Z`, 'ascii')) : tlv(0x18, Buffer.from(`${digits}Z`, 'ascii'));
  },
  /** A context-specific EXPLICIT tag [n] around an encoded element. */
  explicit: (n: number, inner: Buffer): Buffer => tlv(0xa0 | n, inner),
  /** A context-specific IMPLICIT primitive tag [n] with raw content (e.g. GeneralName dNSName). */
  implicitPrimitive: (n: number, content: Buffer): Buffer => tlv(0x80 | n, content),
  /** A named-bit BIT STRING (KeyUsage): bit 0 is the most significant bit; trailing zero bits dropped. */
  namedBits: (bits: number[]): Buffer => {
    if (bits.length === 0) return tlv(0x03, Buffer.from([0]));
    const highest = Math.max(...bits);
    const bytes = Buffer.alloc(Math.floor(highest / 8) + 1);
    for (const b of bits) bytes[Math.floor(b / 8)] |= 0x80 >> b % 8;
    const unused = 7 - (highest % 8);
    return tlv(0x03, Buffer.concat([Buffer.from([unused]), bytes]));
  },
};

/** Encodes a tag-length-value triple with a definite DER length. */
export function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), lengthBytes(content.length), content]);
}

function lengthBytes(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const out: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) out.unshift(v & 0xff);
  return Buffer.from([0x80 | out.length, ...out]);
}

function integerBytes(value: bigint): Buffer {
  if (value < 0n) throw new RangeError('negative INTEGER is not supported');
  let hex = value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  let buf = Buffer.from(hex, 'hex');
  if (buf[0] & 0x80) buf = Buffer.concat([Buffer.from([0]), buf]);
  return buf;
}

function oidBytes(dotted: string): Buffer {
  const parts = dotted.split('.').map((p) => BigInt(p));
  const out: number[] = [Number(parts[0] * 40n + parts[1])];
  for (const p of parts.slice(2)) {
    const chunk: number[] = [];
    let v = p;
    do {
      chunk.unshift(Number(v & 0x7fn));
      v >>= 7n;
    } while (v > 0n);
    for (let i = 0; i < chunk.length - 1; i++) chunk[i] |= 0x80;
    out.push(...chunk);
  }
  return Buffer.from(out);
}
