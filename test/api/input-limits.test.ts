import { decodeInput, INPUT_LIMITS } from '../../src/api/input-limits';
import { loadManifests } from '../../src/api/load-manifests';
import { parseYamlDocuments } from '../../src/api/yaml-documents';
import { ValidationError } from '../../src/errors/validation-error';

/**
 * The input limits (docs/getting-started.md, "Input limits") at their edges, on the real parser: a value
 * at a limit is accepted, one past it is refused with file, line and path.
 */

/** The single FieldError of the ValidationError `fn` throws. */
function refusal(fn: () => unknown): { path: string; message: string; line?: number; file?: string } {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    const errors = (e as ValidationError).errors;
    expect(errors).toHaveLength(1);
    return errors[0];
  }
  throw new Error('expected a ValidationError');
}

const parse = (text: string) => parseYamlDocuments(text, 'in.yaml');

describe('input limits of parsed documents', () => {
  it('a list of 10,000 items is accepted; 10,001 are refused with the path and line of the list', () => {
    const list = (n: number) => `a:\n  b:\n${'  - 1\n'.repeat(n)}`;
    expect(parse(list(INPUT_LIMITS.collectionItems))[0].value).toBeDefined();
    expect(refusal(() => parse(list(INPUT_LIMITS.collectionItems + 1)))).toMatchObject({ file: 'in.yaml', line: 2, path: 'a.b', message: expect.stringContaining('a list of 10,001 items') });
  });

  it('a mapping of 10,001 keys is refused', () => {
    const keys = Array.from({ length: INPUT_LIMITS.collectionItems + 1 }, (_, i) => `  k${i}: 1\n`).join('');
    expect(refusal(() => parse(`m:\n${keys}`))).toMatchObject({ path: 'm', line: 1, message: expect.stringContaining('10,001 keys') });
  });

  it('a string of 256 KiB is accepted; one character more is refused, and so is a key that long', () => {
    const max = INPUT_LIMITS.stringLength;
    expect(parse(`x:\n  s: ${'a'.repeat(max)}\n`)[0].value).toBeDefined();
    expect(refusal(() => parse(`x:\n  s: ${'a'.repeat(max + 1)}\n`))).toMatchObject({ path: 'x.s', line: 2, message: expect.stringContaining('longer than the 256 KiB limit') });
    expect(refusal(() => parse(`x:\n  ${'k'.repeat(max + 1)}: 1\n`))).toMatchObject({ path: 'x', message: expect.stringContaining('a key of 262,145 characters') });
  });

  it('64 levels of nesting are accepted, 65 are refused, in block and in flow style', () => {
    const block = (n: number) => Array.from({ length: n }, (_, i) => `${'  '.repeat(i)}l${i}:`).join('\n') + ' 1\n';
    const flow = (n: number) => `${'['.repeat(n)}1${']'.repeat(n)}\n`;
    expect(parse(block(INPUT_LIMITS.depth))[0].value).toBeDefined();
    expect(parse(flow(INPUT_LIMITS.depth))[0].value).toBeDefined();
    expect(refusal(() => parse(block(INPUT_LIMITS.depth + 1))).message).toContain('nested more than 64 levels deep');
    expect(refusal(() => parse(flow(INPUT_LIMITS.depth + 1))).message).toContain('nested more than 64 levels deep');
    // Thousands of levels: refused while parsing, no stack overflow.
    expect(refusal(() => parse(flow(100_000))).message).toContain('nested more than 64 levels deep');
  });

  it('aliases are expanded as they would be stored: nesting through an alias counts', () => {
    const deep = `${'['.repeat(40)}1${']'.repeat(40)}`;
    expect(refusal(() => parse(`a: &d ${deep}\nb: ${'['.repeat(30)}*d${']'.repeat(30)}\n`))).toMatchObject({ message: expect.stringContaining('once its 1 YAML alias is expanded') });
  });

  it('a billion-laughs alias bomb is refused quickly, naming the path where the budget ran out', () => {
    let text = 'spec:\n  affinity:\n    a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
    for (let i = 1; i < 10; i++) text += `    a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(',')}]\n`;
    const e = refusal(() => parse(text));
    expect(e.path).toMatch(/^spec\.affinity\.a\d(\[\d\])+$/);
    expect(e.message).toBe('the document holds more than 100,000 values once its 81 YAML aliases are expanded (the limit)');
  });

  it('a moderate use of aliases is accepted', () => {
    const text = `common: &c {team: infra, env: dev}\n${Array.from({ length: 50 }, (_, i) => `g${i}: *c\n`).join('')}`;
    expect(Object.keys(parse(text)[0].value as object)).toHaveLength(51);
  });

  it('a long string repeated through aliases breaks the expanded-text limit', () => {
    const text = `s: &s ${'x'.repeat(200 * 1024)}\nl: [${Array(30).fill('*s').join(',')}]\n`;
    expect(refusal(() => parse(text)).message).toContain('more than 4 MiB of text once its 30 YAML aliases are expanded');
  });

  it('a flow list of 200,000 items is refused while parsing, without a stack overflow', () => {
    expect(refusal(() => parse(`a: [${'1,'.repeat(200_000)}1]\n`)).message).toBe('the file holds more than 100,000 values (the limit)');
  });

  it('limits apply to every document of a stream, and loadManifests reports them with the file', () => {
    const text = `apiVersion: v1\nkind: ConfigMap\n---\napiVersion: v1\nkind: ConfigMap\ndata:\n  x: ${'y'.repeat(INPUT_LIMITS.stringLength + 1)}\n`;
    expect(refusal(() => loadManifests(text, 'm.yaml'))).toMatchObject({ file: 'm.yaml', line: 7, path: 'data.x' });
  });
});

