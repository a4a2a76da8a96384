import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from '@cdktf/hcl2json';
import type { Cluster, InstanceGroup } from '../../../src/api/types';
import { loadManifests } from '../../../src/api/load-manifests';
import { buildGceTasks } from '../../../src/model/gce/gce-model-builder';
import { GceNames } from '../../../src/model/gce/gce-names';
import { completeCluster } from '../../../src/ops/expand-cluster';
import { TerraformWriter } from '../../../src/targets/terraform/terraform-writer';
import { dropRefusedAddonFields } from '../../helpers/kops-addon-case';

// kops's own Terraform for its GCE cases (test/fixtures/kops-gce/SOURCE.md: kops commit 268927e2).
const FIXTURES = path.join(__dirname, '../../fixtures/kops-gce');
const CASES = ['minimal_gce', 'ha_gce', 'minimal_gce_private', 'minimal_gce_ilb', 'minimal_gce_plb', 'minimal_gce_dns-none', 'many-addons-gce', 'minimal_gce_longclustername'];

// The google_* resource types the GCE model builds so far; the test checks kops's resources of these types one by one.
// kops's test SSH key input; the startup script itself is compared by key only (its content is kforge's own).
const INPUTS = { sshPublicKey: { publicKey: fs.readFileSync(path.join(FIXTURES, 'id_rsa.pub'), 'utf8').trim() }, userData: () => '#!/bin/bash\n' };

const BUILT = ['google_compute_address', 'google_compute_forwarding_rule', 'google_compute_http_health_check', 'google_compute_region_backend_service', 'google_compute_region_health_check', 'google_compute_target_pool', 'google_compute_disk', 'google_project_iam_binding', 'google_service_account', 'google_compute_firewall', 'google_compute_instance_group_manager', 'google_compute_instance_template', 'google_compute_network', 'google_compute_router', 'google_compute_router_nat', 'google_compute_subnetwork'];

type Block = Record<string, unknown>;
type Resources = Record<string, Record<string, Block[]>>;

/** kops's input, completed by kforge. kforge supports Kubernetes 1.33+, so kops's 1.32 inputs are moved to 1.33 (no field compared here depends on it). */
function completedInput(c: string): { cluster: Cluster; instanceGroups: InstanceGroup[] } {
  const text = fs.readFileSync(path.join(FIXTURES, c, 'in-v1alpha2.yaml'), 'utf8').replace(/kubernetesVersion: v?1\.32\.\d+/, 'kubernetesVersion: v1.33.0');
  // minimal_gce_plb sets fields kops's own API ignores (etcd volumes at cluster level, rootVolume): kforge's schema refuses them.
  const known = text.replace(/^ {2}rootVolume:\n( {4}.*\n)+/gm, '').replace(/^ {6}(volumeIops|volumeSize|volumeThroughput): .*\n/gm, '').replace(/^ {6}type: hyperdisk-balanced\n/gm, '');
  const set = loadManifests(known, `${c}/in-v1alpha2.yaml`);
  // Addons kforge refuses (cluster-autoscaler, cert-manager) change nothing in the GCE model compared here.
  dropRefusedAddonFields(set.clusters[0]);
  return { cluster: completeCluster(set.clusters[0], set.instanceGroups, 'memfs://tests'), instanceGroups: set.instanceGroups };
}

async function resourcesOf(tf: string): Promise<Resources> {
  return ((await parse('kubernetes.tf', tf)) as { resource: Resources }).resource;
}

/** The resources of the built types, by type and then name. */
function builtOnly(r: Resources): Resources {
  return Object.fromEntries(BUILT.map((t) => [t, r[t] ?? {}]));
}

const sorted = (xs: unknown): unknown => (Array.isArray(xs) ? [...(xs as string[])].sort() : xs);

