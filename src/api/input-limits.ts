import type { FieldError } from '../errors/field-error';
import { ValidationError } from '../errors/validation-error';

/**
 * Limits on what kforge reads from a manifest (`create -f`, `replace -f`) or an edited object. They are
 * far above any real cluster spec (kops's most complete test manifest is 8 KiB and under 300 values)
 * and keep hostile input — a huge file, a YAML alias bomb, a giant string or list — from costing more
 * than a second and a couple of hundred megabytes before it is refused. Documented in
 * docs/getting-started.md ("Input limits").
 */
export const INPUT_LIMITS = {
  /** Bytes in one file (or stdin, or an edited object). */
  fileBytes: 4 * 1024 * 1024,
  /** Characters in one string: a value or a mapping key. */
  stringLength: 256 * 1024,
  /** Items in one list, or keys in one mapping. */
  collectionItems: 10_000,
  /** Nesting depth of lists and mappings. */
  depth: 64,
  /** Values (mappings, lists, scalars) in one file, and in one document once its aliases are expanded. */
  values: 100_000,
  /** Characters of text (strings and keys) in one document once its aliases are expanded: what would be stored. */
  expandedText: 4 * 1024 * 1024,
};

/** A limit broken inside a parsed document: where (as a path into the value) and what. */
export interface LimitViolation {
  path: Array<string | number>;
  message: string;
}

/** Human form of a byte count, e.g. `4 MiB`, `256 KiB`. */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

interface Entry {
  value: unknown;
  depth: number;
  parent?: Entry;
  key?: string | number;
}

/**
 * Walks one parsed document as the tree it stands for — a value reached through several aliases is
 * counted each time, as it would be stored — and returns the first limit it breaks. The walk is
 * iterative (no recursion proportional to the input) and stops as soon as a budget is spent, so an alias
 * bomb costs at most `values` steps however large it would expand.
 */
export function checkDocumentLimits(root: unknown, aliases = 0): LimitViolation | undefined {
  let values = 0;
  let text = 0;
  const stack: Entry[] = [{ value: root, depth: 0 }];
  const expanded = aliases > 0 ? ` once its ${aliases} YAML ${aliases === 1 ? 'alias is' : 'aliases are'} expanded` : '';
  while (stack.length > 0) {
    const e = stack.pop() as Entry;
    const v = e.value;
    values++;
    if (values > INPUT_LIMITS.values) {
      return { path: pathOf(e), message: `the document holds more than ${INPUT_LIMITS.values.toLocaleString('en-US')} values${expanded} (the limit)` };
    }
    if (typeof v === 'string') {
      if (v.length > INPUT_LIMITS.stringLength) return { path: pathOf(e), message: `a string of ${v.length.toLocaleString('en-US')} characters is longer than the ${formatBytes(INPUT_LIMITS.stringLength)} limit` };
      text += v.length;
    } else if (v !== null && typeof v === 'object' && !(v instanceof Date) && !ArrayBuffer.isView(v)) {
      if (e.depth >= INPUT_LIMITS.depth) return { path: pathOf(e), message: `lists and mappings are nested more than ${INPUT_LIMITS.depth} levels deep${expanded} (the limit)` };
      if (Array.isArray(v)) {
        if (v.length > INPUT_LIMITS.collectionItems) return { path: pathOf(e), message: `a list of ${v.length.toLocaleString('en-US')} items is longer than the ${INPUT_LIMITS.collectionItems.toLocaleString('en-US')}-item limit` };
        // Pushed last-first so the walk, and so the first violation reported, follows document order.
        for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], depth: e.depth + 1, parent: e, key: i });
      } else {
        const keys = Object.keys(v);
        if (keys.length > INPUT_LIMITS.collectionItems) return { path: pathOf(e), message: `a mapping of ${keys.length.toLocaleString('en-US')} keys has more than the ${INPUT_LIMITS.collectionItems.toLocaleString('en-US')}-key limit` };
        for (let i = keys.length - 1; i >= 0; i--) {
          const k = keys[i];
          if (k.length > INPUT_LIMITS.stringLength) return { path: pathOf(e), message: `a key of ${k.length.toLocaleString('en-US')} characters is longer than the ${formatBytes(INPUT_LIMITS.stringLength)} limit` };
          text += k.length;
          stack.push({ value: (v as Record<string, unknown>)[k], depth: e.depth + 1, parent: e, key: k });
        }
      }
    } else if (ArrayBuffer.isView(v)) {
      text += v.byteLength;
    }
    if (text > INPUT_LIMITS.expandedText) {
      return { path: pathOf(e), message: `the document holds more than ${formatBytes(INPUT_LIMITS.expandedText)} of text${expanded} (the limit)` };
    }
  }
  return undefined;
}

function pathOf(e: Entry): Array<string | number> {
  const out: Array<string | number> = [];
  for (let at: Entry | undefined = e; at?.parent; at = at.parent) out.push(at.key as string | number);
  return out.reverse();
}

/** Renders a document path as FieldError paths are written (`spec.kubeDNS.affinity[3]`), long keys shortened. */
export function formatDocPath(path: Array<string | number>): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[A-Za-z0-9_-]{1,64}$/.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg.length > 40 ? `${seg.slice(0, 40)}…` : seg)}]`;
  }
  return out;
}

/**
 * Turns the bytes of an input file into text: refuses more than `INPUT_LIMITS.fileBytes` (`truncated`
 * says the reader stopped after the limit) and bytes that are not UTF-8 (which would otherwise become
 * U+FFFD and be stored), each with the file and line.
 */
export function decodeInput(bytes: Buffer, truncated: boolean, file: string): string {
  if (truncated || bytes.length > INPUT_LIMITS.fileBytes) {
    const limit = INPUT_LIMITS.fileBytes;
    throw new ValidationError(
      [{ path: '', file, line: lineAt(bytes, limit), message: `the file is larger than ${formatBytes(limit)} (${limit.toLocaleString('en-US')} bytes), the limit for a manifest; it passes the limit on this line` }],
      file,
    );
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    const lineStart = bytes.lastIndexOf(0x0a, at - 1) + 1;
    const error: FieldError = {
      path: '',
      file,
      line: lineAt(bytes, at),
      message: `the file is not valid UTF-8: byte 0x${bytes[at].toString(16).padStart(2, '0')} at column ${at - lineStart + 1} is not part of a UTF-8 character; save the file as UTF-8`,
    };
    throw new ValidationError([error], file);
  }
}

/** 1-based line of byte `offset`. */
function lineAt(bytes: Buffer, offset: number): number {
  let line = 1;
  const end = Math.min(offset, bytes.length);
  for (let i = bytes.indexOf(0x0a); i !== -1 && i < end; i = bytes.indexOf(0x0a, i + 1)) line++;
  return line;
}

/** Offset of the first byte that does not begin or continue a well-formed UTF-8 sequence (RFC 3629). */
function firstInvalidUtf8(b: Buffer): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    let n: number;
    let min: number;
    if (c < 0x80) {
      i++;
      continue;
    } else if (c >= 0xc2 && c <= 0xdf) {
      n = 1;
      min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
      n = 2;
      min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3;
      min = 0x10000;
    } else {
      return i;
    }
    let cp = c & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const d = b[i + k];
      if (d === undefined || (d & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (d & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n + 1;
  }
  return b.length - 1;
}
