import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { newCluster } from '../../../src/create/new-cluster';
import { gceStartupScript } from '../../../src/model/gce/gce-startup-script';
import { renderUserData } from '../../../src/model/aws/render-user-data';
import { GcsVfs } from '../../../src/state/vfs/gcs-vfs';
import { completeCluster } from '../../../src/ops/expand-cluster';
import { issueKeypair } from '../../../src/pki/issue-keypair';
import { parseBootConfig } from '../../../src/nodeup/boot-config';
import { StatePaths } from '../../../src/state/state-paths';
import { sha256 } from '../../e2e/bootstrap-harness';
import { tempDir } from '../../helpers/cli';
import { shellcheck } from '../../helpers/shellcheck';
import { FakeGcs, startFakeGcs } from '../../fakes/fake-gcs-server';
import { FakeGceMetadata, startFakeGceMetadata } from '../../fakes/gce/fake-gce-metadata';

// The GCE boot script (metadata user-data / startup-script): the shared skeleton with GCE's parts. Its
// gs-get runs for real against the fake metadata server (the service account's token) and the fake GCS
// (which from then on accepts only tokens that server issued). The control plane reads the gs:// store; a
// worker of this cluster (no DNS, the API load balancer) names the node-identity service instead.

const NAME = 'gceboot.example.com';
const BUCKET = 'kforge-gce-boot';
const BUNDLE = Buffer.from('#!/opt/kforge/node/bin/node\nconsole.log("nodeup");\n');
const made = newCluster({ name: NAME, zones: ['us-central1-a'], cloud: 'gce' });
const completed = completeCluster(made.cluster, made.instanceGroups, `gs://${BUCKET}/team`);
const hashes = Object.fromEntries(made.instanceGroups.map((ig) => [ig.metadata.name, 'a'.repeat(64)]));
const controlPlane = made.instanceGroups.find((ig) => ig.spec.role === 'ControlPlane');
const nodes = made.instanceGroups.find((ig) => ig.spec.role === 'Node');

let gcs: FakeGcs;
let metadata: FakeGceMetadata;
let work: string;
let cp: string;
let node: string;
let controllerCa: string;
const API_ADDRESS = 'api-us-central1-gceboot-example-com.address.kforge.invalid';

beforeAll(async () => {
  controllerCa = (await issueKeypair({ subject: { commonName: 'kops-controller-ca' }, usage: 'ca', validityMs: 86400_000 })).certificatePem;
  cp = gceStartupScript(completed, controlPlane!, hashes) as string;
  node = gceStartupScript(completed, nodes!, hashes, [API_ADDRESS], controllerCa) as string;
  gcs = await startFakeGcs();
  metadata = await startFakeGceMetadata(
    { id: '1234567890123456789', name: 'nodes-abcd', zone: 'us-central1-a', internalIp: '10.0.16.5', attributes: {}, serviceAccountEmail: 'node@p.iam.gserviceaccount.com', scopes: [] },
    { id: 'p', numericId: '123456789012' },
  );
  const store = new GcsVfs(`gs://${BUCKET}/team`, { STORAGE_EMULATOR_HOST: gcs.endpoint, GOOGLE_CLOUD_PROJECT: 'p' });
  await store.createStore();
  await store.write(StatePaths.nodeupArtifact(NAME, sha256(BUNDLE)), BUNDLE);
  gcs.requireBearer((t) => metadata.issued(t));
  work = tempDir('kforge-gs-get-');
});

afterAll(async () => {
  await metadata?.stop();
  await gcs?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** The script's functions (everything before its main part), then one download with a single round. */
function download(script: string, file: string, hash: string, url: string): Promise<{ status: number; out: string }> {
  const functions = script.slice(0, script.indexOf('\n####'));
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', GCE_METADATA_HOST: metadata.host, STORAGE_EMULATOR_HOST: gcs.endpoint };
  const child = spawn('bash', ['-c', `${functions}\nROUNDS=1\ndownload ${file} ${hash} ${url}\n`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status: status ?? -1, out })));
}

