import type { Loose } from './kube-store';

/** A parsed selector requirement, as apimachinery's `labels.Parse` and `fields.ParseSelector` produce. */
interface Requirement {
  key: string;
  op: '=' | '!=' | 'in' | 'notin' | 'exists' | '!exists';
  values: string[];
}

/** Thrown for a selector the real API refuses; the server answers 400 BadRequest with this message. */
export class SelectorError extends Error {}

/** Splits on commas outside parentheses (`a in (x,y),b=c`). */
function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur.trim() !== '') out.push(cur);
  return out.map((p) => p.trim());
}

function parseLabelRequirement(part: string): Requirement {
  let m = /^([^\s!=()]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(part);
  if (m) return { key: m[1], op: m[2] as 'in' | 'notin', values: m[3].split(',').map((v) => v.trim()).filter((v) => v !== '') };
  m = /^([^\s!=()]+)\s*(==|=|!=)\s*([^\s!=()]*)$/.exec(part);
  if (m) return { key: m[1], op: m[2] === '!=' ? '!=' : '=', values: [m[3]] };
  m = /^!\s*([^\s!=()]+)$/.exec(part);
  if (m) return { key: m[1], op: '!exists', values: [] };
  m = /^([^\s!=()]+)$/.exec(part);
  if (m) return { key: m[1], op: 'exists', values: [] };
  throw new SelectorError(`unable to parse requirement: ${part}`);
}

function matches(reqs: Requirement[], get: (key: string) => string | undefined): boolean {
  return reqs.every((r) => {
    const v = get(r.key);
    switch (r.op) {
      case '=':
        return v === r.values[0];
      case '!=':
        return v !== r.values[0];
      case 'in':
        return v !== undefined && r.values.includes(v);
      case 'notin':
        return v === undefined || !r.values.includes(v);
      case 'exists':
        return v !== undefined;
      case '!exists':
        return v === undefined;
    }
  });
}

/** A label selector string (equality and set-based) as a predicate on an object's labels. */
export function labelSelector(s: string | undefined): (labels: Record<string, string> | undefined) => boolean {
  if (!s) return () => true;
  const reqs = splitTop(s).map(parseLabelRequirement);
  return (labels) => matches(reqs, (k) => labels?.[k]);
}

/** A `metav1.LabelSelector` object (matchLabels, matchExpressions) as a predicate; an empty one matches everything. */
export function labelSelectorObject(sel: { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values?: string[] }[] } | undefined): (labels: Record<string, string> | undefined) => boolean {
  // policy/v1: a null selector matches nothing, an empty one everything.
  if (!sel) return () => false;
  const reqs: Requirement[] = Object.entries(sel.matchLabels ?? {}).map(([key, v]) => ({ key, op: '=', values: [v] }));
  for (const e of sel.matchExpressions ?? []) {
    const op = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!exists' }[e.operator] as Requirement['op'] | undefined;
    if (!op) throw new SelectorError(`"${e.operator}" is not a valid label selector operator`);
    reqs.push({ key: e.key, op, values: e.values ?? [] });
  }
  return (labels) => matches(reqs, (k) => labels?.[k]);
}

/** The fields each resource supports in a field selector, as the real API registers them. */
const FIELDS: Record<string, (o: Record<string, Loose>) => string | undefined> = {
  'metadata.name': (o) => o.metadata?.name,
  'metadata.namespace': (o) => o.metadata?.namespace,
  'spec.nodeName': (o) => o.spec?.nodeName ?? '',
  'spec.restartPolicy': (o) => o.spec?.restartPolicy,
  'spec.schedulerName': (o) => o.spec?.schedulerName,
  'spec.serviceAccountName': (o) => o.spec?.serviceAccountName,
  'status.phase': (o) => o.status?.phase ?? '',
  'status.podIP': (o) => o.status?.podIP ?? '',
  'spec.unschedulable': (o) => String(o.spec?.unschedulable === true),
};

/** Which fields a field selector may name, per resource (the rest answer 400, as the real API does). */
const RESOURCE_FIELDS: Record<string, string[]> = {
  pods: ['metadata.name', 'metadata.namespace', 'spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'status.phase', 'status.podIP'],
  nodes: ['metadata.name', 'spec.unschedulable'],
  poddisruptionbudgets: ['metadata.name', 'metadata.namespace'],
};

/** A field selector string (`a=b,c!=d`) as a predicate on an object of `resource`. */
export function fieldSelector(s: string | undefined, resource: string): (o: Record<string, Loose>) => boolean {
  if (!s) return () => true;
  const reqs = splitTop(s).map((part) => {
    const m = /^([^=!]+?)\s*(==|=|!=)\s*(.*)$/.exec(part);
    if (!m) throw new SelectorError(`invalid selector: '${s}'; can't understand '${part}'`);
    if (!(RESOURCE_FIELDS[resource] ?? ['metadata.name', 'metadata.namespace']).includes(m[1])) throw new SelectorError(`field label not supported: ${m[1]}`);
    return { key: m[1], op: m[2] === '!=' ? '!=' : '=', values: [m[3]] } as Requirement;
  });
  return (o) => matches(reqs, (k) => FIELDS[k](o));
}
