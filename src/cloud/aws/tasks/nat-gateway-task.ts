import type { HclExpression, TerraformTarget } from '../../../tasks/terraform-target';
import { SharedResourceError } from '../../../errors/shared-resource-error';
import { diffFields } from '../../../tasks/diff-fields';
import { taskKey } from '../../../tasks/task';
import type { AnyTask, Change } from '../../../tasks/task';
import { TaskOutput } from '../../../tasks/task-output';
import type { AwsCloud } from '../aws-cloud';
import { tagMap, TagMap } from '../aws-tags';
import { AwsTask } from './aws-task';
import type { ElasticIpTask } from './elastic-ip-task';
import type { SubnetTask } from './subnet-task';
import type { VpcTask } from './vpc-task';
import { hclLiteral, SharedTerraformValue } from './shared-resource';

/** The actual state of a NAT gateway. */
export interface NatGatewayActual {
  id: string;
  subnetId?: string;
  allocationId?: string;
  state?: string;
  tags: TagMap;
}

// NAT gateways take a minute or two to become available on AWS; routes to them wait for that.
const AVAILABLE_TIMEOUT_MS = 10 * 60_000;
const POLL_MS = 5_000;

/** An existing NAT gateway (`spec.subnets[i].egress: nat-…`): its id, every shared one of the model (one load), the cluster's VPC, and where the spec names it. */
export interface SharedNatGatewaySpec {
  id: string;
  allIds: readonly string[];
  vpc: VpcTask;
  /** `Cluster/<c> spec.subnets[i].egress`, for errors. */
  field: string;
}

/**
 * A zone's NAT gateway in its utility subnet, with the zone's Elastic IP (private topology), or with an
 * existing Elastic IP given by its allocation id (kops's `egress: eipalloc-…`: the address is the user's,
 * never made, tagged or released; the gateway is the cluster's). With `shared`
 * it is an existing gateway (kops's `egress: nat-…`), found by id in the cluster's VPC and never created,
 * modified, tagged or deleted: the zone's private route table only points at it.
 */
export class NatGatewayTask extends AwsTask<NatGatewayActual> implements SharedTerraformValue {
  readonly kind = 'NatGateway';
  /** The gateway id, once it exists. */
  readonly id = new TaskOutput<string>(`NatGateway/${this.name} id`);
  protected override readonly immutable = {
    subnetId: 'a NAT gateway cannot move to another subnet',
    allocationId: 'a NAT gateway keeps its Elastic IP for life',
  };

  constructor(
    name: string,
    readonly desired: { subnet: SubnetTask; elasticIp: ElasticIpTask | string; tags: TagMap } | { shared: SharedNatGatewaySpec },
  ) {
    super(name);
  }

  override dependencies(): readonly AnyTask<AwsCloud>[] {
    const d = this.desired;
    if ('shared' in d) return [d.shared.vpc];
    return typeof d.elasticIp === 'string' ? [d.subnet] : [d.subnet, d.elasticIp];
  }

  terraformValue(attribute: string): HclExpression | undefined {
    return 'shared' in this.desired && attribute === 'id' ? hclLiteral(this.desired.shared.id) : undefined;
  }

  renderTerraform(t: TerraformTarget): void {
    const d = this.desired;
    // A shared gateway is no resource of the cluster: the route names its id.
    if ('shared' in d) return;
    const allocationId = typeof d.elasticIp === 'string' ? d.elasticIp : t.reference(d.elasticIp, 'id');
    t.addResource(this, 'aws_nat_gateway', { allocation_id: allocationId, subnet_id: t.reference(d.subnet, 'id'), tags: d.tags });
  }

