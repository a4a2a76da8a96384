import { HclBlock, type TerraformTarget } from '../../../tasks/terraform-target';
import { diffFields } from '../../../tasks/diff-fields';
import type { AnyTask, Change } from '../../../tasks/task';
import type { AwsCloud } from '../aws-cloud';
import { AwsTask } from './aws-task';
import type { NetworkLoadBalancerTask } from './network-load-balancer-task';
import type { TargetGroupTask } from './target-group-task';

/** The actual state of a listener. */
export interface ListenerActual {
  arn: string;
  protocol?: string;
  /** The target group its default action forwards to. */
  targetGroupArn?: string;
}

/** What the model wants of a listener: a TCP port of the load balancer forwarded to one target group. */
export interface ListenerSpec {
  loadBalancer: NetworkLoadBalancerTask;
  port: number;
  targetGroup: TargetGroupTask;
}

/**
 * A listener of the API load balancer (kops's NetworkLoadBalancerListener, `api-<cluster>-443`): TCP on its
 * port, forwarding to the target group. Listeners have no name in AWS: one is found by its load balancer
 * and port, from one DescribeListeners per load balancer.
 */
export class ListenerTask extends AwsTask<ListenerActual> {
  readonly kind = 'Listener';

  constructor(
    name: string,
    readonly desired: ListenerSpec,
  ) {
    super(name);
  }

  override dependencies(): readonly AnyTask<AwsCloud>[] {
    return [this.desired.loadBalancer, this.desired.targetGroup];
  }

  renderTerraform(t: TerraformTarget): void {
    const d = this.desired;
    t.addResource(this, 'aws_lb_listener', {
      default_action: new HclBlock({ target_group_arn: t.reference(d.targetGroup, 'arn'), type: 'forward' }),
      load_balancer_arn: t.reference(d.loadBalancer, 'arn'),
      port: d.port,
      protocol: 'TCP',
    });
  }

  async find(cloud: AwsCloud): Promise<ListenerActual | undefined> {
    const lbArn = this.desired.loadBalancer.arn.peek();
    if (!lbArn) return undefined;
    const l = (await cloud.inventory.endpoint.listeners(lbArn)).find((x) => x.Port === this.desired.port);
    if (!l?.ListenerArn) return undefined;
    const forward = l.DefaultActions?.find((a) => a.Type === 'forward');
    return { arn: l.ListenerArn, protocol: l.Protocol, targetGroupArn: forward?.TargetGroupArn ?? forward?.ForwardConfig?.TargetGroups?.[0]?.TargetGroupArn };
  }

  diff(actual: ListenerActual | undefined): Change[] {
    // A target group not made yet shows by its name, so the plan of a new group still shows the change.
    const tg = this.desired.targetGroup;
    return diffFields(actual as unknown as Record<string, unknown>, { protocol: 'TCP', targetGroupArn: tg.arn.peek() ?? `<${tg.name}>` });
  }

  async apply(cloud: AwsCloud, actual: ListenerActual | undefined): Promise<void> {
    const { sdk, client } = await cloud.elbv2();
    const DefaultActions = [{ Type: 'forward' as const, TargetGroupArn: this.desired.targetGroup.arn.get() }];
    if (actual) {
      await client.send(new sdk.ModifyListenerCommand({ ListenerArn: actual.arn, Protocol: 'TCP', Port: this.desired.port, DefaultActions }));
      return;
    }
    await client.send(new sdk.CreateListenerCommand({ LoadBalancerArn: this.desired.loadBalancer.arn.get(), Protocol: 'TCP', Port: this.desired.port, DefaultActions }));
  }
}
