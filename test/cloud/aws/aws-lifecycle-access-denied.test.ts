import { DescribeVpcsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { CreateAccessKeyCommand, CreateUserCommand, GetInstanceProfileCommand, GetRoleCommand, IAMClient, ListRolePoliciesCommand, PutUserPolicyCommand } from '@aws-sdk/client-iam';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CliResult, runCli, tempDir } from '../../helpers/cli';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer } from '../../helpers/moto-server';

// WarnIfInsufficientAccess against moto_server with IAM authorization enforced: the credentials kforge
// uses may do everything but put inline role policies (a real AccessDenied from moto's policy evaluation).

const CLUSTER = 'denied.example.com';
const SETUP_CALLS = 3;
const DENY_PUT_ROLE_POLICY = {
  Version: '2012-10-17',
  Statement: [
    { Effect: 'Allow', Action: '*', Resource: '*' },
    { Effect: 'Deny', Action: 'iam:PutRolePolicy', Resource: '*' },
  ],
};

let moto: MotoServer;
let admin: { iam: IAMClient; ec2: EC2Client };
let home: string;
let env: NodeJS.ProcessEnv;
let store: string;
let savedWarningSetting: string | undefined;

beforeAll(async () => {
  // The first SETUP_CALLS requests are not authenticated (they make the user); every later one is authorized by its policy.
  moto = await startMotoServer({ env: { ...MOTO_WITH_DEFAULT_IMAGE, INITIAL_NO_AUTH_ACTION_COUNT: String(SETUP_CALLS) } });
  savedWarningSetting = process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const setup = new IAMClient({ region: 'us-east-1', endpoint: moto.endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  await setup.send(new CreateUserCommand({ UserName: 'deployer' }));
  const key = (await setup.send(new CreateAccessKeyCommand({ UserName: 'deployer' }))).AccessKey;
  await setup.send(new PutUserPolicyCommand({ UserName: 'deployer', PolicyName: 'no-inline-role-policies', PolicyDocument: JSON.stringify(DENY_PUT_ROLE_POLICY) }));
  setup.destroy();
  const credentials = { accessKeyId: key?.AccessKeyId ?? '', secretAccessKey: key?.SecretAccessKey ?? '' };
  // The proxy that makes the API load balancer's interfaces (as AWS does) calls the IAM-enforcing moto as this user.
  await moto.setProxyKeys(credentials);
  admin = { iam: new IAMClient({ region: 'us-east-1', endpoint: moto.endpoint, credentials }), ec2: new EC2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials }) };
  home = tempDir('kforge-lifecycle-denied-');
  // A local state store: the S3 one would meet moto's SigV4 check, which rejects a '/' in a listed prefix.
  store = `file://${path.join(home, 'store')}`;
  env = {
    ...moto.env,
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    HOME: home,
    AWS_PROFILE: undefined,
    AWS_SESSION_TOKEN: undefined,
    AWS_CONFIG_FILE: path.join(home, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: path.join(home, 'no-aws-credentials'),
    CI: 'true',
  };
  expect(kforge(['create', 'cluster', CLUSTER, '--zones', 'us-east-1a', '--cloud', 'aws', '--dns', 'none']).stderr).toBe('');
});

afterAll(async () => {
  admin?.iam.destroy();
  admin?.ec2.destroy();
  await moto?.stop();
  if (home) fs.rmSync(home, { recursive: true, force: true });
  if (savedWarningSetting === undefined) delete process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
  else process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = savedWarningSetting;
});

const kforge = (args: string[]): CliResult => runCli([...args, '--state', store], { env });

describe('IAMRolePolicy=WarnIfInsufficientAccess with credentials that may not put role policies', () => {
  it('without the override, the denial fails the run (TASK_FAILED naming the policy)', () => {
    const r = kforge(['update', 'cluster', CLUSTER, '--yes']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/Error: IAMRolePolicy\/\S+: apply failed: User: \S+ is not authorized to perform: iam:PutRolePolicy; not run: /);
  });

  it('with it, each denial is a warning and everything else is made', async () => {
    const r = kforge(['update', 'cluster', CLUSTER, '--yes', '--lifecycle-overrides', 'IAMRolePolicy=WarnIfInsufficientAccess']);
    expect(r.stderr).not.toContain('Error');
    expect(r.status).toBe(0);
    // The local store this test applies with (KFORGE_ALLOW_LOCAL_STATE_FOR_NODES=test-only) is said too; it is not a lifecycle warning.
    expect(r.stderr).toContain('Warning: the state store file://');
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('Warning: ') && !l.includes('exported kubeconfig') && !l.startsWith('Warning: the state store '));
    expect(warnings).toHaveLength(2);
    for (const w of warnings) expect(w).toMatch(/^Warning: IAMRolePolicy\/\S+ \(WarnIfInsufficientAccess\): could not be created \(User: \S+ is not authorized to perform: iam:PutRolePolicy\); left as it is$/);
    for (const role of [`masters.${CLUSTER}`, `nodes-nodes-us-east-1a.${CLUSTER}`]) {
      expect((await admin.iam.send(new GetRoleCommand({ RoleName: role }))).Role?.RoleName).toBe(role);
      expect((await admin.iam.send(new ListRolePoliciesCommand({ RoleName: role }))).PolicyNames).toEqual([]);
      expect((await admin.iam.send(new GetInstanceProfileCommand({ InstanceProfileName: role }))).InstanceProfile?.Roles?.map((x) => x.RoleName)).toEqual([role]);
    }
    expect((await admin.ec2.send(new DescribeVpcsCommand({ Filters: [{ Name: 'tag:KubernetesCluster', Values: [CLUSTER] }] }))).Vpcs).toHaveLength(1);
  });
});
