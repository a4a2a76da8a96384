import type { Cluster, InstanceGroup } from '../../api/types';
import type { FieldError } from '../../errors/field-error';
import { DEFAULT_IMAGE, machineTypeOf } from '../../model/aws/instance-group-model-builder';
import type { AwsCloud } from './aws-cloud';
import { AwsPreflightError } from './aws-preflight-error';
import { pickImage } from './image-ref';
import { withAwsRetries } from './with-aws-retries';

/**
 * Checks, before any mutating call, that the region offers every instance type the instance groups ask
 * for, has every zone the subnets and groups name, and has every image they name: ONE
 * DescribeInstanceTypes for all machine types (the inventory's, which the launch templates reuse), ONE DescribeAvailabilityZones, and the inventory's
 * image load (shared with the launch templates' find, so a plan on the same AwsCloud pays nothing more),
 * whatever the number of groups; and the existing key pair and security groups the spec names. Throws AwsPreflightError naming each field (`InstanceGroup/<ig>
 * spec.machineType`, `InstanceGroup/<ig> spec.image`, `Cluster/<c> spec.subnets[i].zone`); all problems at once.
 */
export async function awsPreflight(cloud: AwsCloud, cluster: Cluster, instanceGroups: readonly InstanceGroup[]): Promise<void> {
  const { sdk, client } = await cloud.ec2();
  const types = [...new Set(instanceGroups.map((ig) => machineTypeOf(ig)))].sort();
  // The launch templates read the same load for their instance-store devices: no extra call.
  const offeredLoad = async (): Promise<Set<string>> => new Set((await cloud.inventory.instanceTypes(types)).flatMap((t) => (t.InstanceType ? [t.InstanceType] : [])));
  const zonesLoad = async (): Promise<Set<string>> => {
    const out = await client.send(new sdk.DescribeAvailabilityZonesCommand({}));
    return new Set((out.AvailabilityZones ?? []).filter((z) => z.State === undefined || z.State === 'available').flatMap((z) => (z.ZoneName ? [z.ZoneName] : [])));
  };
  const imageRefs = [...new Set(instanceGroups.map((ig) => ig.spec.image ?? DEFAULT_IMAGE))].sort();
  // Outside the task executor, so throttling and dropped connections are retried here.
  const [offered, zones, images] = await Promise.all([
    withAwsRetries(offeredLoad),
    withAwsRetries(zonesLoad),
    imageRefs.length > 0 ? withAwsRetries(() => cloud.inventory.images(imageRefs)) : [],
  ]);

  const errors: FieldError[] = [];
  const clusterObject = `Cluster/${cluster.metadata.name}`;
  (cluster.spec.subnets ?? []).forEach((s, i) => {
    if (s.zone && !zones.has(s.zone)) errors.push({ object: clusterObject, path: `spec.subnets[${i}].zone`, message: `zone "${s.zone}" is not an available zone of region ${cloud.region} for this account` });
  });
  for (const ig of instanceGroups) {
    const object = `InstanceGroup/${ig.metadata.name}`;
    const type = machineTypeOf(ig);
    if (!offered.has(type)) errors.push({ object, path: 'spec.machineType', message: `instance type "${type}" is not offered in region ${cloud.region}` });
    const image = ig.spec.image ?? DEFAULT_IMAGE;
    if (!pickImage(images, image)) errors.push({ object, path: 'spec.image', message: `no image "${image}" is visible to this account in region ${cloud.region}` });
    (ig.spec.zones ?? []).forEach((z, j) => {
      if (!zones.has(z)) errors.push({ object, path: `spec.zones[${j}]`, message: `zone "${z}" is not an available zone of region ${cloud.region} for this account` });
    });
  }
  errors.push(...(await existingReferences(cloud, cluster, instanceGroups)));
  if (errors.length > 0) throw new AwsPreflightError(errors, cloud.region);
}

/**
 * The existing resources the spec names that kforge never creates: the key pair of `spec.sshKeyName` and
 * the groups of `additionalSecurityGroups`. One DescribeKeyPairs and one DescribeSecurityGroups, each only
 * when something is named, so a cluster that names nothing pays no call.
 */
async function existingReferences(cloud: AwsCloud, cluster: Cluster, instanceGroups: readonly InstanceGroup[]): Promise<FieldError[]> {
  const { sdk, client } = await cloud.ec2();
  const errors: FieldError[] = [];
  const keyName = cluster.spec.sshKeyName;
  if (keyName) {
    const found = await withAwsRetries(() => client.send(new sdk.DescribeKeyPairsCommand({ Filters: [{ Name: 'key-name', Values: [keyName] }] })));
    if (!(found.KeyPairs ?? []).some((k) => k.KeyName === keyName)) {
      errors.push({ object: `Cluster/${cluster.metadata.name}`, path: 'spec.sshKeyName', message: `no key pair "${keyName}" in region ${cloud.region}; import it, or unset the field to use the cluster's SSH public key ("" for none)` });
    }
  }
  const wanted = [...new Set(instanceGroups.flatMap((ig) => ig.spec.additionalSecurityGroups ?? []))].sort();
  if (wanted.length > 0) {
    const out = await withAwsRetries(() => client.send(new sdk.DescribeSecurityGroupsCommand({ Filters: [{ Name: 'group-id', Values: wanted }] })));
    const have = new Set((out.SecurityGroups ?? []).flatMap((g) => (g.GroupId ? [g.GroupId] : [])));
    for (const ig of instanceGroups) {
      (ig.spec.additionalSecurityGroups ?? []).forEach((id, i) => {
        if (!have.has(id)) errors.push({ object: `InstanceGroup/${ig.metadata.name}`, path: `spec.additionalSecurityGroups[${i}]`, message: `security group "${id}" does not exist in region ${cloud.region}` });
      });
    }
  }
  return errors;
}
