import type { Cluster, InstanceGroup } from '../../api/types';
import { clusterTags, TagMap } from '../../cloud/aws/aws-tags';
import { nthQueueMode } from '../../expand/components/node-termination-handler';
import { AutoScalingGroupTask, TargetGroupRef } from '../../cloud/aws/tasks/auto-scaling-group-task';
import { Ec2KeyPairTask, keyPairName } from '../../cloud/aws/tasks/ec2-key-pair-task';
import { IamInstanceProfileTask } from '../../cloud/aws/tasks/iam-instance-profile-task';
import { LaunchTemplateTask, LOAD_BALANCER_DNS_PLACEHOLDER, LOAD_BALANCER_IPS_PLACEHOLDER } from '../../cloud/aws/tasks/launch-template-task';
import type { NetworkLoadBalancerTask } from '../../cloud/aws/tasks/network-load-balancer-task';
import { SecurityGroupTask } from '../../cloud/aws/tasks/security-group-task';
import { SharedResourceError } from '../../errors/shared-resource-error';
import type { SubnetTask } from '../../cloud/aws/tasks/subnet-task';
import { isControlPlane, normalizedRole } from '../../expand/expand-context';
import { instanceGroupKubelet } from '../../expand/components/kubelet';
import type { AnyTask } from '../../tasks/task';
import type { AwsModelInputs } from './aws-model-inputs';
import type { IamTasks } from './iam-model-builder';
import { MissingModelInputError } from '../missing-model-input-error';
import type { MixedInstancesSpec } from '../../cloud/aws/tasks/mixed-instances-policy';
import { multipartUserData } from './multipart-user-data';
import { renderUserData } from './render-user-data';
import { configServerUrl, configServerViaLoadBalancer, groupUsesConfigServer } from '../config-server';
import type { SecurityGroupTasks } from './security-group-model-builder';
import { UnsupportedModelError } from './unsupported-model-error';
import { goDurationNs } from '../../util/go-duration';

/** kops's default image on AWS: Canonical's Ubuntu 24.04 LTS (amd64, gp3 root), owner 099720109477. */
export const DEFAULT_IMAGE = '099720109477/ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-amd64-server-20250610';
// kops's defaults (pkg/model/awsmodel, cloudup defaults): machine type, root volume sizes in GiB.
/** kops's default machine type on AWS, for control plane and nodes alike. */
export const DEFAULT_MACHINE_TYPE = 't3.medium';
const DEFAULT_ROOT_VOLUME_GIB = { controlPlane: 64, node: 128, bastion: 32 };
const DEFAULT_MIN_SIZE = { controlPlane: 1, node: 2, bastion: 1 };
// kops's default for bastions: a jump host needs little.
const DEFAULT_BASTION_MACHINE_TYPE = 't3.micro';

/** The compute tasks of a cluster: one launch template and one Auto Scaling group per instance group, and the SSH key pair. */
export interface InstanceGroupTasks {
  launchTemplates: LaunchTemplateTask[];
  autoScalingGroups: AutoScalingGroupTask[];
  keyPair?: Ec2KeyPairTask;
  tasks: AnyTask[];
}

/** What the instance-group builder takes from the other builders. */
export interface InstanceGroupModelDeps {
  subnets: readonly SubnetTask[];
  securityGroups: Pick<SecurityGroupTasks, 'controlPlane' | 'nodes' | 'bastion'>;
  iam: Pick<IamTasks, 'controlPlaneProfile' | 'nodeProfiles' | 'bastionProfile'>;
  /** Target groups per instance group name (the API load balancer's, for the control plane); none by default. */
  targetGroups?: Readonly<Record<string, readonly (TargetGroupRef & AnyTask)[]>>;
  /** The API load balancer: without DNS, workers reach the node-identity service through its DNS name. */
  apiLoadBalancer?: NetworkLoadBalancerTask;
}

/**
 * kops's AutoscalingGroupModelBuilder for AWS, pure: per instance group a launch template
 * `<ig>.<cluster>` (image, machine type, encrypted gp3 root volume, IMDSv2, the role's security group and
 * instance profile, the key pair, user-data that boots nodeup) and an Auto Scaling group of the same name
 * in the group's subnets; plus the cluster's SSH key pair when a key was given.
 */
