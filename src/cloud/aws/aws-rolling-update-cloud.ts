import type { RollingUpdateCloud } from '../../rolling-update/update-instance-group';
import type { AwsCloud } from './aws-cloud';
import { classifyAwsError } from './aws-errors';
import { DETACHED_TAG, listCloudInstanceGroups } from './cloud-instance-groups';

/**
 * A rolling update's cloud on AWS. Detach tags the instance with its group's name first and only then
 * detaches it with ShouldDecrementDesiredCapacity=false (AWS then launches a replacement): a run killed
 * between the two finds a tagged member, detaches it again, and a tagged non-member is never detached or
 * counted as a surge twice. Terminate is EC2's TerminateInstances, as kops: AWS replaces a terminated member
 * after its health check (moto_server does it inside the call), and never a detached instance.
 */
export function awsRollingUpdateCloud(cloud: AwsCloud): Required<RollingUpdateCloud> {
  return {
    groups: () => listCloudInstanceGroups(cloud),
    detach: async (asgName, instanceId) => {
      const { sdk: ec2Sdk, client: ec2 } = await cloud.ec2();
      await ec2.send(new ec2Sdk.CreateTagsCommand({ Resources: [instanceId], Tags: [{ Key: DETACHED_TAG, Value: asgName }] }));
      const { sdk, client } = await cloud.autoScaling();
      try {
        await client.send(new sdk.DetachInstancesCommand({ AutoScalingGroupName: asgName, InstanceIds: [instanceId], ShouldDecrementDesiredCapacity: false }));
      } catch (e) {
        // Detached already (a resend after a lost answer): the group no longer lists it, which is the goal.
        const members = (await listCloudInstanceGroups(cloud)).get(asgName)?.instances.filter((i) => !i.detached).map((i) => i.id) ?? [];
        if (members.includes(instanceId) || classifyAwsError(e) === 'access-denied') throw e;
      }
    },
    terminate: async (instanceId) => {
      const { sdk, client } = await cloud.ec2();
      await client.send(new sdk.TerminateInstancesCommand({ InstanceIds: [instanceId] }));
    },
  };
}