  async find(cloud: AwsCloud): Promise<NatGatewayActual | undefined> {
    if ('shared' in this.desired) return this.findShared(cloud, this.desired.shared);
    // Deleted and failed gateways stay visible for an hour; they are not ours any more.
    const live = (await cloud.inventory.natGateways()).filter((g) => g.State !== 'deleted' && g.State !== 'deleting' && g.State !== 'failed');
    const g = this.pickOwn(cloud, live, (x) => x.NatGatewayId);
    if (!g?.NatGatewayId) return undefined;
    this.id.set(g.NatGatewayId);
    return { id: g.NatGatewayId, subnetId: g.SubnetId, allocationId: g.NatGatewayAddresses?.[0]?.AllocationId, state: g.State, tags: tagMap(g.Tags) };
  }

  /** The existing gateway by id, checked: it must be live and in the cluster's VPC. */
  private async findShared(cloud: AwsCloud, shared: SharedNatGatewaySpec): Promise<NatGatewayActual> {
    const g = (await cloud.inventory.sharedNatGateways(shared.allIds)).find((x) => x.NatGatewayId === shared.id);
    if (!g?.NatGatewayId || g.State === 'deleted' || g.State === 'deleting' || g.State === 'failed') {
      throw new SharedResourceError(shared.field, `NAT gateway ${shared.id} does not exist in ${cloud.region}${g?.State ? ` (it is ${g.State})` : ''}`);
    }
    const vpcId = shared.vpc.id.peek();
    if (g.VpcId !== vpcId) throw new SharedResourceError(shared.field, `NAT gateway ${shared.id} is in VPC ${g.VpcId}, not in the cluster's VPC ${vpcId ?? '(none)'}`);
    this.id.set(g.NatGatewayId);
    return { id: g.NatGatewayId, subnetId: g.SubnetId, allocationId: g.NatGatewayAddresses?.[0]?.AllocationId, state: g.State, tags: tagMap(g.Tags) };
  }

  diff(actual: NatGatewayActual | undefined): Change[] {
    const d = this.desired;
    // A shared gateway is used as it is.
    if ('shared' in d) return [];
    const allocationId = typeof d.elasticIp === 'string' ? d.elasticIp : d.elasticIp.allocationId.peek();
    return diffFields(actual as unknown as Record<string, unknown>, { subnetId: d.subnet.id.peek(), allocationId, tags: d.tags });
  }

  async apply(cloud: AwsCloud, actual: NatGatewayActual | undefined, changes: readonly Change[]): Promise<void> {
    const d = this.desired;
    if ('shared' in d) return;
    if (actual) {
      await this.updateTags(cloud, actual.id, changes);
      if (actual.state === 'pending') await this.waitAvailable(cloud, actual.id);
      return;
    }
    const { sdk, client } = await cloud.ec2();
    const out = await client.send(
      new sdk.CreateNatGatewayCommand({
        SubnetId: d.subnet.id.get(),
        AllocationId: typeof d.elasticIp === 'string' ? d.elasticIp : d.elasticIp.allocationId.get(),
        ClientToken: cloud.clientToken(taskKey(this)),
        TagSpecifications: this.tagSpec('natgateway', d.tags),
      }),
    );
    const id = out.NatGateway?.NatGatewayId;
    if (!id) throw new Error('CreateNatGateway returned no NatGatewayId');
    this.id.set(id);
    if (out.NatGateway?.State !== 'available') await this.waitAvailable(cloud, id);
  }

  /** Polls until the gateway is available (moto makes it available at once; AWS takes a minute or two). */
  private async waitAvailable(cloud: AwsCloud, id: string): Promise<void> {
    const { sdk, client } = await cloud.ec2();
    const deadline = Date.now() + AVAILABLE_TIMEOUT_MS;
    for (;;) {
      const out = await client.send(new sdk.DescribeNatGatewaysCommand({ NatGatewayIds: [id] }));
      const state = out.NatGateways?.[0]?.State;
      if (state === 'available') return;
      if (state === 'failed' || state === 'deleted' || state === 'deleting') throw new Error(`NAT gateway ${id} is ${state}: ${out.NatGateways?.[0]?.FailureMessage ?? 'no reason given'}`);
      if (Date.now() > deadline) throw new Error(`NAT gateway ${id} was not available after ${AVAILABLE_TIMEOUT_MS / 60_000} minutes (state ${state})`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }
}
