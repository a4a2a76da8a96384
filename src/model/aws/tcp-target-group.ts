import { awsResourceName32 } from '../../cloud/aws/aws-resource-name32';
import { clusterTags } from '../../cloud/aws/aws-tags';
import { TargetGroupTask } from '../../cloud/aws/tasks/target-group-task';
import type { NetworkTasks } from './network-model-builder';

/**
 * A TCP target group as kops makes them for its network load balancers (the API on 443, kops-controller on
 * 3988, the bastion on 22): kops's 32-character name `<prefix>-<cluster>-<hash>`, TCP health checks every
 * 10 s with thresholds of 2, and a member leaving the group drained in 30 s with its connections cut then.
 */
export function tcpTargetGroup(cluster: string, prefix: string, port: number, network: Pick<NetworkTasks, 'vpc'>, labels: Record<string, string>): TargetGroupTask {
  const name = awsResourceName32(cluster, prefix);
  return new TargetGroupTask(name, {
    vpc: network.vpc,
    protocol: 'TCP',
    port,
    healthCheckProtocol: 'TCP',
    healthCheckIntervalSeconds: 10,
    healthyThreshold: 2,
    unhealthyThreshold: 2,
    attributes: { 'deregistration_delay.timeout_seconds': '30', 'deregistration_delay.connection_termination.enabled': 'true' },
    tags: clusterTags(cluster, name, labels),
  });
}
