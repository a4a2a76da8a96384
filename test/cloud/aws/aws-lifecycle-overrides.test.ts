import { CreateBucketCommand, DeleteObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { AutoScalingClient, DescribeAutoScalingGroupsCommand } from '@aws-sdk/client-auto-scaling';
import { DescribeInternetGatewaysCommand, DescribeLaunchTemplatesCommand, DescribeSecurityGroupsCommand, DescribeSubnetsCommand, DescribeVpcsCommand, EC2Client, Filter } from '@aws-sdk/client-ec2';
import { CreateRoleCommand, GetInstanceProfileCommand, GetRoleCommand, GetRolePolicyCommand, IAMClient, ListInstanceProfilesCommand, ListRolesCommand, ListRoleTagsCommand, PutRolePolicyCommand } from '@aws-sdk/client-iam';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CliResult, runCli, tempDir } from '../../helpers/cli';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer, cliEnvOf } from '../../helpers/moto-server';

// `update cluster --lifecycle-overrides` through the CLI against moto_server (issue 11, part 2): kops's
// lifecycles for accounts where someone else owns IAM, or security group rules.

const BUCKET = 'kforge-lifecycle-state';
const STORE = `s3://${BUCKET}`;
const IAM_OWNED = 'iam-owned.example.com';
// kops's 32-character names put '--' before the hash for some cluster names (AWS accepts it, moto refuses it).
const NO_RULES = 'no-ingress.example.com';
const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };
const IAM_OVERRIDES = 'IAMRole=ExistsAndWarnIfChanges,IAMRolePolicy=ExistsAndWarnIfChanges';

// What the security team made: a trust policy and an inline policy that are not kforge's.
const TEAM_TRUST = { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: ['ec2.amazonaws.com', 'ssm.amazonaws.com'] }, Action: 'sts:AssumeRole' }] };
const TEAM_POLICY = { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: ['ec2:DescribeInstances'], Resource: '*' }] };

let moto: MotoServer;
let s3: S3Client;
let ec2: EC2Client;
let iam: IAMClient;
let home: string;
let env: NodeJS.ProcessEnv;
let savedWarningSetting: string | undefined;

beforeAll(async () => {
  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  savedWarningSetting = process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  home = tempDir('kforge-lifecycle-');
  env = {
    ...cliEnvOf(moto, home),
    CI: 'true',
  };
  const client = { region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS };
  s3 = new S3Client({ ...client, forcePathStyle: true });
  ec2 = new EC2Client(client);
  iam = new IAMClient(client);
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  for (const name of [IAM_OWNED, NO_RULES]) {
    const created = kforge(['create', 'cluster', name, '--zones', 'us-east-1a', '--cloud', 'aws', '--dns', 'none']);
    expect(created.stderr).toBe('');
  }
});

afterAll(async () => {
  s3?.destroy();
  ec2?.destroy();
  iam?.destroy();
  await moto?.stop();
  if (home) fs.rmSync(home, { recursive: true, force: true });
  if (savedWarningSetting === undefined) delete process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
  else process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = savedWarningSetting;
});

const kforge = (args: string[]): CliResult => runCli([...args, '--state', STORE], { env });
const tagged = (name: string): Filter[] => [{ Name: 'tag:KubernetesCluster', Values: [name] }];

interface JsonPlan {
  hasChanges: boolean;
  resources: Array<{ type: string; name: string; action: string; lifecycle?: string; held?: string; changes?: unknown[] }>;
  warnings?: Array<{ task: string; lifecycle: string; message: string }>;
}

function jsonPlan(args: string[]): JsonPlan {
  const r = kforge(['update', 'cluster', ...args, '-o', 'json']);
  expect(r.stderr).not.toContain('Error');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as JsonPlan;
}

async function storeKeys(cluster: string): Promise<string[]> {
  return ((await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `${cluster}/` }))).Contents ?? []).map((o) => o.Key as string).sort();
}

/** The decoded, parsed document IAM returns (URL-encoded JSON). */
function doc(encoded: string | undefined): unknown {
  return JSON.parse(decodeURIComponent(encoded ?? 'null'));
}

