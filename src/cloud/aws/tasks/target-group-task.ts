import { HclBlock, type TerraformTarget } from '../../../tasks/terraform-target';
import { TerraformNotSupportedError } from '../../../tasks/terraform-not-supported-error';
import { diffFields } from '../../../tasks/diff-fields';
import { AnyTask, Change, taskKey } from '../../../tasks/task';
import { TaskOutput } from '../../../tasks/task-output';
import type { AwsCloud } from '../aws-cloud';
import { tagList, TagMap } from '../aws-tags';
import { ResourceNotOwnedError } from '../resource-not-owned-error';
import { AwsTask } from './aws-task';
import { addElbv2Tags } from './elbv2-tags';
import type { VpcTask } from './vpc-task';

/** The actual state of a target group. */
export interface TargetGroupActual {
  arn: string;
  vpcId?: string;
  protocol?: string;
  port?: number;
  healthCheckProtocol?: string;
  healthCheckIntervalSeconds?: number;
  healthyThreshold?: number;
  unhealthyThreshold?: number;
  /** The target group attributes, all of them as ELBv2 returns them. */
  attributes: Record<string, string>;
  tags: TagMap;
}

/** What the model wants of a target group: instances on a TCP port, health-checked by TCP connect. */
export interface TargetGroupSpec {
  vpc: VpcTask;
  protocol: 'TCP';
  port: number;
  healthCheckProtocol: 'TCP';
  healthCheckIntervalSeconds: number;
  healthyThreshold: number;
  unhealthyThreshold: number;
  /** Target group attributes to set (others are left as they are), e.g. `deregistration_delay.timeout_seconds`. */
  attributes: Record<string, string>;
  tags: TagMap;
}

/**
 * A target group of the API load balancer (kops's TargetGroup, `tcp-<cluster>-<hash>`): the control-plane
 * Auto Scaling groups register their instances in it through `arn`. Its name is its ELB name (32
 * characters at most); found by name and confirmed as the cluster's by its tags.
 */
export class TargetGroupTask extends AwsTask<TargetGroupActual> {
  readonly kind = 'TargetGroup';
  /** The target group's ARN, once it exists: what an Auto Scaling group's TargetGroupARNs takes. */
  readonly arn = new TaskOutput<string>(`TargetGroup/${this.name} ARN`);
  protected override readonly immutable = {
    vpcId: 'a target group cannot move to another VPC',
    protocol: 'a target group keeps its protocol',
    port: 'a target group keeps its port',
  };

  constructor(
    name: string,
    readonly desired: TargetGroupSpec,
  ) {
    super(name);
  }

  override dependencies(): readonly AnyTask<AwsCloud>[] {
    return [this.desired.vpc];
  }

  renderTerraform(t: TerraformTarget): void {
    const d = this.desired;
    // The ELBv2 attributes the model sets, as the provider's arguments; any other would be silently lost.
    const known: Record<string, string> = { 'deregistration_delay.timeout_seconds': 'deregistration_delay', 'deregistration_delay.connection_termination.enabled': 'connection_termination' };
    const attributes: Record<string, string | number | boolean> = {};
    for (const [key, value] of Object.entries(d.attributes)) {
      const arg = known[key];
      if (!arg) throw new TerraformNotSupportedError(`TargetGroup attribute ${key}`);
      attributes[arg] = value === 'true' || value === 'false' ? value === 'true' : /^\d+$/.test(value) ? Number(value) : value;
    }
    t.addResource(this, 'aws_lb_target_group', {
      ...attributes,
      health_check: new HclBlock({ healthy_threshold: d.healthyThreshold, interval: d.healthCheckIntervalSeconds, protocol: d.healthCheckProtocol, unhealthy_threshold: d.unhealthyThreshold }),
      name: this.name,
      port: d.port,
      protocol: d.protocol,
      tags: d.tags,
      target_type: 'instance',
      vpc_id: t.reference(d.vpc, 'id'),
    });
  }

