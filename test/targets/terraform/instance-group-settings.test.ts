import { parse } from '@cdktf/hcl2json';
import { renderTerraformOutput } from '../../../src/targets/terraform/render-terraform';
import { caseTasks } from './terraform-case';

// The instance-group settings that reach the launch template and the Auto Scaling group render into
// `--target terraform` output with kops's attribute names (tests/integration/update_cluster/complex in kops).

type Block = Record<string, unknown>;
const CLUSTER = 'settings.example.com';

async function resources(edit: Parameters<typeof caseTasks>[1]): Promise<{ lt: Block; asg: Block }> {
  const { tasks, region } = caseTasks({ name: CLUSTER, zones: ['us-east-1a'], cloud: 'aws', dns: 'none' }, edit);
  const tf = renderTerraformOutput(CLUSTER, region, tasks).files.get('kubernetes.tf') ?? '';
  const json = (await parse('kubernetes.tf', tf)) as { resource: Record<string, Record<string, Block[]>> };
  const key = 'nodes-us-east-1a-settings-example-com';
  return { lt: json.resource.aws_launch_template[key][0], asg: json.resource.aws_autoscaling_group[key][0] };
}

it('renders each setting where kops renders it', async () => {
  const key = 'arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
  const { lt, asg } = await resources(({ instanceGroups }) => {
    const ig = instanceGroups.find((g) => g.spec.role === 'Node');
    Object.assign(ig?.spec ?? {}, {
      cpuCredits: 'standard',
      detailedInstanceMonitoring: true,
      tenancy: 'dedicated',
      additionalSecurityGroups: ['sg-0abc', 'sg-0def'],
      rootVolumeEncryptionKey: key,
      maxInstanceLifetime: '168h',
      suspendProcesses: ['AZRebalance'],
      instanceProtection: true,
      capacityRebalance: true,
    });
  });
  expect(lt.credit_specification).toEqual([{ cpu_credits: 'standard' }]);
  expect(lt.monitoring).toEqual([{ enabled: true }]);
  expect(lt.placement).toEqual([{ tenancy: 'dedicated' }]);
  expect(lt.vpc_security_group_ids).toEqual(['${aws_security_group.nodes-settings-example-com.id}', 'sg-0abc', 'sg-0def']);
  expect((lt.block_device_mappings as Array<{ ebs: Block[] }>)[0].ebs[0].kms_key_id).toBe(key);
  expect((lt.tag_specifications as Block[]).map((t) => t.resource_type)).toEqual(['instance', 'network-interface', 'volume']);
  expect(asg).toMatchObject({ max_instance_lifetime: 604800, suspended_processes: ['AZRebalance'], protect_from_scale_in: true, capacity_rebalance: true, metrics_granularity: '1Minute' });
});

it('leaves the optional blocks out when nothing is set, as kops does, and keeps monitoring off', async () => {
  const { lt, asg } = await resources(() => {});
  expect(lt.credit_specification).toBeUndefined();
  expect(lt.placement).toBeUndefined();
  expect(lt.monitoring).toEqual([{ enabled: false }]);
  expect(asg).toMatchObject({ max_instance_lifetime: 0, protect_from_scale_in: false });
  expect(asg.capacity_rebalance).toBeUndefined();
  expect(asg.suspended_processes).toBeUndefined();
});
