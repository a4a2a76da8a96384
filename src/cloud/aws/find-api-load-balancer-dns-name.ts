import { awsResourceName32 } from './aws-resource-name32';
import type { AwsCloud } from './aws-cloud';
import { AwsInventory } from './aws-inventory';
import { withAwsRetries } from './with-aws-retries';

/**
 * The DNS name of a cluster's API load balancer (`awsResourceName32(cluster, 'api')`, as the model names it),
 * or undefined when there is none owned by the cluster: what kops's kubeconfig uses as the server of a
 * cluster whose API has no DNS record (`--dns none`, `.k8s.local`). One DescribeLoadBalancers and one DescribeTags.
 */
export async function findApiLoadBalancerDnsName(cloud: AwsCloud, cluster: string): Promise<string | undefined> {
  // Outside the task executor, so throttling and dropped connections are retried here.
  const found = await withAwsRetries(() => new AwsInventory(cloud).endpoint.loadBalancers([awsResourceName32(cluster, 'api')]));
  return found.find((lb) => lb.owned)?.resource.DNSName;
}
