import { AutoScalingGroupTask } from '../../cloud/aws/tasks/auto-scaling-group-task';
import type { SharedTerraformValue } from '../../cloud/aws/tasks/shared-resource';
import type { AnyTask } from '../../tasks/task';
import { HclExpression, HclValue } from '../../tasks/terraform-target';
import type { TerraformWriter } from './terraform-writer';

/** The role an Auto Scaling group's tags give it (`k8s.io/role/<role>=1`, set by the instance group model builder). */
function asgRole(task: AnyTask): 'master' | 'node' | 'bastion' | undefined {
  if (!(task instanceof AutoScalingGroupTask)) return undefined;
  const tags = task.desired.tags;
  if (tags['k8s.io/role/control-plane'] === '1' || tags['k8s.io/role/master'] === '1') return 'master';
  if (tags['k8s.io/role/bastion'] === '1') return 'bastion';
  if (tags['k8s.io/role/node'] === '1') return 'node';
  return undefined;
}

/**
 * kops's outputs (also written as locals of the same names), so that downstream Terraform that reads a kops
 * cluster's outputs keeps working: cluster_name, region, vpc_id, vpc_cidr_block, subnet_<name>_id, subnet_ids (shared subnets only),
 * node_subnet_ids, route_table_public_id, route_table_private-<zone>_id, <role>_security_group_ids,
 * <role>_autoscaling_group_ids, masters_role_arn/_name, bastions_role_arn/_name and, when the nodes have one
 * role, nodes_role_arn/_name (kforge gives each node group its own role, listed in node_role_arns/_names).
 */
export function addKopsOutputs(writer: TerraformWriter, cluster: string, region: string, tasks: readonly AnyTask[]): void {
  const ref = (task: AnyTask, attribute: string): HclExpression => writer.reference(task, attribute);
  const list = (items: readonly AnyTask[], attribute: string): HclValue => items.map((t) => ref(t, attribute));
  const byName = (a: AnyTask, b: AnyTask): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const of = (kind: string): AnyTask[] => tasks.filter((t) => t.kind === kind).sort(byName);
  const short = (name: string): string => (name.endsWith(`.${cluster}`) ? name.slice(0, -cluster.length - 1) : name);

  writer.addOutput('cluster_name', cluster);
  writer.addOutput('region', region);
  const vpc = of('VPC')[0];
  if (vpc) {
    writer.addOutput('vpc_id', ref(vpc, 'id'));
    writer.addOutput('vpc_cidr_block', ref(vpc, 'cidr_block'));
  }
  const subnets = of('Subnet');
  // `subnet_ids` as kops writes it: only the shared subnets (which Terraform does not own), by their literal ids.
  const shared = subnets.filter((s) => (s as AnyTask & Partial<SharedTerraformValue>).terraformValue?.('id') !== undefined);
  if (shared.length > 0) writer.addOutput('subnet_ids', list(shared, 'id'));
  for (const s of subnets) writer.addOutput(`subnet_${short(s.name)}_id`, ref(s, 'id'));
  for (const rt of of('RouteTable')) writer.addOutput(rt.name === cluster ? 'route_table_public_id' : `route_table_${short(rt.name)}_id`, ref(rt, 'id'));

  const groups = of('SecurityGroup');
  for (const [prefix, output] of [['masters', 'master'], ['nodes', 'node'], ['bastion', 'bastion']] as const) {
    const g = groups.filter((x) => x.name === `${prefix}.${cluster}`);
    if (g.length > 0) writer.addOutput(`${output}_security_group_ids`, list(g, 'id'));
  }
  const asgs = of('AutoScalingGroup');
  for (const role of ['master', 'node', 'bastion'] as const) {
    const g = asgs.filter((a) => asgRole(a) === role);
    if (g.length > 0) writer.addOutput(`${role}_autoscaling_group_ids`, list(g, 'id'));
  }
  const nodeAsgs = asgs.filter((a) => asgRole(a) === 'node');
  const nodeSubnets = subnets.filter((s) => nodeAsgs.some((a) => a instanceof AutoScalingGroupTask && (a.desired.subnets as readonly AnyTask[]).includes(s)));
  if (nodeSubnets.length > 0) writer.addOutput('node_subnet_ids', list(nodeSubnets, 'id'));

  const roles = of('IAMRole');
  const masters = roles.find((r) => r.name.startsWith('masters.'));
  if (masters) {
    writer.addOutput('masters_role_arn', ref(masters, 'arn'));
    writer.addOutput('masters_role_name', ref(masters, 'name'));
  }
  const bastions = roles.find((r) => r.name.startsWith('bastions.') || r.name.startsWith('bastion.'));
  if (bastions) {
    writer.addOutput('bastions_role_arn', ref(bastions, 'arn'));
    writer.addOutput('bastions_role_name', ref(bastions, 'name'));
  }
  const nodes = roles.filter((r) => r.name.startsWith('nodes'));
  if (nodes.length > 0) {
    writer.addOutput('node_role_arns', list(nodes, 'arn'));
    writer.addOutput('node_role_names', list(nodes, 'name'));
  }
  if (nodes.length === 1) {
    writer.addOutput('nodes_role_arn', ref(nodes[0], 'arn'));
    writer.addOutput('nodes_role_name', ref(nodes[0], 'name'));
  }
}
