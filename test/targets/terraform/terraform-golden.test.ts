import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from '@cdktf/hcl2json';
import { renderTerraformOutput, writeTerraformOutput } from '../../../src/targets/terraform/render-terraform';
import type { AnyTask } from '../../../src/tasks/task';
import { expectGolden } from '../../helpers/golden';
import { caseTasks, TERRAFORM_CASES } from './terraform-case';

// `update cluster --target terraform` output, rendered in process from the same tasks the direct target
// applies, for the golden cases. Review a diff of these files like code.

const TERRAFORM = spawnSync('terraform', ['version'], { encoding: 'utf8' }).status === 0;
if (!TERRAFORM) {
  console.warn('\n\n*** terraform is not installed: the `terraform fmt -check` and `validate` assertions are SKIPPED ***\n\n');
}
// `terraform validate` needs the AWS provider: from a local plugin directory only, never downloaded.
const PLUGIN_DIR = process.env.KFORGE_TF_PLUGIN_DIR ?? '/opt/tf-plugins';
const PROVIDER = TERRAFORM && fs.existsSync(path.join(PLUGIN_DIR, 'registry.terraform.io', 'hashicorp', 'aws'));
// No user CLI configuration (a provider mirror or credentials helper would change what init does).
const TF_ENV = { ...process.env, TF_CLI_CONFIG_FILE: '/dev/null', TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1' };

/** The Terraform resource type each task kind renders as; null for kinds folded into another resource (as kops does). */
const TYPE_OF_KIND: Record<string, string | null> = {
  VPC: 'aws_vpc',
  Subnet: 'aws_subnet',
  InternetGateway: 'aws_internet_gateway',
  RouteTable: 'aws_route_table',
  Route: 'aws_route',
  RouteTableAssociation: 'aws_route_table_association',
  ElasticIP: 'aws_eip',
  NatGateway: 'aws_nat_gateway',
  SecurityGroup: 'aws_security_group',
  SecurityGroupRule: 'aws_security_group_rule',
  IAMRole: 'aws_iam_role',
  IAMRolePolicy: 'aws_iam_role_policy',
  IAMInstanceProfile: 'aws_iam_instance_profile',
  // The profile's role is the `role` attribute of aws_iam_instance_profile.
  IAMInstanceProfileRole: null,
  EC2KeyPair: 'aws_key_pair',
  EBSVolume: 'aws_ebs_volume',
  LaunchTemplate: 'aws_launch_template',
  AutoScalingGroup: 'aws_autoscaling_group',
  AutoScalingLifecycleHook: 'aws_autoscaling_lifecycle_hook',
  SQSQueue: 'aws_sqs_queue',
  EventBridgeRule: 'aws_cloudwatch_event_rule',
  EventBridgeTarget: 'aws_cloudwatch_event_target',
  NetworkLoadBalancer: 'aws_lb',
  TargetGroup: 'aws_lb_target_group',
  Listener: 'aws_lb_listener',
  DNSRecord: 'aws_route53_record',
};

function countBy(items: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const i of [...items].sort()) out[i] = (out[i] ?? 0) + 1;
  return out;
}

