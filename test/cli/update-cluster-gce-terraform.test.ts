import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from '@cdktf/hcl2json';
import { CliResult, runCli, tempDir } from '../helpers/cli';

// `create cluster --cloud gce` then `update cluster --target terraform`, as users run them, with a local
// store: the Google provider's resources are written, formatted as `terraform fmt` wants, every reference
// resolves (direct apply: update-cluster-gce-direct.test.ts).

const NAME = 'gce.example.com';
let home: string;
let store: string;

beforeAll(() => {
  home = tempDir('kforge-gce-tf-');
  store = `file://${path.join(home, 'store')}`;
  fs.mkdirSync(path.join(home, 'store'));
});

afterAll(() => {
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

const kforge = (args: string[]): CliResult => runCli([...args, '--state', store], { env: { HOME: home, KFORGE_ALLOW_LOCAL_STATE_FOR_NODES: 'test-only' } });

type Resources = Record<string, Record<string, Array<Record<string, unknown>>>>;

it('renders a GCE cluster as Terraform with the Google provider: network, NAT-less public subnet, firewall rules, templates, MIGs, disks', async () => {
  expect(kforge(['create', 'cluster', NAME, '--cloud', 'gce', '--zones', 'us-central1-a', '--set', 'spec.project=p']).status).toBe(0);
  const out = path.join(home, 'tf');
  const r = kforge(['update', 'cluster', NAME, '--target', 'terraform', '--out', out]);
  expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: expect.not.stringContaining('Error') });
  // No Google API call: the Terraform target needs none, and the summary names the right cloud.
  expect(r.stderr).toContain('GCE API: 0 calls');
  const tf = fs.readFileSync(path.join(out, 'kubernetes.tf'), 'utf8');
  const json = (await parse('kubernetes.tf', tf)) as { resource: Resources; provider: Record<string, Array<Record<string, unknown>>>; output: Record<string, unknown> };
  expect(json.provider.google[0]).toEqual({ project: 'p', region: 'us-central1' });
  expect(Object.keys(json.output).sort()).toEqual(['cluster_name', 'project', 'region']);
  const count = (type: string): number => Object.keys(json.resource[type] ?? {}).length;
  expect({ network: count('google_compute_network'), subnetwork: count('google_compute_subnetwork'), templates: count('google_compute_instance_template'), migs: count('google_compute_instance_group_manager'), disks: count('google_compute_disk') }).toEqual({ network: 1, subnetwork: 1, templates: 2, migs: 2, disks: 2 });
  expect(Object.keys(json.resource.google_compute_firewall)).toEqual(expect.arrayContaining(['node-to-node-gce-example-com', 'master-to-node-gce-example-com', 'ssh-external-to-node-ipv6-gce-example-com']));
  // Every google_* reference names a rendered resource.
  const addresses = new Set(Object.entries(json.resource).flatMap(([type, byName]) => Object.keys(byName).map((n) => `${type}.${n}`)));
  const refs = [...tf.matchAll(/\b(google_[a-z_]+)\.([A-Za-z0-9_-]+)\.[a-z_]+/g)].map((m) => `${m[1]}.${m[2]}`);
  expect(refs.length).toBeGreaterThan(0);
  expect(refs.filter((x) => !addresses.has(x))).toEqual([]);
  // No AWS resource in a GCE cluster's output.
  expect(Object.keys(json.resource).filter((t) => !t.startsWith('google_'))).toEqual([]);
  expect(spawnSync('terraform', ['version']).status).toBe(0);
  const fmt = spawnSync('terraform', ['fmt', '-check', '-recursive', out], { encoding: 'utf8' });
  expect({ status: fmt.status, stdout: fmt.stdout }).toEqual({ status: 0, stdout: '' });
});

it('without DNS, the workers\' boot script gets the internal API address from Terraform (replace() of its placeholder), the control plane\'s does not', async () => {
  const name = 'tf-dns-none.example.com';
  expect(kforge(['create', 'cluster', name, '--cloud', 'gce', '--zones', 'us-central1-a', '--set', 'spec.project=p', '--dns', 'none']).status).toBe(0);
  const out = path.join(home, 'tf-dns-none');
  const r = kforge(['update', 'cluster', name, '--target', 'terraform', '--out', out]);
  expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: expect.not.stringContaining('Error') });
  const tf = fs.readFileSync(path.join(out, 'kubernetes.tf'), 'utf8');
  const json = (await parse('kubernetes.tf', tf)) as { resource: Resources };
  const templates = json.resource.google_compute_instance_template;
  const address = Object.keys(json.resource.google_compute_address).find((a) => (json.resource.google_compute_address[a][0] as { address_type?: string }).address_type === 'INTERNAL');
  expect(address).toBeDefined();
  const nodes = (templates['nodes-us-central1-a-tf-dns-none-example-com'][0] as { metadata: Record<string, string> }).metadata['user-data'];
  const cp = (templates['control-plane-us-central1-a-tf-dns-none-example-com'][0] as { metadata: Record<string, string> }).metadata['user-data'];
  const placeholder = `${address as string}.address.kforge.invalid`;
  expect(nodes).toBe(`\${replace(file("\${path.module}/data/google_compute_instance_template_nodes-us-central1-a-tf-dns-none-example-com_metadata_user-data"), "${placeholder}", google_compute_address.${address as string}.address)}`);
  expect(cp).not.toContain('replace(');
  const data = fs.readFileSync(path.join(out, 'data', 'google_compute_instance_template_nodes-us-central1-a-tf-dns-none-example-com_metadata_user-data'), 'utf8');
  expect(data).toContain(`APIServerIPs:\n- ${placeholder}\n`);
  // The worker reaches the node-identity service at the same address (kops's ConfigServer), and names no store.
  expect(data).toContain(`  Servers:\n  - https://${placeholder}:3988\n`);
  expect(data).toContain(`CONFIG_SERVER_CONNECT_TO="kops-controller.internal.${name}:3988:${placeholder}:3988"`);
  expect(data).not.toContain('ConfigBase:');
  const fmt = spawnSync('terraform', ['fmt', '-check', '-recursive', out], { encoding: 'utf8' });
  expect({ status: fmt.status, stdout: fmt.stdout }).toEqual({ status: 0, stdout: '' });
});
