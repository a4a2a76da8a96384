import { IamRolePolicyTask } from '../../../src/cloud/aws/tasks/iam-role-policy-task';
import { KOPS_CONTROLLER_CA_FIXTURE } from '../../helpers/kops-controller-ca-fixture';
import { LaunchTemplateTask } from '../../../src/cloud/aws/tasks/launch-template-task';
import { SqsQueueTask } from '../../../src/cloud/aws/tasks/sqs-queue-task';
import { newCluster, NewCluster, NewClusterOptions } from '../../../src/create/new-cluster';
import { buildAwsTasks } from '../../../src/model/aws/aws-model-builder';
import { completeCluster } from '../../../src/ops/expand-cluster';
import type { AnyTask } from '../../../src/tasks/task';

/** The golden Terraform cases: the same clusters as the golden update plans (test/golden/plan/). */
export const TERRAFORM_CASES: Array<[string, NewClusterOptions]> = [
  ['minimal', { name: 'minimal.example.com', zones: ['us-east-1a'], cloud: 'aws', dns: 'none' }],
  ['ha', { name: 'ha.example.com', zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'], controlPlaneCount: 3, cloud: 'aws', dns: 'none' }],
  ['private', { name: 'private.example.com', zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'], controlPlaneCount: 3, topology: 'private', networking: 'calico', bastion: true, cloud: 'aws', dns: 'none' }],
  // With a public DNS zone: dns-controller's placeholder records.
  ['dns', { name: 'dns.example.com', zones: ['us-east-1a'], cloud: 'aws', dnsZone: 'example.com' }],
  // A DNS zone and an API load balancer: the API records are aliases to it.
  ['dns-lb', { name: 'lb.example.com', zones: ['us-east-1a', 'us-east-1b'], cloud: 'aws', dnsZone: 'example.com', apiLoadBalancerType: 'public' }],
  // In an existing VPC and subnets (kops's shared VPC): they are no resources, only their ids.
  ['shared-vpc', { name: 'shared-vpc.example.com', zones: ['us-east-1a', 'us-east-1b'], cloud: 'aws', dns: 'none', vpc: 'vpc-12345678', networkCidr: '10.0.0.0/16', subnets: ['subnet-12345678', 'subnet-abcdef12'] }],
];

/** A fake SSH key (no real key material is needed to render one). */
const SSH = { fingerprint: 'c4:a6:ed:9a:a8:89:b9:e2:c3:9c:d6:63:eb:9c:71:57', publicKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForTerraformGoldenTests test@example.com' };

/** The tasks of a case (its objects changed by `edit` first), built in process with fake nodeup hashes and every launch template's image resolved to a fixed AMI. */
export function caseTasks(options: NewClusterOptions, edit: (objects: NewCluster) => void = () => {}): { tasks: AnyTask[]; region: string } {
  const objects = newCluster(options);
  edit(objects);
  const { cluster, instanceGroups } = objects;
  const completed = completeCluster(cluster, instanceGroups, 'memfs://store');
  const nodeupConfigHashes = Object.fromEntries(instanceGroups.map((ig, i) => [ig.metadata.name, String(i).repeat(64)]));
  const tasks = buildAwsTasks(completed, instanceGroups, { nodeupConfigHashes, sshPublicKey: SSH, kopsControllerCa: KOPS_CONTROLLER_CA_FIXTURE });
  for (const t of tasks) if (t instanceof LaunchTemplateTask) t.useImage({ id: 'ami-0123456789abcdef0', rootDevice: '/dev/sda1' });
  // update finds the zone in AWS; a fixed id stands for it here.
  for (const t of tasks) if (t instanceof IamRolePolicyTask) t.useHostedZoneId('Z0123456789ABCDEFGHIJ');
  // update asks STS for the account the queue's policy names; kops's test account stands for it here.
  for (const t of tasks) if (t instanceof SqsQueueTask) t.useAccount('123456789012');
  return { tasks, region: 'us-east-1' };
}
