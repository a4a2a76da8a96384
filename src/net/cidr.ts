/** An IPv4 or IPv6 network in CIDR notation, with the arithmetic kops's derivation rules need. */
export class Cidr {
  private constructor(
    /** 4 or 6. */
    readonly family: 4 | 6,
    /** Network address (host bits zero) as an unsigned integer. */
    readonly base: bigint,
    /** Prefix length. */
    readonly prefix: number,
  ) {}

  /** Address width in bits: 32 or 128. */
  get bits(): number {
    return this.family === 4 ? 32 : 128;
  }

  /** Number of addresses in the network. */
  get size(): bigint {
    return 1n << BigInt(this.bits - this.prefix);
  }

  /** Last address in the network. */
  get last(): bigint {
    return this.base + this.size - 1n;
  }

  /** Parses `a.b.c.d/n` or an IPv6 CIDR; returns undefined if invalid or if host bits are set and `strict`. */
  static tryParse(text: string, strict = false): Cidr | undefined {
    if (typeof text !== 'string') return undefined;
    const m = /^([^/]+)\/(\d{1,3})$/.exec(text.trim());
    if (!m) return undefined;
    const prefix = Number(m[2]);
    const v4 = parseIPv4(m[1]);
    const family: 4 | 6 = v4 !== undefined ? 4 : 6;
    const addr = v4 ?? parseIPv6(m[1]);
    if (addr === undefined) return undefined;
    const bits = family === 4 ? 32 : 128;
    if (prefix > bits) return undefined;
    const mask = ((1n << BigInt(bits)) - 1n) ^ ((1n << BigInt(bits - prefix)) - 1n);
    const base = addr & mask;
    if (strict && base !== addr) return undefined;
    return new Cidr(family, base, prefix);
  }

  /** Parses a CIDR or throws an Error naming the text. */
  static parse(text: string): Cidr {
    const c = Cidr.tryParse(text);
    if (!c) throw new Error(`"${text}" is not a valid CIDR`);
    return c;
  }

  /** True if `other` lies entirely inside this network. */
  contains(other: Cidr): boolean {
    return this.family === other.family && other.base >= this.base && other.last <= this.last;
  }

  /** True if the two networks share any address. */
  overlaps(other: Cidr): boolean {
    return this.family === other.family && this.base <= other.last && other.base <= this.last;
  }

  /** The `index`-th subnet of length `prefix` inside this network (index 0 is the first). */
  subnet(prefix: number, index: number): Cidr {
    if (prefix < this.prefix || prefix > this.bits) throw new Error(`cannot carve /${prefix} from ${this.toString()}`);
    const step = 1n << BigInt(this.bits - prefix);
    const base = this.base + step * BigInt(index);
    if (base + step - 1n > this.last) throw new Error(`${this.toString()} has no room for subnet #${index} of size /${prefix}`);
    return new Cidr(this.family, base, prefix);
  }

  /** The address `n` positions after the network address, as text (n=1 is the first usable IP). */
  address(n: number): string {
    return formatAddress(this.family, this.base + BigInt(n));
  }

  /** Canonical CIDR text. */
  toString(): string {
    return `${formatAddress(this.family, this.base)}/${this.prefix}`;
  }
}

function parseIPv4(s: string): bigint | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  let v = 0n;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || (p.length > 1 && p.startsWith('0'))) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    v = (v << 8n) | BigInt(n);
  }
  return v;
}

function parseIPv6(s: string): bigint | undefined {
  if (!/^[0-9a-fA-F:.]+$/.test(s)) return undefined;
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const toGroups = (h: string): number[] | undefined => {
    if (h === '') return [];
    const out: number[] = [];
    const items = h.split(':');
    for (let i = 0; i < items.length; i++) {
      const it = items[i];
      if (i === items.length - 1 && it.includes('.')) {
        const v4 = parseIPv4(it);
        if (v4 === undefined) return undefined;
        out.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(it)) return undefined;
        out.push(parseInt(it, 16));
      }
    }
    return out;
  };
  const head = toGroups(halves[0]);
  const tail = halves.length === 2 ? toGroups(halves[1]) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 1 && missing !== 0) || (halves.length === 2 && missing < 1)) return undefined;
  const groups = [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
}

function formatAddress(family: 4 | 6, v: bigint): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((s) => ((v >> s) & 0xffn).toString()).join('.');
  const groups: string[] = [];
  for (let i = 7; i >= 0; i--) groups.push(((v >> BigInt(i * 16)) & 0xffffn).toString(16));
  // Compress the longest run of zero groups, as RFC 5952 asks.
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== '0') { i++; continue; }
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > bestLen && j - i > 1) { best = i; bestLen = j - i; }
    i = j;
  }
  if (best < 0) return groups.join(':');
  return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLen).join(':')}`;
}