describe('the GCE boot script', () => {
  it('passes shellcheck for a control-plane and a node group', () => {
    const bin = shellcheck();
    for (const [name, text] of [['control-plane.sh', cp], ['node.sh', node]]) {
      const file = path.join(work, name);
      fs.writeFileSync(file, text);
      execFileSync(bin, ['--severity=style', '--shell=bash', file], { encoding: 'utf8' });
    }
  });

  it('carries the boot config with CloudProvider gce, the nodeup bundle in the gs:// store for the control plane, and no secret', () => {
    expect(cp).toContain('CloudProvider: gce\nClusterName: gceboot.example.com\nConfigBase: gs://kforge-gce-boot/team/gceboot.example.com\n');
    expect(cp).toContain(`InstanceGroupName: ${controlPlane!.metadata.name}\nInstanceGroupRole: ControlPlane\n`);
    expect(cp).toMatch(/^NODEUP_URLS=gs:\/\/kforge-gce-boot\/team\/gceboot\.example\.com\/assets\/nodeup\/[0-9a-f]{64}\/nodeup$/m);
    for (const s of [cp, node]) expect(s).not.toMatch(/PRIVATE KEY|AWS_REGION|s3-get|169\.254\.169\.254/);
  });

  it("names no store for a worker: its boot config has the ConfigServer at the internal API address, pinned to kops-controller-ca, and nodeup comes from the service", () => {
    expect(node).not.toContain(BUCKET);
    expect(node).not.toMatch(/^ConfigBase:/m);
    const boot = parseBootConfig(node.slice(node.indexOf('CloudProvider: gce'), node.indexOf('\n__EOF', node.indexOf('CloudProvider: gce'))));
    expect(boot).toMatchObject({ CloudProvider: 'gce', ClusterName: NAME, InstanceGroupRole: 'Node', APIServerIPs: [API_ADDRESS], ConfigServer: { Servers: [`https://${API_ADDRESS}:3988`], Region: 'us-central1', CACertificates: `${controllerCa.trimEnd()}\n` } });
    expect(boot?.ConfigBase).toBeUndefined();
    expect(node).toMatch(new RegExp(`^NODEUP_URLS=https://kops-controller\\.internal\\.gceboot\\.example\\.com:3988/nodeup/[0-9a-f]{64}$`, 'm'));
    expect(node).toContain(`CONFIG_SERVER_CONNECT_TO="kops-controller.internal.${NAME}:3988:${API_ADDRESS}:3988"`);
    // Without the CA a worker's script cannot be rendered.
    expect(() => gceStartupScript(completed, nodes!, hashes, [API_ADDRESS])).toThrow(/kops-controller-ca/);
  });

  it('is the AWS user-data skeleton: everything but the cloud parts is the same text', () => {
    const aws = renderUserData({ clusterName: NAME, configBase: 's3://b/team/x', region: 'us-east-1', instanceGroup: 'cp', role: 'ControlPlane', nodeupConfigHash: 'a'.repeat(64) });
    const common = (s: string) => s.slice(s.indexOf('# Downloads to FILE'), s.indexOf('      if [[ "${url}" == '));
    expect(common(cp)).toBe(common(aws));
    expect(cp.slice(cp.indexOf('\n####'))).toBe(aws.slice(aws.indexOf('\n####')).replace('CloudProvider: aws', 'CloudProvider: gce').replace('ConfigBase: s3://b/team/x', `ConfigBase: gs://${BUCKET}/team/${NAME}`).replace('InstanceGroupName: cp\n', `InstanceGroupName: ${controlPlane!.metadata.name}\n`));
  });

  it('reads a gs:// object with the service account token from the metadata server, and checks its hash', async () => {
    const url = `gs://${BUCKET}/team/${StatePaths.nodeupArtifact(NAME, sha256(BUNDLE))}`;
    const file = path.join(work, 'nodeup');
    const r = await download(cp, file, sha256(BUNDLE), url);
    expect(r.status).toBe(0);
    expect(fs.readFileSync(file)).toEqual(BUNDLE);
    expect(metadata.requests).toContain('GET /computeMetadata/v1/instance/service-accounts/default/token');
    // The object name is one path segment (its slashes percent-encoded), as the JSON API wants.
    expect(gcs.requests.some((q) => q.method === 'GET' && q.query.alt === 'media')).toBe(true);

    const bad = await download(cp, path.join(work, 'bad'), 'b'.repeat(64), url);
    expect(bad.status).toBe(1);
    expect(bad.out).toContain('nothing was installed');
    expect(fs.existsSync(path.join(work, 'bad'))).toBe(false);
  });

  it('does not install what GCS refuses: a token the metadata server did not issue is a 401', async () => {
    gcs.requireBearer(() => false);
    try {
      const r = await download(cp, path.join(work, 'refused'), sha256(BUNDLE), `gs://${BUCKET}/team/${StatePaths.nodeupArtifact(NAME, sha256(BUNDLE))}`);
      expect(r.status).toBe(1);
      expect(r.out).toContain("with this instance's service account");
      expect(fs.existsSync(path.join(work, 'refused'))).toBe(false);
    } finally {
      gcs.requireBearer((t) => metadata.issued(t));
    }
  });
});