export function buildInstanceGroupTasks(cluster: Cluster, instanceGroups: readonly InstanceGroup[], deps: InstanceGroupModelDeps, inputs: AwsModelInputs): InstanceGroupTasks {
  const c = cluster.metadata.name;
  const spec = cluster.spec;
  const labels: TagMap = { ...(spec.cloudLabels ?? {}) };
  // kops's CloudTagsForInstanceGroup: in queue mode every group (and its instances) carries NTH's managed tag,
  // which NTH checks before draining; a cloud label of the same key wins.
  const nthTag = spec.nodeTerminationHandler?.managedASGTag;
  const nthLabels: TagMap = nthQueueMode(cluster) && nthTag ? { [nthTag]: '' } : {};
  const subnetByName = new Map(deps.subnets.map((s) => [s.name, s]));
  const zone = spec.subnets?.find((s) => s.zone)?.zone;
  if (!zone) throw new UnsupportedModelError('spec.subnets', 'a cluster without a zone');
  // An AWS zone is its region plus one letter.
  const region = zone.replace(/[a-z]$/, '');
  const configBase = spec.configBase;
  if (!configBase) throw new MissingModelInputError('spec.configBase (a completed spec)');

  let keyPair: Ec2KeyPairTask | undefined;
  // kops's sshKeyName: unset imports the cluster's SSH public key; "" means no key pair at all; a name
  // means an existing key pair of the account, used as it is.
  const existingKeyName = spec.sshKeyName ? spec.sshKeyName : undefined;
  if (inputs.sshPublicKey && spec.sshKeyName === undefined) {
    const name = keyPairName(c, inputs.sshPublicKey.fingerprint);
    keyPair = new Ec2KeyPairTask(name, { publicKey: inputs.sshPublicKey.publicKey, tags: clusterTags(c, name, labels) });
  }
  // The same list awsPreflight resolves, so both share the inventory's one image load.
  const imageRefs = [...new Set(instanceGroups.map((ig) => ig.spec.image ?? DEFAULT_IMAGE))].sort();
  // The same list awsPreflight loads the instance types with: one DescribeInstanceTypes for every template.
  const instanceTypes = [...new Set(instanceGroups.map((ig) => machineTypeOf(ig)))].sort();

  const overrides = sharedGroupResources(instanceGroups, deps);
  const launchTemplates: LaunchTemplateTask[] = [];
  const autoScalingGroups: AutoScalingGroupTask[] = [];
  for (const ig of [...instanceGroups].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))) {
    const igName = ig.metadata.name;
    const object = `InstanceGroup/${igName}`;
    if (ig.spec.manager === 'Karpenter') throw new UnsupportedModelError(`${object} spec.manager`, 'Karpenter');
    if (ig.spec.role === 'APIServer') throw new UnsupportedModelError(`${object} spec.role`, `the ${ig.spec.role} role`);
    // A bastion is a bare SSH jump host, as in kops: no nodeup, so no user-data and no nodeup config hash.
    const bastion = ig.spec.role === 'Bastion';
    const cp = isControlPlane(ig);
    const role = normalizedRole(ig);
    const hash = inputs.nodeupConfigHashes[igName];
    if (!hash && !bastion) throw new MissingModelInputError(`the sha256 of ${object}'s nodeupconfig.yaml (AwsModelInputs.nodeupConfigHashes["${igName}"])`);
    // A worker's user-data names the node-identity service, pinned to kops-controller-ca, not the store.
    const viaService = groupUsesConfigServer(cluster, ig);
    if (viaService && !inputs.kopsControllerCa) throw new MissingModelInputError(`the kops-controller-ca certificate for ${object}'s user-data (AwsModelInputs.kopsControllerCa)`);
    // Without DNS the load balancer's name goes in at find/apply (or by Terraform); the template holds a placeholder.
    const viaLb = viaService && configServerViaLoadBalancer(cluster) ? required(deps.apiLoadBalancer, 'the API load balancer (spec.api.loadBalancer)') : undefined;
    // kops's BootConfig.APIServerIPs: without DNS a worker maps api.internal (and kops-controller.internal) to the
    // load balancer's private addresses, which exist only once AWS made it: the template task puts them in.
    const ipsFromLb = normalizedRole(ig) === 'Node' && apiAddressesFromLoadBalancer(cluster) ? required(deps.apiLoadBalancer, 'the API load balancer (spec.api.loadBalancer)') : undefined;
    const configServer = viaService
      ? { servers: [configServerUrl(c)], caCertificates: inputs.kopsControllerCa as string, via: viaLb ? LOAD_BALANCER_DNS_PLACEHOLDER : undefined }
      : undefined;
    const subnets = (ig.spec.subnets ?? []).map((s, i) => {
      const task = subnetByName.get(`${s}.${c}`);
      if (!task) throw new UnsupportedModelError(`${object} spec.subnets[${i}]`, `a subnet (${s}) that is not in the cluster's spec.subnets`);
      return task;
    });
    if (subnets.length === 0) throw new UnsupportedModelError(`${object} spec.subnets`, 'an instance group without subnets');
    // Public and utility subnets give every instance a public address (MapPublicIpOnLaunch); a group that
    // asks for none there would need per-template network interfaces, which kforge does not render yet.
    if (ig.spec.associatePublicIp === false && subnets.some((t) => t.desired.mapPublicIpOnLaunch)) {
      throw new UnsupportedModelError(`${object} spec.associatePublicIp`, 'instances without a public address in a public or utility subnet');
    }

    const name = `${igName}.${c}`;
    const roleTags: TagMap = cp ? { 'k8s.io/role/control-plane': '1', 'k8s.io/role/master': '1' } : bastion ? { 'k8s.io/role/bastion': '1' } : { 'k8s.io/role/node': '1' };
    const kind = cp ? 'controlPlane' : bastion ? 'bastion' : 'node';
    // The cluster autoscaler reads a group's labels and taints from these tags to scale a group up from zero
    // (kops's CloudTagsForInstanceGroup): the labels kubelet registers the node with, and the group's taints.
    const autoscalerLabels = autoscalerTemplateTags(cluster, ig);
    const groupTags = clusterTags(c, name, { ...nthLabels, ...labels, ...(ig.spec.cloudLabels ?? {}) }, { ...autoscalerLabels, ...roleTags, 'kops.k8s.io/instancegroup': igName });
    const rootType = ig.spec.rootVolumeType ?? 'gp3';
    const lt = new LaunchTemplateTask(name, {
      instanceGroup: igName,
      image: ig.spec.image ?? DEFAULT_IMAGE,
      imageRefs,
      instanceTypes,
      instanceType: machineTypeOf(ig),
      rootVolume: {
        size: ig.spec.rootVolumeSize ?? DEFAULT_ROOT_VOLUME_GIB[kind],
        volumeType: rootType,
        // Encrypted unless the group says no (kops leaves it to the account default; kforge errs on the safe side).
        encrypted: ig.spec.rootVolumeEncryption ?? true,
        // gp3's baseline written out, as kops does (DefaultVolumeGp3Iops/Throughput): AWS gives the same, and the
        // template then says what the volume gets.
        iops: ig.spec.rootVolumeIops ?? (rootType === 'gp3' ? GP3_BASELINE.iops : undefined),
        throughput: rootType === 'gp3' ? (ig.spec.rootVolumeThroughput ?? GP3_BASELINE.throughput) : undefined,
        kmsKeyId: ig.spec.rootVolumeEncryptionKey,
      },
      additionalSecurityGroupIds: [...new Set(ig.spec.additionalSecurityGroups ?? [])].sort(),
      detailedMonitoring: ig.spec.detailedInstanceMonitoring ?? false,
      cpuCredits: ig.spec.cpuCredits,
      tenancy: ig.spec.tenancy === 'default' ? undefined : ig.spec.tenancy,
      httpTokens: ig.spec.instanceMetadata?.httpTokens ?? 'required',
      httpPutResponseHopLimit: ig.spec.instanceMetadata?.httpPutResponseHopLimit ?? 1,
      securityGroup:
        overrides.securityGroups.get(igName) ??
        (cp ? deps.securityGroups.controlPlane : bastion ? required(deps.securityGroups.bastion, 'the bastion security group') : deps.securityGroups.nodes),
      instanceProfile:
        overrides.profiles.get(igName) ??
        required(cp ? deps.iam.controlPlaneProfile : bastion ? deps.iam.bastionProfile : deps.iam.nodeProfiles[ig.metadata.name], `the instance profile of ${object}`),
      keyPair,
      existingKeyName,
      // kops's additionalUserData: the boot script and the group's parts as one MIME archive (a bastion's parts only).
      userData: multipartUserData(
        bastion
          ? undefined
          : renderUserData({
              clusterName: c,
              configBase,
              region,
              instanceGroup: igName,
              role,
              nodeupConfigHash: hash as string,
              fileRepository: cluster.spec.assets?.fileRepository,
              configServer,
              apiServerIps: ipsFromLb ? [LOAD_BALANCER_IPS_PLACEHOLDER] : undefined,
            }),
        ig.spec.additionalUserData,
      ),
      loadBalancer: viaLb ?? ipsFromLb,
      loadBalancerIps: ipsFromLb ? { networkCidrs: networkCidrs(cluster) } : undefined,
      instanceTags: groupTags,
      tags: clusterTags(c, name, { ...nthLabels, ...labels }, { ...roleTags, 'kops.k8s.io/instancegroup': igName }),
    });
    const minSize = ig.spec.minSize ?? DEFAULT_MIN_SIZE[kind];
    const asg = new AutoScalingGroupTask(name, {
      launchTemplate: lt,
      subnets,
      minSize,
      maxSize: ig.spec.maxSize ?? minSize,
      tags: groupTags,
      targetGroups: deps.targetGroups?.[igName],
      maxInstanceLifetime: lifetimeSeconds(ig.spec.maxInstanceLifetime),
      capacityRebalance: ig.spec.capacityRebalance ?? false,
      protectFromScaleIn: ig.spec.instanceProtection ?? false,
      suspendedProcesses: [...new Set(ig.spec.suspendProcesses ?? [])].sort(),
      mixedInstances: mixedInstances(ig),
    });
    launchTemplates.push(lt);
    autoScalingGroups.push(asg);
  }
  const tasks: AnyTask[] = [...(keyPair ? [keyPair] : []), ...overrides.tasks, ...launchTemplates, ...autoScalingGroups];
  return { launchTemplates, autoScalingGroups, keyPair, tasks };
}

