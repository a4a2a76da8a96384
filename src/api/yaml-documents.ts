import * as yaml from 'js-yaml';
import { ValidationError } from '../errors/validation-error';

/** A path into a parsed document: property names and array indexes. */
export type DocPath = Array<string | number>;

/** One parsed YAML document with a way to find the source line of any path inside it. */
export interface YamlDocument {
  /** The parsed value. */
  value: unknown;
  /** File name used in error messages. */
  file: string;
  /** 1-based line of the value at `path` (or of its nearest ancestor that has one). */
  lineOf(path: DocPath): number | undefined;
}

interface Node {
  kind: string;
  result: unknown;
  line: number;
  children: Node[];
}

/**
 * Parses multi-document YAML with js-yaml and keeps a line for every node. js-yaml has no AST, so
 * its parse listener is used to rebuild the node tree; keys are matched to values by order.
 */
export function parseYamlDocuments(text: string, file: string): YamlDocument[] {
  const roots: Node[] = [];
  const stack: Node[] = [];
  const listener = (event: 'open' | 'close', state: { line: number; kind: string | null; result: unknown; position: number; lineStart: number }) => {
    if (event === 'open') {
      stack.push({ kind: '', result: undefined, line: state.line, children: [] });
      return;
    }
    const node = stack.pop();
    if (!node) return;
    node.kind = state.kind ?? '';
    node.result = state.result;
    // A plain scalar can be closed after the scanner moved past its line break: count it on its own line.
    const closeLine = state.position === state.lineStart && state.line > node.line ? state.line - 1 : state.line;
    node.line = node.children.length > 0 ? Math.min(...node.children.map((c) => c.line)) : closeLine;
    (stack.length > 0 ? stack[stack.length - 1].children : roots).push(node);
  };
  const values: unknown[] = [];
  try {
    yaml.loadAll(text, (d) => values.push(d), { listener, filename: file } as yaml.LoadOptions);
  } catch (e) {
    if (e instanceof yaml.YAMLException) {
      const line = e.mark ? e.mark.line + 1 : undefined;
      throw new ValidationError([{ path: '', message: `invalid YAML: ${e.reason}`, file, line }], file);
    }
    throw e;
  }
  const docs: YamlDocument[] = [];
  let r = 0;
  for (const value of values) {
    // Each document's root node is the top-level node whose result is that document's value.
    while (r < roots.length && roots[r].result !== value) r++;
    const root = r < roots.length ? roots[r++] : undefined;
    docs.push({ value, file, lineOf: (p) => (root ? lineOf(root, p) : undefined) });
  }
  return docs.filter((d) => d.value !== null && d.value !== undefined);
}

function lineOf(root: Node, path: DocPath): number | undefined {
  let node: Node = root;
  let best = root.line;
  for (const seg of path) {
    const next = child(node, seg);
    if (!next) break;
    node = next.value;
    best = next.line;
  }
  return best + 1;
}

function child(node: Node, seg: string | number): { value: Node; line: number } | undefined {
  if (Array.isArray(node.result) && typeof seg === 'number') {
    const items = node.children.filter((c) => c.kind !== '' || c.result !== null);
    const byIdentity = items.find((c) => typeof c.result === 'object' && c.result !== null && c.result === (node.result as unknown[])[seg]);
    const item = byIdentity ?? (items.length === (node.result as unknown[]).length ? items[seg] : undefined);
    return item ? { value: item, line: item.line } : undefined;
  }
  if (node.result && typeof node.result === 'object' && typeof seg === 'string') {
    const keys = Object.keys(node.result);
    let k = 0;
    for (let i = 0; i < node.children.length && k < keys.length; i++) {
      const c = node.children[i];
      if (c.result !== keys[k] && !(typeof c.result !== 'object' && String(c.result) === keys[k])) continue;
      const value = node.children[i + 1];
      if (keys[k] === seg) return value ? { value, line: c.line } : undefined;
      k++;
      i++;
    }
  }
  return undefined;
}