describe.each(TERRAFORM_CASES)('terraform output of the %s cluster', (name, options) => {
  let tasks: AnyTask[];
  let dir: string;
  let files: Map<string, string>;

  beforeAll(() => {
    const built = caseTasks(options);
    tasks = built.tasks;
    files = renderTerraformOutput(options.name, built.region, tasks).files;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `kforge-tf-${name}-`));
    writeTerraformOutput(dir, { files, resources: [] });
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is the golden kubernetes.tf, with the golden list of data files', () => {
    expectGolden(`terraform/${name}/kubernetes.tf`, files.get('kubernetes.tf') as string);
    const data = [...files.keys()].filter((f) => f.startsWith('data/'));
    expectGolden(`terraform/${name}/data-files.txt`, `${data.join('\n')}\n`);
  });

  it('is the same bytes when rendered again (deterministic)', () => {
    const again = renderTerraformOutput(options.name, 'us-east-1', caseTasks(options).tasks).files;
    expect([...again.entries()]).toEqual([...files.entries()]);
  });

  it('passes terraform fmt -check', () => {
    if (!TERRAFORM) {
      console.warn(`*** SKIPPED: terraform fmt -check on the ${name} output (terraform is not installed) ***`);
      return;
    }
    const r = spawnSync('terraform', ['fmt', '-check', '-diff', '-recursive', dir], { encoding: 'utf8', env: TF_ENV });
    // stdout carries the diff of any badly formatted file; stderr only terraform's own warnings.
    expect(r.stdout).toBe('');
    expect(r.status).toBe(0);
  });

  it('passes terraform validate against the AWS provider\'s schema (offline, from a local plugin directory)', () => {
    if (!PROVIDER) {
      console.warn(`*** SKIPPED: terraform validate on the ${name} output (no AWS provider under ${PLUGIN_DIR}; set KFORGE_TF_PLUGIN_DIR) ***`);
      return;
    }
    const init = spawnSync('terraform', ['init', '-backend=false', '-input=false', '-no-color', `-plugin-dir=${PLUGIN_DIR}`], { cwd: dir, encoding: 'utf8', env: TF_ENV });
    expect(init.stderr).toBe('');
    expect(init.status).toBe(0);
    const r = spawnSync('terraform', ['validate', '-no-color'], { cwd: dir, encoding: 'utf8', env: TF_ENV });
    expect(r.stdout + r.stderr).toContain('The configuration is valid.');
    expect(r.status).toBe(0);
  }, 60_000);

  it('parses back: every reference names a resource in the file, every file() a file under data/', async () => {
    const tf = files.get('kubernetes.tf') as string;
    const json = (await parse('kubernetes.tf', tf)) as { resource: Record<string, Record<string, unknown>>; data?: Record<string, Record<string, unknown>> };
    const resources = new Set(Object.entries(json.resource).flatMap(([type, byName]) => Object.keys(byName).map((n) => `${type}.${n}`)));
    const data = new Set(Object.entries(json.data ?? {}).flatMap(([type, byName]) => Object.keys(byName).map((n) => `data.${type}.${n}`)));
    // hcl2json keeps expressions as their source text inside "${…}": every aws_x.y.attr and data.x.y.attr in them.
    const text = JSON.stringify(json);
    const refs = [...text.matchAll(/(?<![\w./-])(data\.)?(aws_[a-z0-9_]+)\.([A-Za-z_][\w-]*)\.[a-z_]+/g)].map((m) => `${m[1] ?? ''}${m[2]}.${m[3]}`);
    expect(refs.length).toBeGreaterThan(10);
    for (const r of refs) expect(r.startsWith('data.') ? data : resources).toContain(r);
    const fileRefs = [...tf.matchAll(/file(?:base64)?\("\$\{path\.module\}\/([^"]+)"\)/g)].map((m) => m[1]);
    expect(fileRefs.length).toBeGreaterThan(0);
    for (const f of fileRefs) expect(fs.existsSync(path.join(dir, f))).toBe(true);
    // …and nothing under data/ is unused.
    expect(new Set(fileRefs)).toEqual(new Set([...files.keys()].filter((f) => f.startsWith('data/'))));
  });

  it('has, by type, as many resources as the direct target has tasks of the matching kinds', async () => {
    const json = (await parse('kubernetes.tf', files.get('kubernetes.tf') as string)) as { resource: Record<string, Record<string, unknown>> };
    const rendered = Object.entries(json.resource).flatMap(([type, byName]) => Object.keys(byName).map(() => type));
    const unknown = tasks.filter((t) => !(t.kind in TYPE_OF_KIND)).map((t) => t.kind);
    expect(unknown).toEqual([]);
    // A shared task (an existing VPC, subnet, NAT gateway, …) renders no resource: references name its id.
    const own = tasks.filter((t) => (t as AnyTask & { terraformValue?: (a: string) => unknown }).terraformValue?.('id') === undefined);
    const expected = own.map((t) => TYPE_OF_KIND[t.kind]).filter((t): t is string => t !== null);
    expect(countBy(rendered)).toEqual(countBy(expected));
  });
});
