import { KforgeError } from '../../errors/kforge-error';

/**
 * The API network load balancer exists but none of its network interfaces is visible yet: AWS makes them
 * while it provisions the load balancer, a moment after CreateLoadBalancer answers. Retryable (aws-errors.ts
 * classifies the code as `not-ready`): the task is found again after a backoff, within the retry budget.
 */
export class LoadBalancerInterfacesNotReadyError extends KforgeError {
  constructor(task: string, loadBalancerName: string, vpcId: string) {
    super(
      'LOAD_BALANCER_NOT_READY',
      `${task}: the API load balancer ${loadBalancerName} has no network interface in ${vpcId} with an address inside the network CIDRs yet (AWS adds them while it provisions the load balancer); its private addresses go into the workers' boot config (APIServerIPs)`,
    );
  }
}