/**
 * The existing security groups (`spec.securityGroupOverride`) and instance profiles (`spec.iam.profile`, an
 * ARN) that instance groups name instead of the cluster's, by group name: one find-only task per distinct
 * id (kops's `Shared: true`), in the cluster's VPC. Their groups get no cluster security group and no role.
 */
function sharedGroupResources(
  instanceGroups: readonly InstanceGroup[],
  deps: InstanceGroupModelDeps,
): { securityGroups: Map<string, SecurityGroupTask>; profiles: Map<string, IamInstanceProfileTask>; tasks: AnyTask[] } {
  const vpc = deps.securityGroups.nodes.desired.vpc;
  const sgIds = [...new Set(instanceGroups.map((ig) => ig.spec.securityGroupOverride).filter((id): id is string => !!id))].sort();
  const sgById = new Map<string, SecurityGroupTask>();
  const profileByArn = new Map<string, IamInstanceProfileTask>();
  const securityGroups = new Map<string, SecurityGroupTask>();
  const profiles = new Map<string, IamInstanceProfileTask>();
  for (const ig of [...instanceGroups].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))) {
    const object = `InstanceGroup/${ig.metadata.name}`;
    const sg = ig.spec.securityGroupOverride;
    if (sg) {
      const field = `${object} spec.securityGroupOverride`;
      if (!/^sg-[0-9a-f]+$/.test(sg)) throw new SharedResourceError(field, `"${sg}" is not a security group id (sg-…)`);
      if (!sgById.has(sg)) sgById.set(sg, new SecurityGroupTask(sg, { vpc, description: '', tags: {}, shared: { id: sg, allIds: sgIds, field } }));
      securityGroups.set(ig.metadata.name, sgById.get(sg) as SecurityGroupTask);
    }
    const arn = ig.spec.iam?.profile;
    if (arn) {
      const field = `${object} spec.iam.profile`;
      // arn:<partition>:iam::<account>:instance-profile/<path/><name>: launch templates name the profile.
      const m = /^arn:[a-z-]+:iam::\d{12}:instance-profile\/(?:.*\/)?([\w+=,.@-]+)$/.exec(arn);
      if (!m) throw new SharedResourceError(field, `"${arn}" is not an instance profile ARN (arn:aws:iam::<account>:instance-profile/<name>)`);
      if (!profileByArn.has(arn)) profileByArn.set(arn, new IamInstanceProfileTask(m[1], { tags: {}, shared: { arn, field } }));
      profiles.set(ig.metadata.name, profileByArn.get(arn) as IamInstanceProfileTask);
    }
  }
  return { securityGroups, profiles, tasks: [...sgById.values(), ...profileByArn.values()] };
}