/** What the conformance compares of each resource: kops's fields that the model decides. */
function comparable(type: string, b: Block): Block {
  switch (type) {
    case 'google_compute_firewall':
      return {
        allow: ((b.allow as Block[] | undefined) ?? []).map((a) => `${a.protocol as string}${a.ports ? `:${(a.ports as string[]).join(',')}` : ''}`),
        disabled: b.disabled,
        source_ranges: sorted(b.source_ranges),
        source_tags: sorted(b.source_tags),
        target_tags: sorted(b.target_tags),
      };
    case 'google_compute_disk':
      return { labels: b.labels, name: b.name, size: b.size, type: b.type, zone: b.zone };
    case 'google_compute_subnetwork':
      return { ip_cidr_range: b.ip_cidr_range, name: b.name, region: b.region, secondary_ip_range: b.secondary_ip_range, stack_type: b.stack_type };
    case 'google_compute_instance_template': {
      const disk = (b.disk as Block[])[0];
      const sa = (b.service_account as Block[])[0];
      const nic = (b.network_interface as Block[])[0];
      const sched = (b.scheduling as Block[])[0];
      // kops's own labels (cloudLabels are sanitised by kforge: docs/differences-from-kops.md).
      const labels = Object.fromEntries(Object.entries((b.labels as Record<string, string>) ?? {}).filter(([k]) => k.startsWith('k8s-io-')));
      return {
        can_ip_forward: b.can_ip_forward,
        disk: { size: disk.disk_size_gb, type: disk.disk_type, image: disk.source_image, boot: disk.boot },
        external_ip: nic.access_config !== undefined,
        labels,
        machine_type: b.machine_type,
        metadata_keys: Object.keys((b.metadata as Block) ?? {}).sort(),
        name_prefix: b.name_prefix,
        preemptible: sched.preemptible,
        provisioning_model: sched.provisioning_model,
        scopes: sorted(sa.scopes),
        email: sa.email,
        tags: sorted(b.tags),
      };
    }
    case 'google_compute_instance_group_manager':
      return { base_instance_name: b.base_instance_name, name: b.name, target_size: b.target_size, target_pools: b.target_pools, zone: b.zone, template: ((b.version as Block[])[0].instance_template as string).replace(/^\$\{(.*)\}$/, '$1') };
    case 'google_compute_router':
      return { name: b.name };
    case 'google_compute_router_nat':
      return { name: b.name, nat_ip_allocate_option: b.nat_ip_allocate_option, region: b.region, router: b.router, subnetworks: ((b.subnetwork as Block[]) ?? []).map((x) => x.name), source: b.source_subnetwork_ip_ranges_to_nat };
    case 'google_compute_address':
      return { address_type: b.address_type, name: b.name, purpose: b.purpose, subnetwork: b.subnetwork };
    case 'google_compute_forwarding_rule':
      return { backend_service: b.backend_service, ip_address: b.ip_address, labels: b.labels, scheme: b.load_balancing_scheme, port_range: b.port_range, ports: b.ports, target: b.target, subnetwork: b.subnetwork };
    case 'google_compute_region_backend_service':
      return { backend: b.backend, health_checks: b.health_checks, scheme: b.load_balancing_scheme, protocol: b.protocol };
    case 'google_compute_region_health_check':
      return { tcp: b.tcp_health_check };
    case 'google_compute_http_health_check':
      return { port: b.port, request_path: b.request_path };
    case 'google_compute_target_pool':
      return { health_checks: b.health_checks };
    case 'google_service_account':
      return { account_id: b.account_id, description: b.description, display_name: b.display_name, project: b.project };
    case 'google_project_iam_binding':
      return { members: b.members, project: b.project, role: b.role };
    default:
      return { auto_create_subnetworks: b.auto_create_subnetworks, name: b.name };
  }
}

