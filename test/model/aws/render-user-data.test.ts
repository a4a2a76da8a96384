import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { newCluster } from '../../../src/create/new-cluster';
import { normalizedRole } from '../../../src/expand/expand-context';
import { renderUserData } from '../../../src/model/aws/render-user-data';
import { NodeupArtifacts, nodeupArtifacts, builtNodeupArtifact, nodeupInStateStore } from '../../../src/model/nodeup-artifacts';
import { derivedFiles, completeCluster } from '../../../src/ops/expand-cluster';
import { StatePaths } from '../../../src/state/state-paths';
import { expectGolden } from '../../helpers/golden';
import { KOPS_CONTROLLER_CA_FIXTURE } from '../../helpers/kops-controller-ca-fixture';
import { configServerUrl } from '../../../src/model/config-server';
import { isControlPlane } from '../../../src/expand/expand-context';

/** shellcheck's path, installed with apt when missing (the test harness's rule for apt tools). */
function shellcheck(): string {
  const found = spawnSync('sh', ['-c', 'command -v shellcheck'], { encoding: 'utf8' }).stdout.trim();
  if (found) return found;
  const install = spawnSync('sh', ['-c', 'apt-get install -y --no-install-recommends shellcheck || (apt-get update && apt-get install -y --no-install-recommends shellcheck)'], { encoding: 'utf8' });
  const after = spawnSync('sh', ['-c', 'command -v shellcheck'], { encoding: 'utf8' }).stdout.trim();
  if (!after) throw new Error(`shellcheck is not installed and apt-get could not install it (status ${install.status}):\n${install.stderr.slice(-2000)}`);
  return after;
}

const NAME = 'userdata.example.com';

const CONTROLLER_CA = KOPS_CONTROLLER_CA_FIXTURE;

/** Fixed downloads for the golden files: they pin the script, not this build's nodeup hash (which changes with every source change). */
const FIXED: NodeupArtifacts = {
  runtime: {
    amd64: { sha256: '1'.repeat(64), urls: ['https://nodejs.org/dist/v24.15.0/node-v24.15.0-linux-x64.tar.xz', 'https://nodejs.org/download/release/v24.15.0/node-v24.15.0-linux-x64.tar.xz'] },
    arm64: { sha256: '2'.repeat(64), urls: ['https://nodejs.org/dist/v24.15.0/node-v24.15.0-linux-arm64.tar.xz'] },
  },
  nodeup: { sha256: '3'.repeat(64), urls: [`s3://kforge-state/team/${NAME}/assets/nodeup/${'3'.repeat(64)}/nodeup`] },
};