/**
 * kops's UsesLoadBalancerForKopsController on AWS: no DNS (`topology.dns.type: None`, the `.k8s.local` default)
 * and the API load balancer, whose addresses the workers' boot config then carries.
 */
function apiAddressesFromLoadBalancer(cluster: Cluster): boolean {
  const dns = cluster.spec.topology?.dns?.type ?? (cluster.metadata.name.endsWith('.k8s.local') ? 'None' : 'Public');
  return dns === 'None' && cluster.spec.api?.loadBalancer !== undefined;
}

/** The network's CIDRs the load balancer's addresses must lie in (kops's selectControlPlaneIPs on AWS). */
function networkCidrs(cluster: Cluster): string[] {
  return [...(cluster.spec.additionalNetworkCIDRs ?? []), ...(cluster.spec.networkCIDR ? [cluster.spec.networkCIDR] : [])];
}

/** A dependency the caller must have built (the security-group and IAM builders make it with a bastion group). */
function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new MissingModelInputError(what);
  return value;
}

/** `maxInstanceLifetime` (a Go duration, validated) in whole seconds, as Auto Scaling takes it; 0 when unset. */
function lifetimeSeconds(duration: string | undefined): number {
  return duration === undefined ? 0 : Math.round((goDurationNs(duration) ?? 0) / 1e9);
}

