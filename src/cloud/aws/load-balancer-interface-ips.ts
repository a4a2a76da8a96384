import type { NetworkInterface } from '@aws-sdk/client-ec2';
import { Cidr } from '../../net/cidr';

/** The description AWS gives each network interface of a network load balancer: `ELB net/<name>/<id>`. */
export function loadBalancerInterfaceDescription(loadBalancerName: string): string {
  return `ELB net/${loadBalancerName}/`;
}

/**
 * kops's FindAddresses + selectControlPlaneIPs for AWS, pure: the primary private IPv4 address of each of the
 * load balancer's network interfaces (description `ELB net/<name>/…`) that lies inside one of the network
 * CIDRs (`spec.networkCIDR`, `spec.additionalNetworkCIDRs`), and every IPv6 address; without duplicates, sorted
 * as strings (kops's sort.Strings). Anything that does not parse as an address is left out.
 */
export function loadBalancerInterfaceIps(interfaces: readonly NetworkInterface[], loadBalancerName: string, networkCidrs: readonly string[]): string[] {
  const prefix = loadBalancerInterfaceDescription(loadBalancerName);
  const cidrs = networkCidrs.map((c) => Cidr.tryParse(c)).filter((c): c is Cidr => c !== undefined);
  const ips = new Set<string>();
  for (const ni of interfaces) {
    if (!(ni.Description ?? '').startsWith(prefix)) continue;
    const v4 = ni.PrivateIpAddress ?? '';
    const address = /^\d{1,3}(\.\d{1,3}){3}$/.test(v4) ? Cidr.tryParse(`${v4}/32`) : undefined;
    if (address && cidrs.some((c) => c.contains(address))) ips.add(v4);
    for (const { Ipv6Address: v6 } of ni.Ipv6Addresses ?? []) {
      // Only a plain IPv6 address goes into the boot config's YAML line.
      if (v6 && /^[0-9a-fA-F:]+$/.test(v6) && Cidr.tryParse(`${v6}/128`)?.family === 6) ips.add(v6.toLowerCase());
    }
  }
  return [...ips].sort();
}
