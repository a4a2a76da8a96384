import { AddRoleToInstanceProfileCommand, CreateRoleCommand, GetInstanceProfileCommand, GetRoleCommand, GetRolePolicyCommand, IAMClient, ListRolePoliciesCommand, ListRolesCommand, RemoveRoleFromInstanceProfileCommand } from '@aws-sdk/client-iam';
import { KOPS_CONTROLLER_CA_FIXTURE } from '../../helpers/kops-controller-ca-fixture';
import type { Cluster, InstanceGroup } from '../../../src/api/types';
import { AwsCloud } from '../../../src/cloud/aws/aws-cloud';
import { awsTaskExecutor } from '../../../src/cloud/aws/aws-task-executor';
import { canonicalPolicy, IamPolicyDocument } from '../../../src/cloud/aws/iam-policy-document';
import { IamInstanceProfileTask } from '../../../src/cloud/aws/tasks/iam-instance-profile-task';
import { EC2_ASSUME_ROLE_POLICY, IamRoleTask } from '../../../src/cloud/aws/tasks/iam-role-task';
import { newCluster } from '../../../src/create/new-cluster';
import { buildAwsTasks } from '../../../src/model/aws/aws-model-builder';
import { buildIamPolicies, buildIamTasks } from '../../../src/model/aws/iam-model-builder';
import { completeCluster } from '../../../src/ops/expand-cluster';
import { applyPlan } from '../../../src/targets/direct-target';
import { renderPlan } from '../../../src/targets/dry-run-target';
import { MotoServer, startMotoServer } from '../../helpers/moto-server';
import { losingProxy } from './losing-proxy';
import { TEST_CLUSTER_UID } from '../../helpers/cluster-layout';

const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };
let moto: MotoServer;
let iam: IAMClient;

beforeAll(async () => {
  moto = await startMotoServer();
  iam = new IAMClient({ region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS });
});

afterAll(async () => {
  iam?.destroy();
  await moto?.stop();
});

interface Spec {
  cluster: Cluster;
  instanceGroups: InstanceGroup[];
}

