import type { AwsCloud } from '../aws-cloud';
import { loadBalancerInterfaceIps } from '../load-balancer-interface-ips';
import { LoadBalancerInterfacesNotReadyError } from '../load-balancer-interfaces-not-ready-error';
import type { NetworkLoadBalancerTask } from './network-load-balancer-task';

/**
 * Stands in user-data for the API load balancer's DNS name (`LaunchTemplateSpec.loadBalancer`) until it is
 * known: replaced at find and apply, and by Terraform's `replace()` with `aws_lb.<api>.dns_name`. A name
 * under `.invalid` never resolves, so a template that somehow kept it fails closed.
 */
export const LOAD_BALANCER_DNS_PLACEHOLDER = 'api-load-balancer.kforge.invalid';

/**
 * Stands in the boot config's APIServerIPs list (`- <placeholder>`) of a worker of a cluster without DNS for the
 * API load balancer's private addresses (`LaunchTemplateSpec.loadBalancerIps`), known once AWS made its network
 * interfaces: replaced at find and apply, before the template is compared or written. Not an IP address, so
 * nodeup refuses a boot config that somehow kept it rather than write a wrong /etc/hosts.
 */
export const LOAD_BALANCER_IPS_PLACEHOLDER = 'api-load-balancer-ips.kforge.invalid';

// The boot config's lines the placeholder stands in: the list item, and the whole key when it is the only item.
const IPS_ITEM = `- ${LOAD_BALANCER_IPS_PLACEHOLDER}\n`;
const IPS_BLOCK = `APIServerIPs:\n${IPS_ITEM}`;

// What a load balancer's DNS name may be before it goes into a boot script (lower-case DNS labels).
const LB_DNS_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/;

/**
 * A template's user-data with the load balancer's DNS name and addresses in place of the placeholders, each when
 * known (undefined: the placeholder stays). `task` names the template in an error.
 */
export function withLoadBalancer(task: string, userData: string, dnsName: string | undefined, ips: readonly string[] | undefined): string {
  let out = ips === undefined ? userData : userData.split(IPS_ITEM).join(ips.map((ip) => `- ${ip}\n`).join(''));
  if (dnsName === undefined) return out;
  const name = dnsName.toLowerCase().replace(/\.$/, '');
  if (!LB_DNS_NAME.test(name)) throw new Error(`${task}: the load balancer's DNS name ${JSON.stringify(dnsName)} is not a DNS name`);
  out = out.split(LOAD_BALANCER_DNS_PLACEHOLDER).join(name);
  return out;
}

/** The user-data without the APIServerIPs placeholder: kops's Terraform output has none (the interfaces do not exist when it is rendered). */
export function withoutApiServerIps(userData: string): string {
  return userData.split(IPS_BLOCK).join('').split(IPS_ITEM).join('');
}

/**
 * The addresses of an existing load balancer for its workers' boot config: one DescribeNetworkInterfaces per
 * run (the inventory's, shared by every template), kept inside `networkCidrs` (or IPv6). None yet is
 * LoadBalancerInterfacesNotReadyError, which the executor retries.
 */
export async function loadBalancerIpsOf(cloud: AwsCloud, task: string, lb: NetworkLoadBalancerTask, networkCidrs: readonly string[]): Promise<string[]> {
  const vpcId = lb.desired.subnets[0]?.desired.vpc.id.get();
  if (vpcId === undefined) throw new Error(`${task}: the load balancer has no subnet`);
  const name = lb.desired.loadBalancerName;
  const ips = loadBalancerInterfaceIps(await cloud.inventory.endpoint.loadBalancerInterfaces(vpcId, name), name, networkCidrs);
  if (ips.length === 0) throw new LoadBalancerInterfacesNotReadyError(task, name, vpcId);
  return ips;
}