  async find(cloud: AwsCloud): Promise<TargetGroupActual | undefined> {
    const found = (await cloud.inventory.endpoint.targetGroups([this.name])).find((t) => t.resource.TargetGroupName === this.name);
    if (!found?.resource.TargetGroupArn) return undefined;
    if (!found.owned) throw new ResourceNotOwnedError(taskKey(this), `a target group named "${this.name}"`, cloud.clusterName);
    const tg = found.resource;
    this.arn.set(found.resource.TargetGroupArn);
    const attributes = await cloud.inventory.endpoint.targetGroupAttributes(found.resource.TargetGroupArn);
    return {
      arn: found.resource.TargetGroupArn,
      vpcId: tg.VpcId,
      protocol: tg.Protocol,
      port: tg.Port,
      healthCheckProtocol: tg.HealthCheckProtocol,
      healthCheckIntervalSeconds: tg.HealthCheckIntervalSeconds,
      healthyThreshold: tg.HealthyThresholdCount,
      unhealthyThreshold: tg.UnhealthyThresholdCount,
      attributes,
      tags: found.tags,
    };
  }

  diff(actual: TargetGroupActual | undefined): Change[] {
    const { vpc, attributes, ...rest } = this.desired;
    const changes = diffFields(actual as unknown as Record<string, unknown>, { ...rest, vpcId: vpc.id.peek() });
    // Attributes key by key, like tags: ELBv2 returns many more than the model sets.
    for (const key of Object.keys(attributes).sort()) {
      if (actual?.attributes[key] !== attributes[key]) changes.push({ field: `attributes.${key}`, from: actual?.attributes[key], to: attributes[key] });
    }
    return changes;
  }

  async apply(cloud: AwsCloud, actual: TargetGroupActual | undefined, changes: readonly Change[]): Promise<void> {
    const { sdk, client } = await cloud.elbv2();
    const d = this.desired;
    const health = {
      HealthCheckProtocol: d.healthCheckProtocol,
      HealthCheckIntervalSeconds: d.healthCheckIntervalSeconds,
      HealthyThresholdCount: d.healthyThreshold,
      UnhealthyThresholdCount: d.unhealthyThreshold,
    };
    if (actual) {
      const healthFields = ['healthCheckProtocol', 'healthCheckIntervalSeconds', 'healthyThreshold', 'unhealthyThreshold'];
      if (changes.some((c) => healthFields.includes(c.field))) await client.send(new sdk.ModifyTargetGroupCommand({ TargetGroupArn: actual.arn, ...health }));
      await this.setAttributes(cloud, actual.arn, changes);
      await addElbv2Tags(cloud, actual.arn, changes);
      return;
    }
    // CreateTargetGroup is idempotent by name for the same settings: a resent create returns the same group.
    const out = await client.send(
      new sdk.CreateTargetGroupCommand({ Name: this.name, Protocol: d.protocol, Port: d.port, VpcId: d.vpc.id.get(), TargetType: 'instance', ...health, Tags: tagList(d.tags) }),
    );
    const arn = out.TargetGroups?.[0]?.TargetGroupArn;
    if (!arn) throw new Error('CreateTargetGroup returned no TargetGroupArn');
    this.arn.set(arn);
    // CreateTargetGroup takes no attributes: set them right after (a retry finds the group and sets what is missing).
    await this.setAttributes(cloud, arn, this.diff(undefined));
  }

  /** Sets the attributes among `changes` in one ModifyTargetGroupAttributes. */
  private async setAttributes(cloud: AwsCloud, arn: string, changes: readonly Change[]): Promise<void> {
    const Attributes = changes.filter((c) => c.field.startsWith('attributes.')).map((c) => ({ Key: c.field.slice('attributes.'.length), Value: String(c.to) }));
    if (Attributes.length === 0) return;
    const { sdk, client } = await cloud.elbv2();
    await client.send(new sdk.ModifyTargetGroupAttributesCommand({ TargetGroupArn: arn, Attributes }));
  }
}
