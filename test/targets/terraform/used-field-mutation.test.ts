import { createHash } from 'node:crypto';
import { KOPS_CONTROLLER_CA_FIXTURE } from '../../helpers/kops-controller-ca-fixture';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ClusterSpec, InstanceGroup, InstanceGroupSpec } from '../../../src/api/types';
import { IamRolePolicyTask } from '../../../src/cloud/aws/tasks/iam-role-policy-task';
import { SqsQueueTask } from '../../../src/cloud/aws/tasks/sqs-queue-task';
import { LaunchTemplateTask } from '../../../src/cloud/aws/tasks/launch-template-task';
import { newCluster, NewCluster } from '../../../src/create/new-cluster';
import { buildAwsTasks } from '../../../src/model/aws/aws-model-builder';
import { UnsupportedModelError } from '../../../src/model/aws/unsupported-model-error';
import { completeCluster, derivedFiles } from '../../../src/ops/expand-cluster';
import { renderTerraformOutput } from '../../../src/targets/terraform/render-terraform';
import { ROOT } from '../../helpers/cli';

// Issue 22 §2, "make the status table honest by test": every field schemas/support.json calls `used` is set
// here to a valid, non-default value, and `update --target terraform`'s files or a nodeup config must change.
// A field whose effect is elsewhere (the rolling update, validation only, another cloud) names why instead.

type Edit = (c: ClusterSpec, nodes: InstanceGroupSpec, objects: NewCluster) => void;
type Mutation = Edit | { notRendered: string };

const support = JSON.parse(fs.readFileSync(path.join(ROOT, 'schemas', 'support.json'), 'utf8')) as Record<'Cluster' | 'InstanceGroup', Record<string, string>>;
const used = (kind: 'Cluster' | 'InstanceGroup'): string[] => Object.keys(support[kind]).filter((p) => support[kind][p].startsWith('used')).sort();

const ROLLING = { notRendered: 'read by `rolling-update cluster` (surge and drain), which renders nothing: test/rolling-update/' };
const logLevel = (k: 'kubeAPIServer' | 'kubeControllerManager' | 'kubeScheduler'): Edit => (c) => {
  (c as Record<string, unknown>)[k] = { logLevel: 7 };
};

