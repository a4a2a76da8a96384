import type { SharedTerraformValue } from '../../cloud/aws/tasks/shared-resource';
import { taskKey } from '../../tasks/task';
import { HclBlock, HclBody, HclExpression, HclValue, TerraformOwner, TerraformTarget } from '../../tasks/terraform-target';
import { topLevelBlock } from './hcl-format';
import { TerraformNameCollisionError, TerraformReferenceError } from './terraform-errors';

/** The AWS provider the output requires: kops's source, and the major version kforge's attributes are written for. */
export const AWS_PROVIDER = { source: 'hashicorp/aws', version: '>= 5.0.0' };

/** The Google provider of GCE output: kops's source and minimum version. */
export const GOOGLE_PROVIDER = { source: 'hashicorp/google', version: '>= 5.11.0' };

/**
 * kops's Terraform name of an object (its tfSanitize): `.` to `-`, `/` to `--`, `:` to `_` (so `0.0.0.0/0`
 * is `0-0-0-0--0` and `::/0` is `__--0`), anything else that is not a name character to `-`.
 */
export function terraformName(type: string, name: string): string {
  const safe = name
    .replace(/\./g, '-')
    .replace(/\//g, '--')
    .replace(/:/g, '_')
    .replace(/[^A-Za-z0-9_-]/g, '-');
  // `0.0.0.0/0` (a route) is not an identifier; kops prefixes such names with the resource's short type.
  return /^[A-Za-z_]/.test(safe) ? safe : `${type.replace(/^aws_/, '').replace(/_/g, '-')}-${safe}`;
}

interface Resource {
  type: string;
  name: string;
  body: HclBody;
}

/**
 * The Terraform target: tasks add resources, data files and data sources; `files()` writes them as
 * `kubernetes.tf` plus `data/…`, deterministically (blocks sorted by type then name, keys sorted, no
 * timestamps). References are resolved only when written, so tasks may render in any order.
 */
export class TerraformWriter implements TerraformTarget {
  private readonly resources = new Map<string, Resource>();
  private readonly dataSources = new Map<string, Resource>();
  private readonly owners = new Map<string, string>();
  private readonly dataFiles = new Map<string, string>();
  private readonly outputs = new Map<string, HclValue>();
  /** The task rendering now, named in reference errors. */
  private current = '(outputs)';

  /** `google`: the output is for GCE, with the Google provider for `project` (kops's `provider "google"`). */
  constructor(
    private readonly region: string,
    private readonly google?: { project: string },
  ) {}

  /** Renders every task (in the order given; the output is sorted anyway). */
  renderTasks(tasks: readonly { kind: string; name: string; renderTerraform(t: TerraformTarget): void }[]): void {
    for (const t of tasks) {
      this.current = taskKey(t);
      t.renderTerraform(this);
    }
    this.current = '(outputs)';
  }

  addResource(owner: TerraformOwner, type: string, body: HclBody, name = owner.name): void {
    const tfName = terraformName(type, name);
    const address = `${type}.${tfName}`;
    if (this.resources.has(address)) throw new TerraformNameCollisionError(address);
    this.resources.set(address, { type, name: tfName, body });
    this.owners.set(taskKey(owner), address);
  }

  reference(task: TerraformOwner, attribute: string): HclExpression {
    // A shared resource (an existing VPC, subnet, NAT gateway) renders no resource: it says what to write.
    const own = (task as TerraformOwner & Partial<SharedTerraformValue>).terraformValue?.(attribute);
    if (own) return own;
    const from = this.current;
    return new HclExpression(() => {
      const address = this.owners.get(taskKey(task));
      if (!address) throw new TerraformReferenceError(from, taskKey(task));
      return `${address}.${attribute}`;
    });
  }

  addFile(type: string, name: string, key: string, content: string, encoding: 'text' | 'base64' = 'text'): HclExpression {
    const file = `${type}_${name.replace(/:/g, '').replace(/[^A-Za-z0-9._-]/g, '-')}_${key}`;
    const existing = this.dataFiles.get(file);
    if (existing !== undefined && existing !== content) throw new TerraformNameCollisionError(`data/${file}`);
    this.dataFiles.set(file, content);
    return new HclExpression(`${encoding === 'base64' ? 'filebase64' : 'file'}("\${path.module}/data/${file}")`);
  }

  addDataSource(type: string, name: string, body: HclBody): HclExpression {
    const tfName = terraformName(type, name);
    const address = `data.${type}.${tfName}`;
    const existing = this.dataSources.get(address);
    // Several records in one zone share its lookup; a different lookup under the same name is a bug.
    if (existing && JSON.stringify(existing.body) !== JSON.stringify(body)) throw new TerraformNameCollisionError(address);
    this.dataSources.set(address, { type, name: tfName, body });
    return new HclExpression(`${address}.id`);
  }

  /** Adds an output, also kept as a local of the same name (kops's layout, which downstream modules read). */
  addOutput(name: string, value: HclValue): void {
    this.outputs.set(name, value);
  }

  /** The address (`aws_vpc.x`) of the resource a task rendered, if any. */
  addressOf(task: TerraformOwner): string | undefined {
    return this.owners.get(taskKey(task));
  }

  /** Every resource address, sorted. */
  addresses(): string[] {
    return [...this.resources.keys()].sort(compare);
  }

  /** The output: `kubernetes.tf` and `data/<file>` by relative path, in sorted order. */
  files(): Map<string, string> {
    const blocks: string[] = [];
    const outputNames = [...this.outputs.keys()].sort(compare);
    if (outputNames.length > 0) {
      blocks.push(topLevelBlock('locals', [], Object.fromEntries(outputNames.map((n) => [n, this.outputs.get(n)]))));
      for (const n of outputNames) blocks.push(topLevelBlock('output', [n], { value: this.outputs.get(n) }));
    }
    blocks.push(this.google ? topLevelBlock('provider', ['google'], { project: this.google.project, region: this.region }) : topLevelBlock('provider', ['aws'], { region: this.region }));
    for (const r of sortResources(this.dataSources)) blocks.push(topLevelBlock('data', [r.type, r.name], r.body));
    for (const r of sortResources(this.resources)) blocks.push(topLevelBlock('resource', [r.type, r.name], r.body));
    blocks.push(
      topLevelBlock('terraform', [], {
        required_version: '>= 0.15.0',
        required_providers: new HclBlock(this.google ? { google: { source: GOOGLE_PROVIDER.source, version: GOOGLE_PROVIDER.version } } : { aws: { source: AWS_PROVIDER.source, version: AWS_PROVIDER.version } }),
      }),
    );
    const out = new Map<string, string>([['kubernetes.tf', blocks.join('\n')]]);
    for (const f of [...this.dataFiles.keys()].sort(compare)) out.set(`data/${f}`, this.dataFiles.get(f) as string);
    return out;
  }
}

function sortResources(m: Map<string, Resource>): Resource[] {
  return [...m.values()].sort((a, b) => compare(a.type, b.type) || compare(a.name, b.name));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