/** The machine type of an instance group: its own, else kops's default for its role. */
export function machineTypeOf(ig: InstanceGroup): string {
  return ig.spec.machineType ?? (ig.spec.role === 'Bastion' ? DEFAULT_BASTION_MACHINE_TYPE : DEFAULT_MACHINE_TYPE);
}

/** gp3's baseline performance, which kops writes into every gp3 root volume it does not set (autoscalinggroup.go). */
const GP3_BASELINE = { iops: 3000, throughput: 125 };

/**
 * kops's cluster-autoscaler node-template tags of a group: `…/node-template/label/<k>` for each label kubelet
 * registers the node with (role, instance group, `nodeLabels`, kubelet's), and `…/node-template/taint/<k>`
 * = `<value>:<effect>` for each of the group's own taints (kops leaves kubelet's control-plane taint out too).
 */
function autoscalerTemplateTags(cluster: Cluster, ig: InstanceGroup): TagMap {
  const tags: TagMap = {};
  if (ig.spec.role === 'Bastion') return tags;
  for (const [k, v] of Object.entries(instanceGroupKubelet(cluster.spec, ig).nodeLabels ?? {})) tags[`k8s.io/cluster-autoscaler/node-template/label/${k}`] = v;
  for (const taint of ig.spec.taints ?? []) {
    const m = /^([^=:]+)(?:=([^:]*))?:(\w+)$/.exec(taint);
    if (m) tags[`k8s.io/cluster-autoscaler/node-template/taint/${m[1]}`] = `${m[2] ?? ''}:${m[3]}`;
  }
  return tags;
}

/** The group's `mixedInstancesPolicy` as the Auto Scaling group takes it (instanceRequirements is refused at validation). */
function mixedInstances(ig: InstanceGroup): MixedInstancesSpec | undefined {
  const m = ig.spec.mixedInstancesPolicy;
  if (!m) return undefined;
  const { onDemandAllocationStrategy, onDemandBase, onDemandAboveBase, spotAllocationStrategy, spotInstancePools } = m;
  return { instances: m.instances ?? [], onDemandAllocationStrategy, onDemandBase, onDemandAboveBase, spotAllocationStrategy, spotInstancePools };
}
