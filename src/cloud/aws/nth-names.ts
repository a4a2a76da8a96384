import { fnv32aBase32Hex } from './aws-resource-name32';

/**
 * kops's `truncate.TruncateString` without AlwaysAddHash: `s` as it is when it fits `max`, else cut to leave room
 * for `-` and six characters of its FNV-1a hash (base32hex), so two long names do not collide.
 */
export function truncateName(s: string, max: number): string {
  if (s.length <= max) return s;
  const hash = fnv32aBase32Hex(s).slice(0, 6);
  return `${s.slice(0, max - hash.length - 1)}-${hash}`;
}

/** The node-termination-handler's SQS queue: kops's `QueueNamePrefix(cluster) + "-nth"` (dots are not allowed in queue names). */
export function nthQueueName(cluster: string): string {
  return `${truncateName(cluster.replace(/\./g, '-'), 75)}-nth`;
}

/** An EventBridge rule of the node-termination-handler: kops's `GetClusterName40(cluster) + "-" + event`. */
export function nthRuleName(cluster: string, event: string): string {
  return `${truncateName(cluster, 40)}-${event}`;
}

/** An instance group's lifecycle hook: kops's `<ig>-NTHLifecycleHook`. */
export function nthLifecycleHookName(instanceGroup: string): string {
  return `${instanceGroup}-NTHLifecycleHook`;
}

/** The region of a zone name (`us-east-1a` → `us-east-1`). */
export function regionOfZone(zone: string): string {
  return zone.replace(/[a-z]$/, '');
}

/** The queue's URL as NTH reads it (kops's `DefaultQueueName`): China regions use `amazonaws.com.cn`. */
export function nthQueueUrl(cluster: string, region: string, accountId: string): string {
  const domain = region.includes('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
  return `https://sqs.${region}.${domain}/${accountId}/${nthQueueName(cluster)}`;
}
