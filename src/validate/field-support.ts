import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FieldError } from '../errors/field-error';
import { packageRoot } from '../util/package-root';

/** What kforge does with a spec field (schemas/support.json): used now, kept for a later stage, derived, or refused. */
export interface FieldSupport {
  status: 'used' | 'kept' | 'derived' | 'refused';
  /** For `kept`: the stage that will read it; for `refused`: why. */
  detail?: string;
}

type Rules = Record<'Cluster' | 'InstanceGroup', Record<string, string>>;
let rules: Rules | undefined;

function load(): Rules {
  rules ??= JSON.parse(fs.readFileSync(path.join(packageRoot(), 'schemas', 'support.json'), 'utf8')) as Rules;
  return rules;
}

/** The support of the field at a dotted path (`spec.cloudConfig.azure`): its longest matching rule; undefined when none matches. */
export function fieldSupport(kind: 'Cluster' | 'InstanceGroup', dotted: string): FieldSupport | undefined {
  const table = load()[kind];
  for (let p = dotted; p; p = p.includes('.') ? p.slice(0, p.lastIndexOf('.')) : '') {
    const rule = table[p];
    if (rule !== undefined) {
      const [status, ...rest] = rule.split(':');
      return { status: status as FieldSupport['status'], detail: rest.length > 0 ? rest.join(':') : undefined };
    }
  }
  return undefined;
}

/** Every refused field that a Cluster or InstanceGroup sets, as "… is not supported yet" with its path. */
export function checkRefusedFields(kind: 'Cluster' | 'InstanceGroup', object: string, value: unknown): FieldError[] {
  const errors: FieldError[] = [];
  for (const [p, rule] of Object.entries(load()[kind])) {
    if (!rule.startsWith('refused:')) continue;
    const set = p.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), value);
    if (set !== undefined && set !== null) errors.push({ object, path: p, message: `is not supported yet: ${rule.slice('refused:'.length)}` });
  }
  return errors;
}
