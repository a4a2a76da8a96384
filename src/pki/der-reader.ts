/** One DER element as found in a buffer: its tag, its content, and the whole encoding. */
export interface DerElement {
  tag: number;
  content: Buffer;
  /** Tag, length and content: the element's exact bytes. */
  raw: Buffer;
}

/** Reads the element that starts at `offset`; throws RangeError on truncated or indefinite-length input. */
export function readDer(buf: Buffer, offset = 0): DerElement {
  if (offset + 2 > buf.length) throw new RangeError('truncated DER element');
  const tag = buf[offset];
  let len = buf[offset + 1];
  let header = 2;
  if (len & 0x80) {
    const count = len & 0x7f;
    if (count === 0 || count > 4 || offset + 2 + count > buf.length) throw new RangeError('unsupported DER length');
    len = 0;
    for (let i = 0; i < count; i++) len = len * 256 + buf[offset + 2 + i];
    header += count;
  }
  const end = offset + header + len;
  if (end > buf.length) throw new RangeError('truncated DER element');
  return { tag, content: buf.subarray(offset + header, end), raw: buf.subarray(offset, end) };
}

/** The child elements of a constructed element (SEQUENCE, SET, explicit tag). */
export function derChildren(el: DerElement): DerElement[] {
  const out: DerElement[] = [];
  for (let off = 0; off < el.content.length; ) {
    const child = readDer(el.content, off);
    out.push(child);
    off += child.raw.length;
  }
  return out;
}