describe('decoding input bytes', () => {
  const decode = (bytes: number[] | Buffer) => decodeInput(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes), false, 'f.yaml');

  it('accepts UTF-8, including 4-byte characters, and drops a leading BOM', () => {
    expect(decode(Buffer.from('a: "café 🚀"\n'))).toBe('a: "café 🚀"\n');
    expect(decode([0xef, 0xbb, 0xbf, 0x61])).toBe('a');
  });

  it.each([
    ['a Latin-1 byte', [0x61, 0x0a, 0x62, 0x3a, 0x20, 0xe9, 0x0a], 2, 4, 'e9'],
    ['an overlong encoding of "/"', [0x61, 0xc0, 0xaf], 1, 2, 'c0'],
    ['an encoded UTF-16 surrogate', [0x0a, 0x0a, 0xed, 0xa0, 0x80], 3, 1, 'ed'],
    ['a sequence cut off at the end', [0x61, 0x62, 0xe2, 0x82], 1, 3, 'e2'],
    ['a stray continuation byte', [0x80], 1, 1, '80'],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 1, 1, 'f4'],
  ])('refuses %s with line and column', (_, bytes, line, column, hex) => {
    expect(refusal(() => decode(bytes))).toMatchObject({ file: 'f.yaml', line, message: expect.stringContaining(`byte 0x${hex} at column ${column} is not part of a UTF-8 character`) });
  });

  it('accepts exactly 4 MiB and refuses a truncated read', () => {
    const max = Buffer.alloc(INPUT_LIMITS.fileBytes, 0x61);
    expect(decode(max)).toHaveLength(INPUT_LIMITS.fileBytes);
    const over = Buffer.alloc(INPUT_LIMITS.fileBytes + 1, 0x0a);
    expect(refusal(() => decodeInput(over, true, 'big.yaml'))).toMatchObject({ file: 'big.yaml', line: INPUT_LIMITS.fileBytes + 1, message: expect.stringContaining('larger than 4 MiB (4,194,304 bytes)') });
  });
});