describe('update cluster --lifecycle-overrides against moto', () => {
  let roles: string[];

  beforeAll(() => {
    roles = jsonPlan([IAM_OWNED]).resources.filter((r) => r.type === 'IAMRole').map((r) => r.name);
    expect(roles).toEqual([`masters.${IAM_OWNED}`, `nodes-nodes-us-east-1a.${IAM_OWNED}`]);
  });

  it('refuses unknown kinds and lifecycles, and the terraform target, naming the flag and the valid values', () => {
    const kind = kforge(['update', 'cluster', IAM_OWNED, '--lifecycle-overrides', 'IAMRoles=Ignore']);
    expect(kind.status).toBe(1);
    // The kinds are the cluster's cloud's, so the error follows the progress lines of loading the cluster.
    expect(kind.stderr).toMatch(/^Error: --lifecycle-overrides: unknown task kind "IAMRoles" in "IAMRoles=Ignore"; valid kinds: AutoScalingGroup, .*IAMRole, IAMRolePolicy, .*SecurityGroupRule, .*VPC\n/m);
    const lifecycle = kforge(['update', 'cluster', IAM_OWNED, '--lifecycle-overrides', 'IAMRole=Skip']);
    expect(lifecycle.status).toBe(1);
    expect(lifecycle.stderr).toContain('valid lifecycles: Sync, Ignore, WarnIfInsufficientAccess, ExistsAndValidates, ExistsAndWarnIfChanges');
    const terraform = kforge(['update', 'cluster', IAM_OWNED, '--target', 'terraform', '--out', path.join(home, 'tf'), '--lifecycle-overrides', 'IAMRole=Ignore']);
    expect(terraform.status).toBe(1);
    expect(terraform.stderr).toContain('--lifecycle-overrides applies to the direct target only');
    expect(fs.existsSync(path.join(home, 'tf'))).toBe(false);
  });

  it('IAMRole=ExistsAndWarnIfChanges with the roles missing: fails naming every role, before creating anything in AWS or the store', async () => {
    const keysBefore = await storeKeys(IAM_OWNED);
    for (const args of [[], ['--yes']]) {
      const r = kforge(['update', 'cluster', IAM_OWNED, ...args, '--lifecycle-overrides', 'IAMRole=ExistsAndWarnIfChanges']);
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(
        [
          'Error: --lifecycle-overrides: 2 resources fail their lifecycle; nothing was changed:',
          ...roles.map((role) => `  IAMRole/${role}: does not exist; IAMRole=ExistsAndWarnIfChanges requires it to exist`),
        ].join('\n') + '\n',
      );
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect((await ec2.send(new DescribeVpcsCommand({ Filters: tagged(IAM_OWNED) }))).Vpcs).toEqual([]);
    expect((await ec2.send(new DescribeSecurityGroupsCommand({ Filters: tagged(IAM_OWNED) }))).SecurityGroups).toEqual([]);
    expect((await ec2.send(new DescribeInternetGatewaysCommand({ Filters: tagged(IAM_OWNED) }))).InternetGateways).toEqual([]);
    expect((await iam.send(new ListRolesCommand({}))).Roles?.map((r) => r.RoleName)).toEqual([]);
    expect((await iam.send(new ListInstanceProfilesCommand({}))).InstanceProfiles).toEqual([]);
    // Nor the state store: no keysets, completed spec or nodeup configs were written.
    expect(await storeKeys(IAM_OWNED)).toEqual(keysBefore);
  });

  it('roles present but different: warns, leaves the trust and inline policies as the team made them, creates the rest', async () => {
    for (const role of roles) {
      await iam.send(new CreateRoleCommand({ RoleName: role, AssumeRolePolicyDocument: JSON.stringify(TEAM_TRUST) }));
      await iam.send(new PutRolePolicyCommand({ RoleName: role, PolicyName: role, PolicyDocument: JSON.stringify(TEAM_POLICY) }));
    }
    const plan = jsonPlan([IAM_OWNED, '--lifecycle-overrides', IAM_OVERRIDES]);
    const held = plan.resources.filter((r) => r.held !== undefined);
    expect(held.map((r) => [r.type, r.name, r.action, r.lifecycle, r.held])).toEqual([
      ...roles.map((role) => ['IAMRole', role, 'none', 'ExistsAndWarnIfChanges', 'update']),
      ...roles.map((role) => ['IAMRolePolicy', role, 'none', 'ExistsAndWarnIfChanges', 'update']),
    ]);
    expect(plan.warnings?.map((w) => w.task)).toEqual([...roles.map((r) => `IAMRole/${r}`), ...roles.map((r) => `IAMRolePolicy/${r}`)]);

    const applied = kforge(['update', 'cluster', IAM_OWNED, '--yes', '--lifecycle-overrides', IAM_OVERRIDES]);
    expect(applied.status).toBe(0);
    expect(applied.stdout).toContain(`Will not modify resources (lifecycle overrides):\n  IAMRole\n    ${roles[0]}  (ExistsAndWarnIfChanges: differs, not changed)\n      assumeRolePolicy`);
    expect(applied.stdout).toContain(`Cluster "${IAM_OWNED}" updated.`);
    for (const role of roles) {
      expect(applied.stderr).toContain(`Warning: IAMRole/${role} (ExistsAndWarnIfChanges): differs from the model; left as it is: assumeRolePolicy: `);
      expect(applied.stderr).toContain(`Warning: IAMRolePolicy/${role} (ExistsAndWarnIfChanges): differs from the model; left as it is: policy: `);
      expect(doc((await iam.send(new GetRoleCommand({ RoleName: role }))).Role?.AssumeRolePolicyDocument)).toEqual(TEAM_TRUST);
      expect(doc((await iam.send(new GetRolePolicyCommand({ RoleName: role, PolicyName: role }))).PolicyDocument)).toEqual(TEAM_POLICY);
      expect((await iam.send(new ListRoleTagsCommand({ RoleName: role }))).Tags).toEqual([]);
      // What stayed Sync was made, around the team's roles.
      expect((await iam.send(new GetInstanceProfileCommand({ InstanceProfileName: role }))).InstanceProfile?.Roles?.map((r) => r.RoleName)).toEqual([role]);
    }
    expect((await ec2.send(new DescribeVpcsCommand({ Filters: tagged(IAM_OWNED) }))).Vpcs).toHaveLength(1);
    expect((await ec2.send(new DescribeSubnetsCommand({ Filters: tagged(IAM_OWNED) }))).Subnets).toHaveLength(1);
    expect(await storeKeys(IAM_OWNED)).toEqual(expect.arrayContaining([`${IAM_OWNED}/cluster-completed.spec`, `${IAM_OWNED}/kforge-version.txt`]));

    // The held differences are not pending changes: a drift check passes, and says what it holds.
    const check = kforge(['update', 'cluster', IAM_OWNED, '--detailed-exitcode', '--lifecycle-overrides', IAM_OVERRIDES]);
    expect(check.status).toBe(0);
    expect(check.stdout).toMatch(/\nNo changes to apply: cluster "iam-owned\.example\.com" \(\d+ unchanged, 4 not modified \(lifecycle overrides\)\)\n$/);
    // Without the overrides, kforge would take the roles back.
    expect(kforge(['update', 'cluster', IAM_OWNED, '--detailed-exitcode']).status).toBe(2);

    // kforge never tagged the team's roles, so deleting the cluster leaves them as they were.
    const deleted = kforge(['delete', 'cluster', IAM_OWNED, '--yes']);
    expect(deleted.stderr).not.toContain('Error');
    expect(deleted.status).toBe(0);
    expect((await iam.send(new ListInstanceProfilesCommand({}))).InstanceProfiles).toEqual([]);
    for (const role of roles) {
      expect(doc((await iam.send(new GetRoleCommand({ RoleName: role }))).Role?.AssumeRolePolicyDocument)).toEqual(TEAM_TRUST);
      expect(doc((await iam.send(new GetRolePolicyCommand({ RoleName: role, PolicyName: role }))).PolicyDocument)).toEqual(TEAM_POLICY);
    }
  });

  it('SecurityGroupRule=Ignore: the groups are made without a single ingress rule', async () => {
    const plan = jsonPlan([NO_RULES, '--lifecycle-overrides', 'SecurityGroupRule=Ignore']);
    const rules = plan.resources.filter((r) => r.type === 'SecurityGroupRule');
    expect(rules.length).toBeGreaterThan(5);
    expect(rules.every((r) => r.action === 'none' && r.lifecycle === 'Ignore' && r.held === 'create')).toBe(true);

    const applied = kforge(['update', 'cluster', NO_RULES, '--yes', '--lifecycle-overrides', 'SecurityGroupRule=Ignore']);
    expect(applied.status).toBe(0);
    const groups = (await ec2.send(new DescribeSecurityGroupsCommand({ Filters: tagged(NO_RULES) }))).SecurityGroups ?? [];
    expect(groups.length).toBeGreaterThanOrEqual(2);
    expect(groups.map((g) => g.IpPermissions)).toEqual(groups.map(() => []));
    // Without the override the same plan would add them (all but the allow-all egress rules AWS gives a new group).
    const toCreate = jsonPlan([NO_RULES]).resources.filter((r) => r.type === 'SecurityGroupRule' && r.action === 'create');
    expect(toCreate.length).toBeGreaterThan(5);
    expect(toCreate.every((r) => rules.some((held) => held.name === r.name))).toBe(true);
  });

  it('a deleted instance group under AutoscalingGroup=Ignore,LaunchTemplate=Ignore: its group and template are kept with a warning, the rest goes', async () => {
    const autoScaling = new AutoScalingClient({ region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS });
    try {
      const overrides = ['--lifecycle-overrides', 'SecurityGroupRule=Ignore'];
      expect(kforge(['create', 'instancegroup', 'extra', '--name', NO_RULES, '--subnet', 'us-east-1a', '--min-size', '1']).status).toBe(0);
      expect(kforge(['update', 'cluster', NO_RULES, '--yes', ...overrides]).status).toBe(0);
      // The group leaves the spec without its cloud resources (delete instancegroup --yes would delete them at
      // once): as after a store edited by another tool, or by a kforge before delete ig went to the cloud.
      await s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: `${NO_RULES}/instancegroup/extra` }));

      const held = [...overrides, '--lifecycle-overrides', 'AutoscalingGroup=Ignore', '--lifecycle-overrides', 'LaunchTemplate=Ignore'];
      const plan = kforge(['update', 'cluster', NO_RULES, ...held]);
      expect(plan.stdout).toContain(['Will delete resources:', '  IAMInstanceProfile', `    nodes-extra.${NO_RULES}`, '  IAMRole', `    nodes-extra.${NO_RULES}`, '  ManagedFile'].join('\n'));
      expect(plan.stdout).not.toContain(`    extra.${NO_RULES}\n`);
      expect(plan.stderr).toContain(`Warning: AutoScalingGroup/extra.${NO_RULES} (Ignore): is no longer in the model; not deleted\n`);
      expect(plan.stderr).toContain(`Warning: LaunchTemplate/extra.${NO_RULES} (Ignore): is no longer in the model; not deleted\n`);

      const applied = kforge(['update', 'cluster', NO_RULES, '--yes', ...held]);
      expect(applied.stderr).not.toContain('Error');
      expect(applied.status).toBe(0);
      const asgs = ((await autoScaling.send(new DescribeAutoScalingGroupsCommand({}))).AutoScalingGroups ?? []).map((g) => g.AutoScalingGroupName);
      expect(asgs).toContain(`extra.${NO_RULES}`);
      const templates = (await ec2.send(new DescribeLaunchTemplatesCommand({ Filters: tagged(NO_RULES) }))).LaunchTemplates?.map((t) => t.LaunchTemplateName);
      expect(templates).toContain(`extra.${NO_RULES}`);
      await expect(iam.send(new GetRoleCommand({ RoleName: `nodes-extra.${NO_RULES}` }))).rejects.toMatchObject({ name: 'NoSuchEntityException' });
    } finally {
      autoScaling.destroy();
    }
  });
});
