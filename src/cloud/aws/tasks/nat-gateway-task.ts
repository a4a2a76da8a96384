import type { TerraformTarget } from '../../../tasks/terraform-target';
import { diffFields } from '../../../tasks/diff-fields';
import { taskKey } from '../../../tasks/task';
import type { AnyTask, Change } from '../../../tasks/task';
import { TaskOutput } from '../../../tasks/task-output';
import type { AwsCloud } from '../aws-cloud';
import { tagMap, TagMap } from '../aws-tags';
import { AwsTask, pickByName } from './aws-task';
import type { ElasticIpTask } from './elastic-ip-task';
import type { SubnetTask } from './subnet-task';

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

/** A zone's NAT gateway in its utility subnet, with the zone's Elastic IP (private topology). */
export class NatGatewayTask extends AwsTask<NatGatewayActual> {
  readonly kind = 'NatGateway';
  /** The gateway id, once it exists. */
  readonly id = new TaskOutput<string>(`NatGateway/${this.name} id`);
  protected override readonly immutable = {
    subnetId: 'a NAT gateway cannot move to another subnet',
    allocationId: 'a NAT gateway keeps its Elastic IP for life',
  };

  constructor(
    name: string,
    readonly desired: { subnet: SubnetTask; elasticIp: ElasticIpTask; tags: TagMap },
  ) {
    super(name);
  }

  override dependencies(): readonly AnyTask<AwsCloud>[] {
    return [this.desired.subnet, this.desired.elasticIp];
  }

  renderTerraform(t: TerraformTarget): void {
    const d = this.desired;
    t.addResource(this, 'aws_nat_gateway', { allocation_id: t.reference(d.elasticIp, 'id'), subnet_id: t.reference(d.subnet, 'id'), tags: d.tags });
  }

  async find(cloud: AwsCloud): Promise<NatGatewayActual | undefined> {
    // Deleted and failed gateways stay visible for an hour; they are not ours any more.
    const live = (await cloud.inventory.natGateways()).filter((g) => g.State !== 'deleted' && g.State !== 'deleting' && g.State !== 'failed');
    const g = pickByName(live, this.name, (x) => x.NatGatewayId);
    if (!g?.NatGatewayId) return undefined;
    this.id.set(g.NatGatewayId);
    return { id: g.NatGatewayId, subnetId: g.SubnetId, allocationId: g.NatGatewayAddresses?.[0]?.AllocationId, state: g.State, tags: tagMap(g.Tags) };
  }

  diff(actual: NatGatewayActual | undefined): Change[] {
    const d = this.desired;
    return diffFields(actual as unknown as Record<string, unknown>, { subnetId: d.subnet.id.peek(), allocationId: d.elasticIp.allocationId.peek(), tags: d.tags });
  }

  async apply(cloud: AwsCloud, actual: NatGatewayActual | undefined, changes: readonly Change[]): Promise<void> {
    if (actual) {
      await this.updateTags(cloud, actual.id, changes);
      if (actual.state === 'pending') await this.waitAvailable(cloud, actual.id);
      return;
    }
    const { sdk, client } = await cloud.ec2();
    const out = await client.send(
      new sdk.CreateNatGatewayCommand({
        SubnetId: this.desired.subnet.id.get(),
        AllocationId: this.desired.elasticIp.allocationId.get(),
        ClientToken: cloud.clientToken(taskKey(this)),
        TagSpecifications: this.tagSpec('natgateway', this.desired.tags),
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