const CLUSTER: Record<string, Mutation> = {
  'spec.additionalNetworkCIDRs': {
    notRendered: 'in an existing VPC (networkID) the ranges exist and validation checks subnets against them; on a VPC kforge creates they are refused (tested below)',
  },
  'spec.additionalSans': (c) => (c.additionalSans = ['extra.example.com']),
  'spec.api': (c) => (c.api = { loadBalancer: { type: 'Public', class: 'Network' } }),
  'spec.api.loadBalancer': (c) => (c.api = { loadBalancer: { type: 'Public', class: 'Network', crossZoneLoadBalancing: true } }),
  'spec.assets': (c) => (c.assets = { containerRegistry: 'registry.example.com' }),
  'spec.authorization': (c) => (c.authorization = { alwaysAllow: {} }),
  'spec.channel': { notRendered: 'read by `create cluster` to pick versions and images from the channel; a stored cluster renders what it says' },
  // The addon manifests are among the derived files: the EBS CSI driver's and storage-aws's change.
  'spec.cloudConfig': (c) => (c.cloudConfig = { awsEBSCSIDriver: { volumeAttachLimit: 20 } }),
  'spec.cloudConfig.awsEBSCSIDriver': (c) => (c.cloudConfig = { awsEBSCSIDriver: { hostNetwork: true } }),
  'spec.cloudConfig.gceServiceAccount': { notRendered: 'GCE only: the service account the GCE model gives the instances (test/model/gce/)' },
  'spec.cloudConfig.gceUseStartupScript': { notRendered: 'GCE only: the metadata key the GCE model passes the bootstrap script in (test/model/gce/)' },
  'spec.cloudConfig.gcpPDCSIDriver': { notRendered: 'GCE only: the GCP PD CSI driver addon of the GCE channel (test/model/addons/gcp-pd-csi-driver-addon.test.ts)' },
  'spec.cloudConfig.manageStorageClasses': (c) => (c.cloudConfig = { manageStorageClasses: false }),
  'spec.cloudConfig.multizone': { notRendered: 'GCE only: a line of the GCE control plane\'s /etc/kubernetes/cloud.config (test/nodeup/cloud-config-file.test.ts)' },
  'spec.cloudConfig.nodeInstancePrefix': { notRendered: 'GCE only: a line of the GCE control plane\'s /etc/kubernetes/cloud.config (test/nodeup/cloud-config-file.test.ts)' },
  'spec.cloudConfig.nodeTags': { notRendered: 'GCE only: a line of the GCE control plane\'s /etc/kubernetes/cloud.config (test/nodeup/cloud-config-file.test.ts)' },
  'spec.cloudControllerManager': (c) => (c.cloudControllerManager = { logLevel: 4 }),
  'spec.cloudLabels': (c) => (c.cloudLabels = { team: 'blue' }),
  'spec.cloudProvider': { notRendered: 'selects the cloud: the AWS model is for `aws`; GCE has its own model (issue 21)' },
  'spec.clusterDNSDomain': (c) => (c.clusterDNSDomain = 'cluster.example'),
  'spec.containerRuntime': { notRendered: '`containerd` is its only valid value (validation refuses the rest)' },
  'spec.containerd': (c) => (c.containerd = { ...(c.containerd ?? {}), logLevel: 'debug' }),
  'spec.controlPlaneKubelet': (c) => (c.controlPlaneKubelet = { maxPods: 50 }),
  'spec.dnsZone': (c) => (c.dnsZone = 'mut.example.com'),
  'spec.etcdClusters': (c) => {
    const [main] = c.etcdClusters ?? [];
    (main.etcdMembers ?? [])[0].volumeSize = 30;
  },
  'spec.kubeAPIServer': logLevel('kubeAPIServer'),
  'spec.kubeControllerManager': logLevel('kubeControllerManager'),
  'spec.kubeDNS': (c) => (c.kubeDNS = { serverIP: '100.64.0.11' }),
  'spec.externalDns': { notRendered: "only kops's default provider (dns-controller) is accepted: protokube keeps the records, so no setting left changes the output (external-dns is refused)" },
  'spec.metricsServer': (c) => (c.metricsServer = { enabled: true }),
  // The control plane's policy may then write <cluster>/node-requests/ (and the workers' nodeup configs name the service, once the PKI exists).
  'spec.nodeIdentity': (c) => (c.nodeIdentity = { mode: 'Approval' }),
  'spec.nodeProblemDetector': (c) => (c.nodeProblemDetector = { enabled: true }),
  'spec.nodeTerminationHandler': (c) => (c.nodeTerminationHandler = { enableRebalanceDraining: true }),
  // The base cluster runs Cilium, which replaces kube-proxy: turning it on is the change.
  'spec.kubeProxy': (c) => (c.kubeProxy = { enabled: true }),
  'spec.kubeScheduler': logLevel('kubeScheduler'),
  'spec.kubelet': (c) => (c.kubelet = { maxPods: 50 }),
  'spec.kubernetesApiAccess': (c) => (c.kubernetesApiAccess = ['10.0.0.0/8']),
  'spec.kubernetesVersion': (c) => (c.kubernetesVersion = '1.35.2'),
  'spec.masterInternalName': (c) => (c.masterInternalName = 'api.int.mut.example.com'),
  'spec.masterKubelet': (c) => (c.masterKubelet = { maxPods: 50 }),
  'spec.masterPublicName': (c) => (c.masterPublicName = 'kube.mut.example.com'),
  'spec.networkCIDR': (c) => {
    c.networkCIDR = '10.0.0.0/16';
    (c.subnets ?? [])[0].cidr = '10.0.32.0/19';
  },
  'spec.networkID': (c) => (c.networkID = 'vpc-12345678'),
  'spec.networking': (c) => (c.networking = { calico: {} }),
  'spec.networking.amazonvpc': (c) => (c.networking = { amazonvpc: {} }),
  'spec.networking.calico': (c) => (c.networking = { calico: {} }),
  'spec.networking.cilium': (c) => (c.networking = { cilium: { ipam: 'eni' } }),
  'spec.networking.flannel': (c) => (c.networking = { flannel: {} }),
  'spec.networking.kuberouter': (c) => (c.networking = { kuberouter: {} }),
  'spec.nodePortAccess': (c) => (c.nodePortAccess = ['10.0.0.0/8']),
  'spec.nonMasqueradeCIDR': (c) => (c.nonMasqueradeCIDR = '100.64.0.0/11'),
  'spec.podCIDR': (c) => (c.podCIDR = '100.96.0.0/12'),
  'spec.rollingUpdate': ROLLING,
  'spec.serviceAccountIssuerDiscovery': (c) => (c.serviceAccountIssuerDiscovery = { discoveryStore: 's3://discovery.example.com/mut' }),
  'spec.serviceClusterIPRange': (c) => (c.serviceClusterIPRange = '100.64.0.0/14'),
  'spec.sshAccess': (c) => (c.sshAccess = ['10.0.0.0/8']),
  'spec.sshKeyName': (c) => (c.sshKeyName = 'my-key'),
  'spec.subnets': (c) => ((c.subnets ?? [])[0].cidr = '172.20.64.0/19'),
  'spec.topology': (c) => (c.topology = { dns: { type: 'Private' } }),
  'spec.updatePolicy': (c) => (c.updatePolicy = 'external'),
};