/** The user-data of every instance group of a new three-zone cluster, with the real nodeup config hashes or `fixedHash`. */
function userData(fixedHash?: string, artifacts?: NodeupArtifacts): Map<string, string> {
  const { cluster, instanceGroups } = newCluster({ name: NAME, zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'], dnsZone: 'example.com' });
  const completed = completeCluster(cluster, instanceGroups, 's3://kforge-state/team');
  const files = derivedFiles(completed, instanceGroups);
  const out = new Map<string, string>();
  for (const ig of instanceGroups) {
    const config = files.get(StatePaths.nodeupConfig(NAME, normalizedRole(ig), ig.metadata.name)) as string;
    out.set(
      ig.metadata.name,
      renderUserData({
        clusterName: NAME,
        configBase: completed.spec.configBase as string,
        region: 'us-east-1',
        instanceGroup: ig.metadata.name,
        role: normalizedRole(ig),
        nodeupConfigHash: fixedHash ?? createHash('sha256').update(config).digest('hex'),
        artifacts,
        // As the instance-group builder: workers of an AWS cluster with DNS name the node-identity service.
        ...(isControlPlane(ig) ? {} : { configServer: { servers: [configServerUrl(NAME)], caCertificates: CONTROLLER_CA } }),
      }),
    );
  }
  return out;
}

describe('user-data', () => {
  const all = userData();
  const controlPlane = all.get('control-plane-us-east-1a') as string;
  const node = all.get('nodes-us-east-1a') as string;

  it('passes shellcheck for a control-plane and a node group', () => {
    const bin = shellcheck();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kforge-userdata-'));
    try {
      for (const [name, text] of [['control-plane.sh', controlPlane], ['node.sh', node]]) {
        const file = path.join(dir, name);
        fs.writeFileSync(file, text);
        // Throws with shellcheck's findings on any warning (exit status 1).
        execFileSync(bin, ['--severity=style', '--shell=bash', file], { encoding: 'utf8' });
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is small and carries no secret: only the boot config and the downloads’ URLs and hashes', () => {
    for (const text of [controlPlane, node]) {
      expect(Buffer.byteLength(text)).toBeLessThan(16 * 1024);
      expect(text).not.toContain('PRIVATE KEY');
      expect(text).not.toMatch(/AWS_SECRET_ACCESS_KEY|aws_secret|BEGIN [A-Z ]*KEY/i);
    }
    expect(controlPlane).toContain('InstanceGroupRole: ControlPlane\n');
    expect(node).toContain('InstanceGroupRole: Node\n');
    expect(controlPlane).toContain(`ConfigBase: s3://kforge-state/team/${NAME}\n`);
    // A worker's user-data names no state-store location: the service, pinned to kops-controller-ca (public).
    expect(node).not.toMatch(/^ConfigBase:/m);
    expect(node).not.toContain('s3://kforge-state');
    expect(node).toContain(`ConfigServer:\n  CACertificates: |\n    -----BEGIN CERTIFICATE-----\n`);
    expect(node).toContain(`  Region: us-east-1\n  Servers:\n  - https://kops-controller.internal.${NAME}:3988\n`);
    expect(controlPlane).not.toContain('BEGIN CERTIFICATE');
    expect(node).toMatch(/^NodeupConfigHash: [0-9a-f]{64}$/m);
    expect(node).not.toMatch(/\{\{/);
  });

  it('renders the same bytes as the golden files', () => {
    // A fixed hash: the golden pins the script, not the nodeup config (its own goldens pin that).
    const fixed = userData('ab'.repeat(32), FIXED);
    expectGolden('user-data/control-plane.sh', fixed.get('control-plane-us-east-1a') as string);
    expectGolden('user-data/node.sh', fixed.get('nodes-us-east-1a') as string);
  });

  it("carries the pinned Node.js runtime's published hashes and this build's nodeup bundle, read from the s3:// state store", () => {
    const built = builtNodeupArtifact();
    expect(createHash('sha256').update(fs.readFileSync(built.path)).digest('hex')).toBe(built.sha256);
    expect(node).toContain(`NODEUP_HASH=${built.sha256}\n`);
    expect(controlPlane).toContain(`NODEUP_URLS=s3://kforge-state/team/${NAME}/assets/nodeup/${built.sha256}/nodeup\n`);
    // A worker downloads the same bundle from the node-identity service (GET /nodeup/<sha256>).
    expect(node).toContain(`NODEUP_URLS=https://kops-controller.internal.${NAME}:3988/nodeup/${built.sha256}\n`);
    expect(`team/${StatePaths.nodeupArtifact(NAME, built.sha256)}`).toBe(`team/${NAME}/assets/nodeup/${built.sha256}/nodeup`);
    expect(node).toContain('NODE_HASH_AMD64=472655581fb851559730c48763e0c9d3bc25975c59d518003fc0849d3e4ba0f6\n');
    expect(node).toContain(
      'NODE_URLS_AMD64=https://nodejs.org/dist/v24.15.0/node-v24.15.0-linux-x64.tar.xz,https://nodejs.org/download/release/v24.15.0/node-v24.15.0-linux-x64.tar.xz\n',
    );
    expect(node).toContain('NODE_HASH_ARM64=f3d5a797b5d210ce8e2cb265544c8e482eaedcb8aa409a8b46da7e8595d0dda0\n');
    expect(node).toMatch(/^"\$\{INSTALL_DIR\}\/bin\/nodeup" --conf=\S+ --assets --install-systemd-unit$/m);
  });

  it('moves every download onto spec.assets.fileRepository, path kept, and takes sha256@url overrides from the environment', () => {
    // A file repository or KFORGE_NODEUP overrides the state store, even with an s3:// configBase.
    const a = nodeupArtifacts('http://mirror.internal:8080/files/', {}, undefined, 's3://kforge-state/team/c.example.com');
    expect(a.runtime.amd64.urls).toEqual(['http://mirror.internal:8080/files/dist/v24.15.0/node-v24.15.0-linux-x64.tar.xz']);
    expect(a.nodeup.urls).toEqual(['http://mirror.internal:8080/files/kforge/0.1.0/nodeup']);
    const o = nodeupArtifacts(undefined, { KFORGE_NODE_RUNTIME_AMD64: `${'c'.repeat(64)}@http://127.0.0.1:1/node.tar.xz`, KFORGE_NODEUP: `${'d'.repeat(64)}@http://127.0.0.1:1/nodeup` }, undefined, 's3://kforge-state/team/c.example.com');
    expect(o.runtime.amd64).toEqual({ sha256: 'c'.repeat(64), urls: ['http://127.0.0.1:1/node.tar.xz'] });
    expect(o.nodeup).toEqual({ sha256: 'd'.repeat(64), urls: ['http://127.0.0.1:1/nodeup'] });
    expect(nodeupArtifacts(undefined, { KFORGE_NODEUP: `${'d'.repeat(64)}@http://a.test/nodeup,https://b.test/nodeup` }).nodeup.urls).toEqual(['http://a.test/nodeup', 'https://b.test/nodeup']);
    expect(() => nodeupArtifacts(undefined, { KFORGE_NODEUP: 'http://127.0.0.1:1/nodeup' })).toThrow(expect.objectContaining({ code: 'INVALID_NODEUP_ARTIFACT', message: expect.stringContaining('KFORGE_NODEUP') }));
  });

  it('names no state-store object where user-data cannot read one: a store that is not s3:// keeps the published path', () => {
    expect(nodeupArtifacts(undefined, {}, undefined, 'gs://kforge-state/c.example.com').nodeup.urls).toEqual(['https://artifacts.kforge.invalid/kforge/0.1.0/nodeup']);
    expect(nodeupInStateStore('c.example.com', 'gs://kforge-state/c.example.com', undefined, {})).toBeUndefined();
    expect(nodeupInStateStore('c.example.com', 's3://kforge-state/c.example.com', 'https://mirror.example.com/', {})).toBeUndefined();
    expect(nodeupInStateStore('c.example.com', 's3://kforge-state/c.example.com', undefined, {})).toEqual(expect.objectContaining({ key: `c.example.com/assets/nodeup/${builtNodeupArtifact().sha256}/nodeup` }));
  });

  it('parses back: the boot config a worker writes is one nodeup reads as a ConfigServer boot config', async () => {
    const { parseBootConfig } = await import('../../../src/nodeup/boot-config');
    const text = node.slice(node.indexOf("<< '__EOF_KUBE_ENV'\n") + 20, node.indexOf('__EOF_KUBE_ENV\n\n'));
    expect(parseBootConfig(text)).toEqual({
      CloudProvider: 'aws',
      ClusterName: NAME,
      ConfigServer: { CACertificates: `${CONTROLLER_CA.trimEnd()}\n`, Region: 'us-east-1', Servers: [configServerUrl(NAME)] },
      InstanceGroupName: 'nodes-us-east-1a',
      InstanceGroupRole: 'Node',
      NodeupConfigHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('refuses a value that would need quoting in the script', () => {
    expect(() =>
      renderUserData({ clusterName: NAME, configBase: 's3://b/x', region: 'us-east-1', instanceGroup: 'a', role: 'Node', nodeupConfigHash: '0'.repeat(64), configServer: { servers: ['https://x:1'], caCertificates: "-----BEGIN CERTIFICATE-----\n'$(reboot)\n-----END CERTIFICATE-----\n" } }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_USER_DATA_VALUE' }));
    expect(() =>
      renderUserData({ clusterName: NAME, configBase: 's3://b/x; rm -rf /', region: 'us-east-1', instanceGroup: 'a', role: 'Node', nodeupConfigHash: '0'.repeat(64) }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_USER_DATA_VALUE' }));
  });
});
