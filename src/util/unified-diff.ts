/** Lines of context around each change, as `diff -u`. */
const CONTEXT = 3;

type Op = [' ' | '-' | '+', string];

/**
 * A unified diff (`diff -u` format, without file headers) of two texts, line by line; '' when they are
 * equal. The common head and tail are cut first, so the quadratic longest-common-subsequence table covers
 * only the changed middle (spec and nodeup-config edits are small).
 */
export function unifiedDiff(before: string, after: string): string {
  if (before === after) return '';
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const ops: Op[] = [...a.slice(0, head).map((l): Op => [' ', l]), ...middleOps(a.slice(head, a.length - tail), b.slice(head, b.length - tail)), ...a.slice(a.length - tail).map((l): Op => [' ', l])];
  return hunks(ops).join('');
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The edit script of the changed middle: longest common subsequence by dynamic programming. */
function middleOps(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      ops.push([' ', a[i++]]);
      j++;
    } else if (i < n && (j === m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      // On a tie removals come first, as `diff -u` prints them.
      ops.push(['-', a[i++]]);
    } else ops.push(['+', b[j++]]);
  }
  return ops;
}

/** Groups an edit script into `@@ -l,n +l,n @@` hunks with CONTEXT lines around the changes. */
function hunks(ops: Op[]): string[] {
  const changed = ops.map((o, k) => (o[0] === ' ' ? -1 : k)).filter((k) => k >= 0);
  const out: string[] = [];
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, changed[k] - CONTEXT);
    let end = changed[k];
    while (k + 1 < changed.length && changed[k + 1] - end <= 2 * CONTEXT) end = changed[++k];
    k++;
    const stop = Math.min(ops.length, end + CONTEXT + 1);
    const before = ops.slice(0, start);
    const oldStart = before.filter((o) => o[0] !== '+').length + 1;
    const newStart = before.filter((o) => o[0] !== '-').length + 1;
    const body = ops.slice(start, stop);
    const oldLen = body.filter((o) => o[0] !== '+').length;
    const newLen = body.filter((o) => o[0] !== '-').length;
    out.push(`@@ -${oldLen === 0 ? oldStart - 1 : oldStart},${oldLen} +${newLen === 0 ? newStart - 1 : newStart},${newLen} @@\n`, ...body.map(([t, l]) => `${t}${l}\n`));
  }
  return out;
}
