import type { AutoScalingGroup, MixedInstancesPolicy } from '@aws-sdk/client-auto-scaling';
import { HclBlock, type HclExpression } from '../../../tasks/terraform-target';

/** An instance group's `mixedInstancesPolicy` (kops's MixedInstancesPolicySpec), as the Auto Scaling group uses it. */
export interface MixedInstancesSpec {
  /** The instance types, in priority order: one launch-template override each. */
  instances: readonly string[];
  onDemandAllocationStrategy?: string;
  onDemandBase?: number;
  onDemandAboveBase?: number;
  spotAllocationStrategy?: string;
  spotInstancePools?: number;
}

// What AWS fills in for a field the request leaves out (InstancesDistribution in the Auto Scaling API reference):
// both sides are compared with them, so a policy the spec leaves partial is not a change on every run.
const DEFAULTS = { onDemandAllocationStrategy: 'prioritized', onDemandBase: 0, onDemandAboveBase: 100, spotAllocationStrategy: 'lowest-price', spotInstancePools: 2 };

/**
 * The policy as compared and shown in a plan: the distribution with AWS's defaults, then the instance types in
 * order (`onDemandBase=1 onDemandAboveBase=20 spot=capacity-optimized onDemand=prioritized instances=m5.large,…`);
 * '' for a group without one.
 */
export function mixedKey(m: MixedInstancesSpec | undefined): string {
  if (!m) return '';
  const d = { ...DEFAULTS, ...Object.fromEntries(Object.entries(m).filter(([k, v]) => k !== 'instances' && v !== undefined)) } as typeof DEFAULTS;
  // SpotInstancePools applies to lowest-price only; AWS answers without it for the other strategies.
  const pools = d.spotAllocationStrategy === 'lowest-price' ? ` pools=${d.spotInstancePools}` : '';
  return `onDemandBase=${d.onDemandBase} onDemandAboveBase=${d.onDemandAboveBase} spot=${d.spotAllocationStrategy}${pools} onDemand=${d.onDemandAllocationStrategy} instances=${m.instances.join(',')}`;
}

/** The policy a group has, as mixedKey compares it. */
export function actualMixedKey(g: AutoScalingGroup): string {
  const p = g.MixedInstancesPolicy;
  if (!p) return '';
  const dist = p.InstancesDistribution ?? {};
  return mixedKey({
    instances: (p.LaunchTemplate?.Overrides ?? []).flatMap((o) => (o.InstanceType ? [o.InstanceType] : [])),
    onDemandAllocationStrategy: dist.OnDemandAllocationStrategy,
    onDemandBase: dist.OnDemandBaseCapacity,
    onDemandAboveBase: dist.OnDemandPercentageAboveBaseCapacity,
    spotAllocationStrategy: dist.SpotAllocationStrategy,
    spotInstancePools: dist.SpotAllocationStrategy === undefined || dist.SpotAllocationStrategy === 'lowest-price' ? dist.SpotInstancePools : undefined,
  });
}

/** The API's MixedInstancesPolicy: the group's launch template, one override per instance type, the distribution as given. */
export function mixedInstancesPolicy(m: MixedInstancesSpec, launchTemplate: { LaunchTemplateName: string; Version: string }): MixedInstancesPolicy {
  return {
    LaunchTemplate: { LaunchTemplateSpecification: launchTemplate, Overrides: m.instances.map((InstanceType) => ({ InstanceType })) },
    InstancesDistribution: {
      OnDemandAllocationStrategy: m.onDemandAllocationStrategy,
      OnDemandBaseCapacity: m.onDemandBase,
      OnDemandPercentageAboveBaseCapacity: m.onDemandAboveBase,
      SpotAllocationStrategy: m.spotAllocationStrategy,
      SpotInstancePools: m.spotInstancePools,
    },
  };
}

/** kops's `mixed_instances_policy` block: the fields the spec sets, and `spot_max_price = ""` (on-demand price cap) as kops writes it. */
export function mixedInstancesPolicyHcl(m: MixedInstancesSpec, launchTemplateId: HclExpression, version: string): HclBlock {
  return new HclBlock({
    instances_distribution: new HclBlock({
      on_demand_allocation_strategy: m.onDemandAllocationStrategy,
      on_demand_base_capacity: m.onDemandBase,
      on_demand_percentage_above_base_capacity: m.onDemandAboveBase,
      spot_allocation_strategy: m.spotAllocationStrategy,
      spot_instance_pools: m.spotInstancePools,
      spot_max_price: '',
    }),
    launch_template: new HclBlock({
      launch_template_specification: new HclBlock({ launch_template_id: launchTemplateId, version }),
      override: m.instances.map((instance_type) => new HclBlock({ instance_type })),
    }),
  });
}
