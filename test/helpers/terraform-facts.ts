import { parse } from '@cdktf/hcl2json';

/**
 * The comparable facts of a `kubernetes.tf` (kops's or kforge's), one string per fact, by area: each
 * security-group rule (all its attributes), each leaf field of each launch template and autoscaling group
 * (by resource name and path), and each IAM action granted to each role. Used by the kops conformance test
 * (test/targets/terraform/kops-conformance.test.ts), which compares kops's published output with kforge's.
 */
export interface TerraformFacts {
  securityGroupRules: string[];
  launchTemplates: string[];
  autoscalingGroups: string[];
  iamActions: string[];
}

/** The areas compared, in the order the reports list them. */
export const FACT_AREAS: Array<keyof TerraformFacts> = ['securityGroupRules', 'launchTemplates', 'autoscalingGroups', 'iamActions'];

type Block = Record<string, unknown>;
type Resources = Record<string, Record<string, Block[]>>;

// Launch-template fields that depend on the build, not the model: the image (kops's test names one its fake
// cloud resolves; kforge resolves it at update) and the user data (nodeup's, each tool its own).
const LT_IGNORED = new Set(['image_id', 'user_data']);

/** hcl2json keeps an expression as `${…}`; both sides' references are compared as their text. */
function scalar(v: unknown): string {
  return JSON.stringify(v);
}

/** A list element's identity: its key (tags), device name (disks), resource type (tag specs), or position. */
function elementKey(el: Block, i: number): string {
  for (const k of ['key', 'device_name', 'resource_type']) if (typeof el[k] === 'string') return String(el[k]);
  return String(i);
}

/** Every leaf of `value` as `path=value`; lists of blocks are keyed by elementKey, so order does not matter. */
function flatten(value: unknown, prefix: string, out: string[], ignored: Set<string> = new Set()): void {
  if (Array.isArray(value)) {
    if (value.every((v) => v !== null && typeof v === 'object' && !Array.isArray(v))) {
      (value as Block[]).forEach((el, i) => flatten(el, value.length === 1 && elementKey(el, i) === '0' ? prefix : `${prefix}[${elementKey(el, i)}]`, out));
    } else {
      out.push(`${prefix}=${scalar([...value].map(scalar).sort())}`);
    }
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Block)) if (!ignored.has(k)) flatten(v, `${prefix}.${k}`, out);
    return;
  }
  out.push(`${prefix}=${scalar(value)}`);
}

/** kforge gives each node group its own role (`nodes-<ig>.<cluster>`); kops has one (`nodes.<cluster>`). Both count as `nodes`. */
function roleOf(ref: string): string {
  const name = /aws_iam_role\.([\w-]+)\./.exec(ref)?.[1] ?? ref;
  return name.startsWith('nodes-') ? 'nodes' : name.replace(/-.*$/, '');
}

/** The facts of `tf`; `data` reads a file under the output's data/ directory. Actions in `excludedActions` are left out. */
export async function terraformFacts(tf: string, data: (file: string) => string, excludedActions: ReadonlySet<string>): Promise<TerraformFacts> {
  const json = (await parse('kubernetes.tf', tf)) as { resource?: Resources };
  const resources = json.resource ?? {};
  const each = (type: string): Array<[string, Block]> => Object.entries(resources[type] ?? {}).map(([name, blocks]) => [name, blocks[0]]);

  const securityGroupRules = each('aws_security_group_rule').map(([, b]) => {
    const out: string[] = [];
    flatten(b, '', out);
    return out.sort().join(' ');
  });
  const fields = (type: string, ignored: Set<string> = new Set()): string[] =>
    each(type).flatMap(([name, b]) => {
      const out: string[] = [];
      flatten(b, name, out, ignored);
      return out;
    });
  const iamActions = new Set<string>();
  for (const [, b] of each('aws_iam_role_policy')) {
    const file = /data\/([^"]+)"\)/.exec(String(b.policy))?.[1];
    if (!file) continue;
    const doc = JSON.parse(data(file)) as { Statement: Array<{ Effect: string; Action?: string | string[] }> };
    for (const s of doc.Statement) {
      for (const a of [s.Action ?? []].flat()) if (!excludedActions.has(a)) iamActions.add(`${roleOf(String(b.role))} ${s.Effect} ${a}`);
    }
  }
  return {
    securityGroupRules: securityGroupRules.sort(),
    launchTemplates: fields('aws_launch_template', LT_IGNORED).sort(),
    autoscalingGroups: fields('aws_autoscaling_group').sort(),
    iamActions: [...iamActions].sort(),
  };
}