const INSTANCE_GROUP: Record<string, Mutation> = {
  'spec.additionalSecurityGroups': (_c, n) => (n.additionalSecurityGroups = ['sg-12345678']),
  'spec.additionalUserData': (_c, n) => (n.additionalUserData = [{ name: 'mine.sh', type: 'text/x-shellscript', content: '#!/bin/sh\necho mine\n' }]),
  'spec.associatePublicIp': { notRendered: 'in a public subnet only `true` (the default) is built; `false` there is refused (instance-group-settings.test.ts)' },
  'spec.capacityRebalance': (_c, n) => (n.capacityRebalance = true),
  'spec.cloudLabels': (_c, n) => (n.cloudLabels = { team: 'blue' }),
  'spec.cpuCredits': (_c, n) => (n.cpuCredits = 'unlimited'),
  'spec.detailedInstanceMonitoring': (_c, n) => (n.detailedInstanceMonitoring = true),
  'spec.iam': (_c, n) => (n.iam = { profile: 'arn:aws:iam::123456789012:instance-profile/mine' }),
  'spec.image': (_c, n) => (n.image = '099720109477/ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-amd64-server-20250101'),
  'spec.instanceMetadata': (_c, n) => (n.instanceMetadata = { httpTokens: 'optional' }),
  'spec.instanceProtection': (_c, n) => (n.instanceProtection = true),
  'spec.kubelet': (_c, n) => (n.kubelet = { maxPods: 50 }),
  'spec.machineType': (_c, n) => (n.machineType = 'm5.large'),
  'spec.mixedInstancesPolicy': (_c, n) => (n.mixedInstancesPolicy = { instances: ['m5.large', 'm5a.large'], onDemandBase: 1, onDemandAboveBase: 20 }),
  'spec.manager': { notRendered: '`CloudGroup` is the only manager built (Karpenter is refused); it is the default' },
  'spec.maxInstanceLifetime': (_c, n) => (n.maxInstanceLifetime = '168h'),
  'spec.maxSize': (_c, n) => (n.maxSize = 3),
  'spec.minSize': (_c, n) => (n.minSize = 0),
  'spec.nodeLabels': (_c, n) => (n.nodeLabels = { pool: 'blue' }),
  'spec.role': (_c, n) => (n.role = 'Bastion'),
  'spec.rollingUpdate': ROLLING,
  'spec.rootVolumeEncryption': (_c, n) => (n.rootVolumeEncryption = false),
  'spec.rootVolumeEncryptionKey': (_c, n) => (n.rootVolumeEncryptionKey = 'arn:aws:kms:us-east-1:123456789012:key/0f1e2d3c-4b5a-6978-8695-a4b3c2d1e0f9'),
  'spec.rootVolumeIops': (_c, n) => (n.rootVolumeIops = 4000),
  'spec.rootVolumeSize': (_c, n) => (n.rootVolumeSize = 50),
  'spec.rootVolumeThroughput': (_c, n) => (n.rootVolumeThroughput = 200),
  'spec.rootVolumeType': (_c, n) => (n.rootVolumeType = 'gp2'),
  'spec.securityGroupOverride': (_c, n) => (n.securityGroupOverride = 'sg-12345678'),
  'spec.subnets': (c, n) => {
    c.subnets = [...(c.subnets ?? []), { name: 'us-east-1b', type: 'Public', zone: 'us-east-1b', cidr: '172.20.64.0/19' }];
    n.subnets = ['us-east-1b'];
  },
  'spec.suspendProcesses': (_c, n) => (n.suspendProcesses = ['AZRebalance']),
  'spec.taints': (_c, n) => (n.taints = ['dedicated=blue:NoSchedule']),
  'spec.tenancy': (_c, n) => (n.tenancy = 'dedicated'),
  'spec.zones': { notRendered: 'GCE instance groups place instances by zone; on AWS the subnets do (the GCE model reads it)' },
};