describe('kops GCE conformance: kforge builds what kops renders', () => {
  it.each(CASES)('%s: network, NAT, firewall rules, disks, service accounts, templates, MIGs and the API load balancer match kops\'s kubernetes.tf', async (c) => {
    const all = await resourcesOf(fs.readFileSync(path.join(FIXTURES, c, 'kubernetes.tf'), 'utf8'));
    // Every Google resource type kops renders is one kforge builds (and so compared below, count by count).
    expect(Object.keys(all).filter((t) => t.startsWith('google_') && !BUILT.includes(t))).toEqual([]);
    const kops = builtOnly(all);
    const { cluster, instanceGroups } = completedInput(c);
    const writer = new TerraformWriter('us-test1');
    writer.renderTasks(buildGceTasks(cluster, instanceGroups, INPUTS));
    expect(Object.keys(kops.google_compute_firewall).length).toBeGreaterThanOrEqual(10);
    const ours = builtOnly(await resourcesOf(writer.files().get('kubernetes.tf') ?? ''));
    for (const type of BUILT) {
      // Names and counts first, then each resource's fields.
      expect({ type, names: Object.keys(ours[type]).sort() }).toEqual({ type, names: Object.keys(kops[type]).sort() });
      for (const name of Object.keys(kops[type])) {
        expect({ type, name, ...comparable(type, ours[type][name][0]) }).toEqual({ type, name, ...comparable(type, kops[type][name][0]) });
      }
    }
  });

  it('DNS cases pre-create kops\'s placeholder records at update; like kops\'s kubernetes.tf, the Terraform output has no google_dns_record_set', async () => {
    for (const c of CASES) {
      const { cluster, instanceGroups } = completedInput(c);
      const tasks = buildGceTasks(cluster, instanceGroups, INPUTS);
      const records = tasks.filter((t) => t.kind === 'DNSRecord').map((t) => t.name).sort();
      const name = cluster.metadata.name;
      const dns = cluster.spec.topology?.dns?.type !== 'None';
      const internalByLb = cluster.spec.api?.loadBalancer?.useForInternalApi === true;
      // kops's buildPrecreateDNSHostnames: api (a placeholder without a load balancer; with one kforge points it at the load
      // balancer), api.internal unless the load balancer serves it (minimal_gce_ilb), kops-controller.internal.
      expect({ c, records }).toEqual({ c, records: dns ? [`api.${name}`, ...(internalByLb ? [] : [`api.internal.${name}`]), `kops-controller.internal.${name}`].sort() : [] });
      const writer = new TerraformWriter('us-test1');
      writer.renderTasks(tasks);
      const kops = fs.readFileSync(path.join(FIXTURES, c, 'kubernetes.tf'), 'utf8');
      expect({ c, ours: /google_dns_/.test(writer.files().get('kubernetes.tf') ?? ''), kops: /google_dns_/.test(kops) }).toEqual({ c, ours: false, kops: false });
    }
  });

  it('every reference in the rendered output resolves to a rendered resource', async () => {
    for (const c of CASES) {
      const { cluster, instanceGroups } = completedInput(c);
      const writer = new TerraformWriter('us-test1');
      writer.renderTasks(buildGceTasks(cluster, instanceGroups, INPUTS));
      const tf = writer.files().get('kubernetes.tf') ?? '';
      const resources = await resourcesOf(tf);
      const addresses = new Set(Object.entries(resources).flatMap(([type, byName]) => Object.keys(byName).map((n) => `${type}.${n}`)));
      const refs = [...tf.matchAll(/\b(google_[a-z_]+)\.([A-Za-z0-9_-]+)\.[a-z_]+/g)].map((m) => `${m[1]}.${m[2]}`);
      expect({ c, missing: refs.filter((r) => !addresses.has(r)) }).toEqual({ c, missing: [] });
      expect(refs.length).toBeGreaterThan(0);
    }
  });

  it("gives the PD CSI driver's controller the access kops gives it: the control plane's compute scope, the same with the driver on or off", async () => {
    // The controller (gcp-pd-csi-driver addon, on the control plane) manages disks as the instance's service account.
    const scopesByRole = async (c: string): Promise<Record<string, unknown>> => {
      const tf = await resourcesOf(fs.readFileSync(path.join(FIXTURES, c, 'kubernetes.tf'), 'utf8'));
      const templates = Object.values(tf.google_compute_instance_template).map((b) => b[0]);
      return Object.fromEntries(templates.map((b) => [(b.tags as string[]).some((t) => t.endsWith('-k8s-io-role-control-plane')) ? 'control-plane' : 'node', sorted((b.service_account as Block[])[0].scopes)]));
    };
    const driverOn = CASES.filter((c) => completedInput(c).cluster.spec.cloudConfig?.gcpPDCSIDriver?.enabled === true);
    expect(CASES.filter((c) => !driverOn.includes(c))).toEqual(['minimal_gce']);
    const off = await scopesByRole('minimal_gce');
    expect(off['control-plane']).toContain('https://www.googleapis.com/auth/compute');
    for (const c of driverOn) expect({ c, scopes: await scopesByRole(c) }).toEqual({ c, scopes: off });
  });

  it('names as kops: dots to dashes, and long names truncated with kops\'s FNV hash', () => {
    // kops's instance template prefix in minimal_gce: LimitedLengthName("master-us-test1-a-minimal-gce-example-com", 32).
    expect(GceNames.truncate('master-us-test1-a-minimal-gce-example-com', 32)).toBe('master-us-test1-a-minimal-do16cp');
    expect(GceNames.tagForRole('minimal-gce.example.com', 'node')).toBe('minimal-gce-example-com-k8s-io-role-node');
    expect(GceNames.encodeLabel('a/a')).toBe('a-2fa');
  });
});
