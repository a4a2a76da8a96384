import { deref, kindSchema, SchemaNode } from '../api/schema-registry';
import type { FieldError } from '../errors/field-error';
import { ValidationError } from '../errors/validation-error';

/**
 * Removes fields from an object (`unset cluster spec.kubelet.maxPods`), kops's `unset`: the field goes
 * back to its default. Each path must name a field the schema knows (a map key, such as
 * `spec.cloudLabels.team`, counts), so a typo is an error rather than a silent no-op; a known field
 * that is not set is fine. Objects left empty on the path are removed too, so `set` then `unset` gives
 * back the original object. All paths are checked before any error is thrown.
 */
export function unsetFields(target: Record<string, unknown>, kind: 'Cluster' | 'InstanceGroup', paths: string[], subject: string): void {
  const errors: FieldError[] = [];
  for (const raw of paths) {
    const path = raw.replace(/^(cluster|instancegroup)\./, '');
    if (path === '' || path.includes('=')) {
      errors.push({ path: raw, message: 'expected a field path, e.g. spec.kubelet.maxPods (unset takes no value)' });
      continue;
    }
    const problem = remove(target, kindSchema(kind), path.split('.'));
    if (problem) errors.push({ path, message: problem });
  }
  if (errors.length > 0) throw new ValidationError(errors, subject);
}

function remove(root: Record<string, unknown>, rootSchema: SchemaNode, segs: string[]): string | undefined {
  let obj: Record<string, unknown> | undefined = root;
  const parents: Array<[Record<string, unknown>, string]> = [];
  let { node, base } = deref(rootSchema, rootSchema);
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i];
    let key = seg;
    let child = node.properties?.[seg];
    if (!child && typeof node.additionalProperties === 'object') {
      // A map: the rest of the path is the key (label keys contain dots).
      child = node.additionalProperties;
      key = segs.slice(i).join('.');
      i = segs.length - 1;
    }
    if (!child) return `unknown field "${seg}" at ${segs.slice(0, i).join('.') || 'the top level'}`;
    ({ node, base } = deref(child, base));
    if (i === segs.length - 1) {
      if (obj && key in obj) {
        delete obj[key];
        for (const [parent, k] of parents.reverse()) {
          const v = parent[k] as Record<string, unknown>;
          if (Object.keys(v).length > 0) break;
          delete parent[k];
        }
      }
      return undefined;
    }
    const next: unknown = obj?.[seg];
    // A parent that is not set has nothing to remove below it; the rest of the path is still checked.
    if (obj && next !== null && typeof next === 'object' && !Array.isArray(next)) parents.push([obj, seg]);
    obj = next !== null && typeof next === 'object' && !Array.isArray(next) ? (next as Record<string, unknown>) : undefined;
  }
  return undefined;
}
