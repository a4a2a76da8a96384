import { HclBlock, HclBody, HclExpression, HclValue } from '../../tasks/terraform-target';

// Written the way `terraform fmt` leaves it, so that `terraform fmt -check` passes on the output: two
// spaces per level, keys sorted, the `=` of consecutive one-line attributes aligned (a block or a
// multi-line value breaks the run, as in hclwrite).

const INDENT = '  ';

/** A string as an HCL quoted literal; `${` and `%{` are escaped so a value is never read as a template. */
export function hclString(s: string): string {
  const escaped = s
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t')
    .replace(/\$\{/g, '$$$${') // `$$` is one `$` in a replacement: this writes `$${`
    .replace(/%\{/g, '%%{');
  return `"${escaped}"`;
}

/** The lines of a body at `depth`: attributes and blocks in key order. */
export function bodyLines(body: HclBody, depth: number): string[] {
  const pad = INDENT.repeat(depth);
  const out: string[] = [];
  let run: [string, string][] = [];
  const flush = (): void => {
    const width = Math.max(0, ...run.map(([k]) => k.length));
    for (const [k, v] of run) out.push(`${pad}${k.padEnd(width)} = ${v}`);
    run = [];
  };
  for (const key of sortedKeys(body)) {
    const v = body[key];
    if (v === undefined) continue;
    const blocks = v instanceof HclBlock ? [v] : isBlockList(v) ? v : undefined;
    if (blocks) {
      flush();
      for (const b of blocks) out.push(`${pad}${key} {`, ...bodyLines(b.body, depth + 1), `${pad}}`);
      continue;
    }
    const text = valueText(v as HclValue, depth);
    if (!text.includes('\n')) {
      run.push([key, text]);
      continue;
    }
    flush();
    out.push(`${pad}${key} = ${text}`);
  }
  flush();
  return out;
}

/** A value; a multi-line one (an object) has its later lines indented for `depth`. */
function valueText(v: HclValue, depth: number): string {
  if (typeof v === 'string') return hclString(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof HclExpression) return v.toString();
  if (Array.isArray(v)) return `[${(v as readonly HclValue[]).map((x) => valueText(x, depth)).join(', ')}]`;
  const obj = v as { readonly [key: string]: HclValue | undefined };
  const keys = sortedKeys(obj).filter((k) => obj[k] !== undefined);
  if (keys.length === 0) return '{}';
  const quoted: HclBody = Object.fromEntries(keys.map((k) => [hclString(k), obj[k]]));
  return ['{', ...bodyLines(quoted, depth + 1), `${INDENT.repeat(depth)}}`].join('\n');
}

function isBlockList(v: unknown): v is readonly HclBlock[] {
  return Array.isArray(v) && v.length > 0 && v.every((b) => b instanceof HclBlock);
}

/** Keys in code-unit order, whatever the locale: the same input gives the same bytes everywhere. */
function sortedKeys(o: object): string[] {
  return Object.keys(o).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** One top-level block: `resource "aws_vpc" "x" { … }`, with its labels quoted. */
export function topLevelBlock(keyword: string, labels: readonly string[], body: HclBody): string {
  const head = [keyword, ...labels.map(hclString)].join(' ');
  const lines = bodyLines(body, 1);
  return lines.length === 0 ? `${head} {\n}\n` : `${head} {\n${lines.join('\n')}\n}\n`;
}
