import * as yaml from 'js-yaml';
import { ValidationError } from '../errors/validation-error';
import { checkDocumentLimits, formatDocPath, INPUT_LIMITS } from './input-limits';

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

/** A limit broken while parsing, before the document is complete: thrown from the parse listener. */
class ParseLimit extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Parses multi-document YAML with js-yaml and keeps a line for every node. js-yaml has no AST, so
 * its parse listener is used to rebuild the node tree; keys are matched to values by order. The input
 * limits (INPUT_LIMITS) are enforced here, for every reader of manifests: nesting and the number of
 * values while parsing (which bounds the memory and time the parse can take), then every limit on each
 * document as the tree it stands for, aliases expanded, with the path of what breaks it.
 */
export function parseYamlDocuments(text: string, file: string): YamlDocument[] {
  const roots: Node[] = [];
  const stack: Node[] = [];
  let nodes = 0;
  // Per document: a value reached through an alias (`*name`) is the anchored object itself, not a copy.
  let aliases = 0;
  const aliasCounts: number[] = [];
  const listener = (event: 'open' | 'close', state: { line: number; kind: string | null; result: unknown; position: number; lineStart: number }) => {
    if (event === 'open') {
      // A bound on js-yaml's recursion while parsing; the walk below checks the exact depth, with the path.
      // Collections nest `depth` levels, the innermost holds a scalar, and a flow collection adds a node.
      if (stack.length >= INPUT_LIMITS.depth + 2) throw new ParseLimit(state.line + 1, `lists and mappings are nested more than ${INPUT_LIMITS.depth} levels deep (the limit)`);
      stack.push({ kind: '', result: undefined, line: state.line, children: [] });
      return;
    }
    const node = stack.pop();
    if (!node) return;
    node.kind = state.kind ?? '';
    node.result = state.result;
    // js-yaml builds some values twice (a block sequence entry is first tried as a mapping key), so the
    // parse may take up to twice as many nodes as the file has values; the exact count is the walk's below.
    if (++nodes > 2 * INPUT_LIMITS.values) throw new ParseLimit(state.line + 1, `the file holds more than ${INPUT_LIMITS.values.toLocaleString('en-US')} values (the limit)`);
    // js-yaml reads an alias without setting a kind; its result is the anchored value.
    if (state.kind === null && state.result !== null && state.result !== undefined) aliases++;
    // A plain scalar can be closed after the scanner moved past its line break: count it on its own line.
    const closeLine = state.position === state.lineStart && state.line > node.line ? state.line - 1 : state.line;
    node.line = closeLine;
    if (node.children.length > 0) {
      // A loop, not Math.min(...children): a spread of a long list overflows the stack.
      node.line = node.children[0].line;
      for (const c of node.children) if (c.line < node.line) node.line = c.line;
    }
    if (stack.length > 0) stack[stack.length - 1].children.push(node);
    else {
      roots.push(node);
      aliasCounts.push(aliases);
      aliases = 0;
    }
  };
  const parsed: unknown[] = [];
  try {
    yaml.loadAll(text, (d) => parsed.push(d), { listener, filename: file } as yaml.LoadOptions);
  } catch (e) {
    if (e instanceof ParseLimit) throw new ValidationError([{ path: '', message: e.message, file, line: e.line }], file);
    if (e instanceof yaml.YAMLException) {
      const line = e.mark ? e.mark.line + 1 : undefined;
      throw new ValidationError([{ path: '', message: `invalid YAML: ${e.reason}`, file, line }], file);
    }
    throw e;
  }
  const docs: Array<YamlDocument & { aliases: number }> = [];
  let r = 0;
  for (const value of parsed) {
    // Each document's root node is the top-level node whose result is that document's value.
    while (r < roots.length && roots[r].result !== value) r++;
    const index = r;
    const root = r < roots.length ? roots[r++] : undefined;
    docs.push({ value, file, aliases: aliasCounts[index] ?? 0, lineOf: (p) => (root ? lineOf(root, p) : undefined) });
  }
  for (const d of docs) {
    const broken = checkDocumentLimits(d.value, d.aliases);
    if (broken) throw new ValidationError([{ path: formatDocPath(broken.path), message: broken.message, file, line: d.lineOf(broken.path) }], file);
  }
  return docs.filter((d) => d.value !== null && d.value !== undefined).map(({ value, lineOf: at }) => ({ value, file, lineOf: at }));
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