/** What `update --target terraform` writes and what nodes read (the nodeup configs), for the base cluster changed by `edit`. */
function render(edit: Edit = () => {}): Map<string, string> {
  const objects = newCluster({ name: 'mut.example.com', zones: ['us-east-1a'], cloud: 'aws', dnsZone: 'example.com' });
  const nodes = objects.instanceGroups.find((ig) => ig.spec.role === 'Node') as InstanceGroup;
  objects.cluster.spec.configBase = 's3://state.example.com/mut.example.com';
  edit(objects.cluster.spec, nodes.spec, objects);
  const { cluster, instanceGroups } = objects;
  const completed = completeCluster(cluster, instanceGroups, 's3://state.example.com');
  const nodeupFiles = derivedFiles(completed, instanceGroups);
  // The nodeup config's hash is what the launch template carries: a change there shows in the user data.
  const nodeupConfigHashes = Object.fromEntries(instanceGroups.map((ig) => [ig.metadata.name, createHash('sha256').update([...nodeupFiles].filter(([f]) => f.includes(`/${ig.metadata.name}/`)).join()).digest('hex')]));
  const tasks = buildAwsTasks(completed, instanceGroups, { nodeupConfigHashes, kopsControllerCa: KOPS_CONTROLLER_CA_FIXTURE });
  // update resolves each image name to an AMI; a name's hash stands for it here.
  for (const t of tasks) if (t instanceof LaunchTemplateTask) t.useImage({ id: `ami-${createHash('sha256').update(String(t.desired.image)).digest('hex').slice(0, 17)}`, rootDevice: '/dev/sda1' });
  for (const t of tasks) if (t instanceof IamRolePolicyTask) t.useHostedZoneId('Z0123456789ABCDEFGHIJ');
  // update asks STS for the account the node-termination-handler's queue policy names; kops's test account stands for it.
  for (const t of tasks) if (t instanceof SqsQueueTask) t.useAccount('123456789012');
  const files = renderTerraformOutput(cluster.metadata.name, 'us-east-1', tasks).files;
  for (const [f, text] of nodeupFiles) if (!f.endsWith('cluster-completed.spec')) files.set(`nodeup:${f}`, text);
  return files;
}

describe('every field support.json marks used changes the rendered output', () => {
  const base = render();

  it('has a mutation or a reason for exactly the used fields', () => {
    expect(Object.keys(CLUSTER).sort()).toEqual(used('Cluster'));
    expect(Object.keys(INSTANCE_GROUP).sort()).toEqual(used('InstanceGroup'));
  });

  const cases: Array<[string, Mutation]> = [...Object.entries(CLUSTER).map(([p, m]): [string, Mutation] => [`Cluster ${p}`, m]), ...Object.entries(INSTANCE_GROUP).map(([p, m]): [string, Mutation] => [`InstanceGroup ${p}`, m])];
  it.each(cases)('%s', (_field, mutation) => {
    if (typeof mutation !== 'function') {
      expect(mutation.notRendered.length).toBeGreaterThan(20);
      return;
    }
    const after = render(mutation);
    const changed = [...new Set([...base.keys(), ...after.keys()])].filter((f) => base.get(f) !== after.get(f));
    expect(changed.length).toBeGreaterThan(0);
  });
});

describe('spec.additionalNetworkCIDRs on a VPC kforge creates', () => {
  it('is refused by the AWS model, naming the field, until the VPC association is built', () => {
    let error: unknown;
    try {
      render((c) => (c.additionalNetworkCIDRs = ['10.1.0.0/16']));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnsupportedModelError);
    expect((error as UnsupportedModelError).code).toBe('NOT_SUPPORTED');
    expect((error as UnsupportedModelError).message).toContain('spec.additionalNetworkCIDRs');
  });
});