/** A completed cluster whose state store is S3, so the policies have their S3 statements; `nodeGroups` extra node instance groups. */
function spec(name: string, edit: (c: Cluster) => void = () => {}, nodeGroups = 0): Spec {
  const { cluster, instanceGroups } = newCluster({ name, zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'], cloudLabels: { team: 'infra' } });
  const template = instanceGroups.find((ig) => ig.spec.role === 'Node') as InstanceGroup;
  for (let i = 0; i < nodeGroups; i++) instanceGroups.push({ ...template, metadata: { ...template.metadata, name: `extra-${i}` } });
  const c = completeCluster(cluster, instanceGroups, 's3://kforge-state/team');
  edit(c);
  return { cluster: c, instanceGroups };
}

/** The role (and profile) of the node group in us-east-1a: one per node group, `nodes-<group>.<cluster>`. */
const nodesRole = (name: string): string => `nodes-nodes-us-east-1a.${name}`;
/** Every node group's role. */
const nodeRoles = (s: Spec): string[] => s.instanceGroups.filter((ig) => ig.spec.role === 'Node').map((ig) => `nodes-${ig.metadata.name}.${s.cluster.metadata.name}`);

/** Inputs for the whole model (made-up nodeup config hashes); its compute tasks have their own test (aws-compute-tasks.test.ts). */
const inputs = (s: Spec) => ({ kopsControllerCa: KOPS_CONTROLLER_CA_FIXTURE, nodeupConfigHashes: Object.fromEntries(s.instanceGroups.map((ig) => [ig.metadata.name, '0'.repeat(64)])) });
// The machines, and the node-termination-handler's resources that go with them (its hooks are on the groups).
const COMPUTE_KINDS = new Set(['EBSVolume', 'EC2KeyPair', 'LaunchTemplate', 'AutoScalingGroup', 'AutoScalingLifecycleHook', 'SQSQueue', 'EventBridgeRule', 'EventBridgeTarget']);

function awsCloud(name: string, endpoint = moto.endpoint): AwsCloud {
  return new AwsCloud({ clusterName: name, region: 'us-east-1', env: { AWS_ENDPOINT_URL: endpoint }, credentials: CREDENTIALS, maxAttempts: 2, clusterUid: TEST_CLUSTER_UID });
}

/** Finds, plans and (optionally) applies the cluster's IAM tasks in a fresh run, as a command would. */
async function run(s: Spec, apply: boolean, endpoint?: string): Promise<{ cloud: AwsCloud; text: string; hasChanges: boolean }> {
  const cloud = awsCloud(s.cluster.metadata.name, endpoint);
  const executor = awsTaskExecutor(cloud, buildIamTasks(s.cluster, s.instanceGroups).tasks, { backoffMs: 20 });
  const plan = await executor.plan();
  const text = renderPlan(plan);
  if (apply) await applyPlan(executor, plan);
  return { cloud, text, hasChanges: plan.hasChanges };
}

describe('AWS IAM tasks against moto', () => {
  const name = 'iam.example.com';
  const base = spec(name);

  it('are part of the AWS model', () => {
    const kinds = new Set(buildAwsTasks(base.cluster, base.instanceGroups, inputs(base)).map((t) => t.kind));
    for (const k of ['IAMRole', 'IAMRolePolicy', 'IAMInstanceProfile', 'IAMInstanceProfileRole']) expect(kinds.has(k)).toBe(true);
  });

  it('costs 1 call plus one per profile to plan a new cluster: the account’s roles once, and each profile no role holds', async () => {
    const fresh = spec('fresh.example.com');
    const { cloud, hasChanges } = await run(fresh, false);
    expect(hasChanges).toBe(true);
    expect(cloud.calls.snapshot()).toEqual({ GetAccountAuthorizationDetails: 1, GetInstanceProfile: 1 + nodeRoles(fresh).length });
  });

  it('plans creates, applies them, then plans nothing', async () => {
    const first = await run(base, true);
    expect(first.hasChanges).toBe(true);
    expect(nodeRoles(base)).toHaveLength(3);
    for (const role of [`masters.${name}`, ...nodeRoles(base)]) {
      for (const kind of ['IAMRole', 'IAMRolePolicy', 'IAMInstanceProfile', 'IAMInstanceProfileRole']) expect(first.text).toContain(`+ create ${kind}/${role}\n`);
    }
    expect(first.text).not.toContain('~ update');
    // Roles, policies and profiles come from one GetAccountAuthorizationDetails, never one call per role.
    expect(first.cloud.calls.byOperation.get('GetRolePolicy')).toBeUndefined();
    expect(first.cloud.calls.byOperation.get('GetRole')).toBeUndefined();

    const second = await run(base, true);
    expect(second.hasChanges).toBe(false);
    expect(second.text).not.toMatch(/^[+~] /m);
    expect(second.cloud.calls.mutating).toBe(0);
    expect(second.cloud.calls.snapshot()).toEqual({ GetAccountAuthorizationDetails: 1 });
  });

  it('made roles, inline policies and instance profiles with the expected documents (read with a plain IAM client)', async () => {
    const policies = buildIamPolicies(base.cluster, base.instanceGroups);
    const roles: Array<[string, IamPolicyDocument]> = [[`masters.${name}`, policies.controlPlane], ...Object.entries(policies.nodeGroups).map(([g, doc]): [string, IamPolicyDocument] => [`nodes-${g}.${name}`, doc])];
    expect(roles).toHaveLength(4);
    for (const [roleName, policy] of roles) {
      const got = (await iam.send(new GetRoleCommand({ RoleName: roleName }))).Role;
      expect(canonicalPolicy(got?.AssumeRolePolicyDocument ?? '')).toBe(canonicalPolicy(EC2_ASSUME_ROLE_POLICY));
      expect(Object.fromEntries((got?.Tags ?? []).map((t) => [t.Key, t.Value]))).toEqual({ KubernetesCluster: name, [`kubernetes.io/cluster/${name}`]: 'owned', Name: roleName, team: 'infra' });
      expect((await iam.send(new ListRolePoliciesCommand({ RoleName: roleName }))).PolicyNames).toEqual([roleName]);
      const doc = (await iam.send(new GetRolePolicyCommand({ RoleName: roleName, PolicyName: roleName }))).PolicyDocument ?? '';
      expect(canonicalPolicy(doc)).toBe(canonicalPolicy(policy));
      const profile = (await iam.send(new GetInstanceProfileCommand({ InstanceProfileName: roleName }))).InstanceProfile;
      expect(profile?.Roles?.map((r) => r.RoleName)).toEqual([roleName]);
    }
    // Workers get their config and certificates from the node-identity service: their roles read nothing in the store.
    expect(JSON.stringify(policies.nodeGroups)).not.toMatch(/s3:|pki\//);
  });

  it('plans a changed policy as an update, applies it, and converges', async () => {
    const withEcr = spec(name, (c) => (c.spec.iam = { ...c.spec.iam, allowContainerRegistry: !base.cluster.spec.iam?.allowContainerRegistry }));
    const plan = await run(withEcr, true);
    expect(plan.text).toMatch(new RegExp(`^~ update IAMRolePolicy/${nodesRole(name).replace(/\./g, '\\.')}: policy: `, 'm'));
    expect(plan.text).toMatch(/^~ update IAMRolePolicy\/masters\./m);
    expect(plan.text).not.toMatch(/^[+~] (create|update) IAM(Role|InstanceProfile|InstanceProfileRole)\//m);
    const nodes = nodesRole(name);
    const doc = (await iam.send(new GetRolePolicyCommand({ RoleName: nodes, PolicyName: nodes }))).PolicyDocument ?? '';
    expect(canonicalPolicy(doc)).toBe(canonicalPolicy(buildIamPolicies(withEcr.cluster, withEcr.instanceGroups).nodeGroups['nodes-us-east-1a']));
    expect((await run(withEcr, false)).hasChanges).toBe(false);
  });

  it('plans a tag change as an update of the role and profile, and applies it', async () => {
    const relabelled = spec(name, (c) => (c.spec.cloudLabels = { team: 'platform' }));
    const plan = await run(relabelled, true);
    expect(plan.text).toContain(`~ update IAMRole/${nodesRole(name)}: tags.team: "infra" -> "platform"\n`);
    expect(plan.text).toContain(`~ update IAMInstanceProfile/${nodesRole(name)}: tags.team: "infra" -> "platform"\n`);
    expect((await run(relabelled, false)).hasChanges).toBe(false);
  });
});

describe('API cost of a no-op IAM plan', () => {
  it('is the same for 1 and for 20 node instance groups', async () => {
    const counts: Record<number, { calls: number; byOperation: Record<string, number> }> = {};
    for (const n of [1, 20]) {
      // n node instance groups besides the ones newCluster makes; each has its own nodeup config in the nodes' policy.
      const s = spec(`iamcost${n}.example.com`, () => {}, n);
      // A role per node group, each naming its own nodeup config.
      expect(Object.keys(buildIamPolicies(s.cluster, s.instanceGroups).nodeGroups).length).toBeGreaterThanOrEqual(n);
      await run(s, true);
      const noop = await run(s, false);
      expect(noop.hasChanges).toBe(false);
      counts[n] = { calls: noop.cloud.calls.calls, byOperation: noop.cloud.calls.snapshot() };
    }
    expect(counts[20].calls).toBe(counts[1].calls);
    expect(counts[20].byOperation).toEqual(counts[1].byOperation);
    expect(counts[1].calls).toBe(1);
  });
});

describe('the whole AWS model with IAM', () => {
  it('converges, and a no-op plan costs the network’s 7 calls, the API load balancer’s 10 (two target groups: the API’s and, without DNS, the node-identity service’s) and IAM’s 1', async () => {
    const s = spec('whole.example.com');
    const once = async (apply: boolean) => {
      const cloud = awsCloud(s.cluster.metadata.name);
      const executor = awsTaskExecutor(cloud, buildAwsTasks(s.cluster, s.instanceGroups, inputs(s)).filter((t) => !COMPUTE_KINDS.has(t.kind)), { backoffMs: 20 });
      const plan = await executor.plan();
      if (apply) await applyPlan(executor, plan);
      return { cloud, plan };
    };
    expect((await once(true)).plan.hasChanges).toBe(true);
    const { cloud, plan } = await once(false);
    expect(plan.hasChanges).toBe(false);
    expect(cloud.calls.calls).toBe(18);
    expect(cloud.calls.snapshot()).toMatchObject({ GetAccountAuthorizationDetails: 1 });
  });
});

describe('IAM drift and lost answers', () => {
  it('moves an instance profile back to its role when it holds another one', async () => {
    const name = 'swap.example.com';
    const s = spec(name);
    await run(s, true);
    const profile = nodesRole(name);
    await iam.send(new RemoveRoleFromInstanceProfileCommand({ InstanceProfileName: profile, RoleName: profile }));
    await iam.send(new AddRoleToInstanceProfileCommand({ InstanceProfileName: profile, RoleName: `masters.${name}` }));
    const plan = await run(s, true);
    expect(plan.text).toContain(`~ update IAMInstanceProfileRole/${profile}: roleName: "masters.${name}" -> "${profile}"\n`);
    const roles = (await iam.send(new GetInstanceProfileCommand({ InstanceProfileName: profile }))).InstanceProfile?.Roles ?? [];
    expect(roles.map((r) => r.RoleName)).toEqual([profile]);
    expect((await run(s, false)).hasChanges).toBe(false);
  });

  it('finds a role whose CreateRole answer was lost, and does not make it twice', async () => {
    const name = 'lostrole.example.com';
    const proxy = await losingProxy(moto.endpoint, 'Action=CreateRole');
    try {
      const { cloud } = await run(spec(name), true, proxy.endpoint);
      expect(proxy.lost).toBe(1);
      // One per role: the lost one is found by the retry, not made again.
      expect(cloud.calls.byOperation.get('CreateRole')).toBe(1 + nodeRoles(spec(name)).length);
    } finally {
      await proxy.stop();
    }
    const roles = ((await iam.send(new ListRolesCommand({}))).Roles ?? []).filter((r) => r.RoleName?.endsWith(`.${name}`));
    expect(roles.map((r) => r.RoleName).sort()).toEqual([`masters.${name}`, ...nodeRoles(spec(name))].sort());
    expect((await run(spec(name), false)).hasChanges).toBe(false);
  });

  it('adopts a role of its name made outside kforge, adding the cluster tags and the policy', async () => {
    const name = 'adopt.example.com';
    await iam.send(new CreateRoleCommand({ RoleName: nodesRole(name), AssumeRolePolicyDocument: JSON.stringify(EC2_ASSUME_ROLE_POLICY) }));
    const plan = await run(spec(name), true);
    expect(plan.text).toContain(`~ update IAMRole/${nodesRole(name)}: tags.KubernetesCluster: (unset) -> "${name}"`);
    expect(plan.text).toContain(`+ create IAMRolePolicy/${nodesRole(name)}\n`);
    expect((await run(spec(name), false)).hasChanges).toBe(false);
  });

  it('takes over a role and profile that exist though find did not see them yet (IAM is eventually consistent)', async () => {
    const name = 'late.example.com';
    const roleName = `nodes.${name}`;
    await iam.send(new CreateRoleCommand({ RoleName: roleName, AssumeRolePolicyDocument: JSON.stringify({ ...EC2_ASSUME_ROLE_POLICY, Statement: [] }) }));
    const cloud = awsCloud(name);
    const tags = { KubernetesCluster: name, Name: roleName };
    const role = new IamRoleTask(roleName, { assumeRolePolicy: EC2_ASSUME_ROLE_POLICY, tags });
    // As if find had said "missing": apply creates, meets EntityAlreadyExists, and converges instead.
    await role.apply(cloud, undefined, role.diff(undefined));
    expect(role.arn.peek()).toMatch(/^arn:aws:iam::\d+:role\/nodes\.late\.example\.com$/);
    const got = (await iam.send(new GetRoleCommand({ RoleName: roleName }))).Role;
    expect(canonicalPolicy(got?.AssumeRolePolicyDocument ?? '')).toBe(canonicalPolicy(EC2_ASSUME_ROLE_POLICY));
    expect(Object.fromEntries((got?.Tags ?? []).map((t) => [t.Key, t.Value]))).toEqual(tags);
    const profile = new IamInstanceProfileTask(roleName, { tags });
    await profile.apply(cloud, undefined, []);
    await profile.apply(cloud, undefined, []);
    expect(profile.arn.peek()).toMatch(/:instance-profile\/nodes\.late\.example\.com$/);
  });
});
