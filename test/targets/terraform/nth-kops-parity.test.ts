import * as fs from 'node:fs';
import { KOPS_CONTROLLER_CA_FIXTURE } from '../../helpers/kops-controller-ca-fixture';
import * as path from 'node:path';
import { parse } from '@cdktf/hcl2json';
import { loadManifests } from '../../../src/api/load-manifests';
import { IamRolePolicyTask } from '../../../src/cloud/aws/tasks/iam-role-policy-task';
import { LaunchTemplateTask } from '../../../src/cloud/aws/tasks/launch-template-task';
import { SqsQueueTask } from '../../../src/cloud/aws/tasks/sqs-queue-task';
import { buildAwsTasks } from '../../../src/model/aws/aws-model-builder';
import { completeCluster } from '../../../src/ops/expand-cluster';
import { renderTerraformOutput } from '../../../src/targets/terraform/render-terraform';

// kops's kubernetes.tf and data files for its minimal-1.33 case (commit 268927e, test/fixtures/kops-addons/SOURCE.md):
// the node-termination-handler's resources, compared resource by resource with kforge's Terraform for the same manifest.
const KOPS = path.join(__dirname, '..', '..', 'fixtures', 'kops-addons', 'minimal-1.33');
const TYPES = ['aws_sqs_queue', 'aws_cloudwatch_event_rule', 'aws_cloudwatch_event_target', 'aws_autoscaling_lifecycle_hook'];
type Resources = Record<string, Record<string, Array<Record<string, unknown>>>>;

let kforgeFiles: Map<string, string>;
let kforge: Resources;
let kops: Resources;

beforeAll(async () => {
  const set = loadManifests(fs.readFileSync(path.join(KOPS, 'in-v1alpha2.yaml'), 'utf8'), 'in-v1alpha2.yaml');
  // kops finds the zone from the cluster name; kforge is told it (it changes nothing of the NTH resources).
  set.clusters[0].spec.dnsZone = 'example.com';
  const cluster = completeCluster(set.clusters[0], set.instanceGroups, 'memfs://tests');
  const tasks = buildAwsTasks(cluster, set.instanceGroups, { kopsControllerCa: KOPS_CONTROLLER_CA_FIXTURE, nodeupConfigHashes: Object.fromEntries(set.instanceGroups.map((ig) => [ig.metadata.name, '0'.repeat(64)])) });
  for (const t of tasks) if (t instanceof LaunchTemplateTask) t.useImage({ id: 'ami-0123456789abcdef0', rootDevice: '/dev/sda1' });
  for (const t of tasks) if (t instanceof SqsQueueTask) t.useAccount('123456789012');
  for (const t of tasks) if (t instanceof IamRolePolicyTask) t.useHostedZoneId('Z1AFAKE1ZON3YO');
  kforgeFiles = renderTerraformOutput(cluster.metadata.name, 'us-test-1', tasks).files;
  const resources = async (tf: string) => ((await parse('kubernetes.tf', tf)) as { resource: Resources }).resource;
  kforge = await resources(kforgeFiles.get('kubernetes.tf') as string);
  kops = await resources(fs.readFileSync(path.join(KOPS, 'kubernetes.tf'), 'utf8'));
});

/** A resource body with the references to Auto Scaling groups reduced to the instance group (kops names its groups `<ig>-masters-<cluster>` for the control plane). */
function normalized(body: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(body).replace(/aws_autoscaling_group\.([a-z0-9-]+?)(-masters)?-minimal-example-com\.id/g, 'aws_autoscaling_group.$1.id')) as Record<string, unknown>;
}

describe('the node-termination-handler in Terraform, against kops’s minimal-1.33 kubernetes.tf', () => {
  it.each(TYPES)('has kops’s %s resources, names and bodies', (type) => {
    const names = (r: Resources) => Object.keys(r[type] ?? {}).sort();
    expect(names(kforge)).toEqual(names(kops));
    expect(names(kops).length).toBeGreaterThan(0);
    for (const name of names(kops)) expect(normalized(kforge[type][name][0])).toEqual(normalized(kops[type][name][0]));
  });

  it('writes kops’s event patterns and queue policy, byte for byte (the policy in AWS’s partition where kops’s test cloud has its own)', () => {
    const data = fs.readdirSync(KOPS).filter((f) => /^aws_(cloudwatch_event_rule|sqs_queue)_/.test(f));
    expect(data.length).toBe(5);
    for (const f of data) expect(kforgeFiles.get(`data/${f}`)).toBe(fs.readFileSync(path.join(KOPS, f), 'utf8').replace('arn:aws-test:', 'arn:aws:'));
  });
});
