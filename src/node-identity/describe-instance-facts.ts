import type { AwsCloud } from '../cloud/aws/aws-cloud';
import { classifyAwsError } from '../cloud/aws/aws-errors';
import type { InstanceFacts } from './aws-identity-verifier';

/** DescribeInstances of one id through the service's own EC2 client; undefined when EC2 does not know it. */
export async function describeInstanceFacts(cloud: AwsCloud, instanceId: string): Promise<InstanceFacts | undefined> {
  const { sdk, client } = await cloud.ec2();
  let out;
  try {
    out = await client.send(new sdk.DescribeInstancesCommand({ InstanceIds: [instanceId] }));
  } catch (e) {
    // EC2 answers an unknown id with InvalidInstanceID.NotFound.
    if (classifyAwsError(e) === 'not-found') return undefined;
    throw e;
  }
  const instances = (out.Reservations ?? []).flatMap((r) => r.Instances ?? []);
  if (instances.length !== 1) return undefined;
  const i = instances[0];
  return {
    instanceId: i.InstanceId ?? instanceId,
    state: i.State?.Name ?? 'unknown',
    privateDnsName: i.PrivateDnsName ?? '',
    tags: Object.fromEntries((i.Tags ?? []).map((t) => [t.Key ?? '', t.Value ?? ''])),
  };
}
