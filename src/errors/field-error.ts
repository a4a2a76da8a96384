/** One problem with user input, located by object, field path and, when known, file and line. */
export interface FieldError {
  /** The object the field belongs to, e.g. `Cluster/x.example.com` or `InstanceGroup/nodes`. */
  object?: string;
  /** Dotted field path with array indexes, e.g. `spec.subnets[1].cidr`; or a flag like `--zones`. */
  path: string;
  /** What is wrong, phrased for a user. */
  message: string;
  /** File the value came from, when it came from a file. */
  file?: string;
  /** 1-based line in `file`. */
  line?: number;
}

/** Renders a FieldError as one line: `file:line: Kind/name: path: message`. */
export function formatFieldError(e: FieldError): string {
  const where = e.file ? `${e.file}${e.line ? `:${e.line}` : ''}: ` : '';
  const object = e.object ? `${e.object}: ` : '';
  return `${where}${object}${e.path ? `${e.path}: ` : ''}${e.message}`;
}

/** Parses `spec.subnets[1].cidr` into `['spec', 'subnets', 1, 'cidr']`, to look up source lines. */
export function parseFieldPath(path: string): Array<string | number> {
  const out: Array<string | number> = [];
  const re = /([^.[\]]+)|\[(\d+)\]|\["([^"]*)"\]/g;
  for (let m = re.exec(path); m; m = re.exec(path)) {
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    else out.push(m[3]);
  }
  return out;
}
