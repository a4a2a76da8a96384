import { AddRoleToInstanceProfileCommand, CreateInstanceProfileCommand, CreateRoleCommand, GetInstanceProfileCommand, IAMClient, RemoveRoleFromInstanceProfileCommand } from '@aws-sdk/client-iam';
import { AwsCloud } from '../../../src/cloud/aws/aws-cloud';
import { listIamResources } from '../../../src/cloud/aws/cluster-resources/list-iam-resources';
import { EC2_ASSUME_ROLE_POLICY } from '../../../src/cloud/aws/tasks/iam-role-task';
import { MotoServer, startMotoServer } from '../../helpers/moto-server';
import { TEST_CLUSTER_UID } from '../../helpers/cluster-layout';

// `delete cluster` removing a role from its instance profile when an earlier attempt's removal took effect
// but its answer was lost (the fault test's case): asking moto again to remove a role no longer in the
// profile is an HTTP 500, so the retry must not ask. The next attempt reads the profile again, finds no
// role, and deletes the profile.

const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };
const CLUSTER = 'retry.example.com';
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

it('a retried profile delete reads the profile again instead of removing a role that is already gone', async () => {
  const name = `nodes.${CLUSTER}`;
  const Tags = [{ Key: 'KubernetesCluster', Value: CLUSTER }, { Key: `kubernetes.io/cluster/${CLUSTER}`, Value: 'owned' }];
  await iam.send(new CreateRoleCommand({ RoleName: name, AssumeRolePolicyDocument: JSON.stringify(EC2_ASSUME_ROLE_POLICY), Tags }));
  await iam.send(new CreateInstanceProfileCommand({ InstanceProfileName: name, Tags }));
  await iam.send(new AddRoleToInstanceProfileCommand({ InstanceProfileName: name, RoleName: name }));
  const cloud = new AwsCloud({ clusterName: CLUSTER, region: 'us-east-1', env: { AWS_ENDPOINT_URL: moto.endpoint }, credentials: CREDENTIALS, maxAttempts: 1, clusterUid: TEST_CLUSTER_UID });
  const profile = (await listIamResources(cloud)).find((r) => r.type === 'iam-instance-profile');
  expect(profile?.name).toBe(name);

  // The removal an earlier attempt sent took effect; its answer never came back.
  await iam.send(new RemoveRoleFromInstanceProfileCommand({ InstanceProfileName: name, RoleName: name }));
  // What moto answers the same removal now: not an AWS error (so nothing a client could take as "done").
  await expect(iam.send(new RemoveRoleFromInstanceProfileCommand({ InstanceProfileName: name, RoleName: name }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 500 } });

  // The first attempt still believes the listed role is in the profile, and fails as that lost answer did.
  await expect(profile!.delete()).rejects.toBeDefined();
  // The next attempt reads the profile, finds no role, and deletes it.
  await expect(profile!.delete()).resolves.toBe('deleted');
  await expect(iam.send(new GetInstanceProfileCommand({ InstanceProfileName: name }))).rejects.toMatchObject({ name: 'NoSuchEntityException' });
});
