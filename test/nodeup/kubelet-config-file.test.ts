import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import type { NodeupConfig } from '../../src/model/nodeup-config-builder';
import { applyNodeFiles } from '../../src/nodeup/apply-node-files';
import { NodeupConfigError } from '../../src/nodeup/nodeup-config-error';
import { parseNodeupConfig } from '../../src/nodeup/parse-nodeup-config';
import { renderNodeFiles } from '../../src/nodeup/render-node-files';
import { createCluster } from '../../src/ops/create-cluster';
import { planManagedFiles, writeManagedFiles } from '../../src/ops/plan-managed-files';
import { StatePaths } from '../../src/state/state-paths';
import { openVfs } from '../../src/state/vfs/open-vfs';
import { tempDir } from '../helpers/cli';
import { systemdArgv } from '../helpers/systemd-unit';
import { KUBELET_CONFIGURATION_DURATIONS, KUBELET_CONFIGURATION_FIELDS, parseGoDuration } from '../flags/upstream-kubelet-configuration';

// kubelet's KubeletConfiguration file on a node: the nodeup configs come from the real pipeline (create,
// then update's managed files, in an in-memory store), and nodeup writes them into a temporary root.

const NAME = 'kubelet-conf.k8s.local';
const dirs: string[] = [];
const configs: Record<string, NodeupConfig> = {};

beforeAll(async () => {
  const vfs = openVfs(`memfs://nodeup-kubelet-conf-${process.pid}`);
  await createCluster(vfs, { name: NAME, zones: ['us-east-1a'] }, [], undefined, { command: 'kforge test', ttlSeconds: 60, warn: () => undefined });
  await writeManagedFiles(vfs, await planManagedFiles(vfs, NAME));
  for (const [role, ig] of [['ControlPlane', 'control-plane-us-east-1a'], ['Node', 'nodes-us-east-1a']]) {
    const got = await vfs.read(StatePaths.nodeupConfig(NAME, role as string, ig as string));
    if (!got) throw new Error(`no nodeup config for ${ig}`);
    configs[role as string] = parseNodeupConfig(got.data.toString('utf8'), `${ig}.yaml`);
  }
});

afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function execStart(root: string): string[] {
  // One argument per continued line: join the continuations as systemd does.
  const unit = fs.readFileSync(path.join(root, 'etc/systemd/system/kubelet.service'), 'utf8').replace(/\\\n/g, ' ');
  const line = unit.split('\n').find((l) => l.startsWith('ExecStart=')) as string;
  return systemdArgv(line.slice('ExecStart='.length));
}

describe.each(['ControlPlane', 'Node'])('on a %s node', (role) => {
  it("writes the file at the path kubelet's --config names, 0644, with upstream fields only; a second run changes nothing", () => {
    const config = configs[role] as NodeupConfig;
    const root = tempDir('kforge-kubelet-conf-');
    dirs.push(root);
    const files = renderNodeFiles(config);
    applyNodeFiles(files, root);
    const argv = execStart(root);
    const flag = argv.find((a) => a.startsWith('--config='));
    expect(flag).toBe('--config=/var/lib/kubelet/kubelet.conf');
    const onDisk = path.join(root, (flag as string).slice('--config='.length));
    expect(fs.statSync(onDisk).mode & 0o777).toBe(0o644);
    const doc = yaml.load(fs.readFileSync(onDisk, 'utf8')) as Record<string, unknown>;
    expect(doc).toEqual({ apiVersion: 'kubelet.config.k8s.io/v1beta1', kind: 'KubeletConfiguration', shutdownGracePeriod: '30s', shutdownGracePeriodCriticalPods: '10s' });
    expect(Object.keys(doc).filter((k) => !KUBELET_CONFIGURATION_FIELDS.has(k))).toEqual([]);
    const durations = Object.entries(doc).filter(([k]) => KUBELET_CONFIGURATION_DURATIONS.has(k));
    expect(durations.filter(([, v]) => parseGoDuration(String(v)) === undefined)).toEqual([]);
    expect(applyNodeFiles(renderNodeFiles(config), root)).toMatchObject({ created: 0, changed: 0 });
  });
});

describe('an inconsistent nodeup config', () => {
  it('is refused when --config names a file the config does not carry, or the file has no --config', () => {
    const config = configs.Node as NodeupConfig;
    const noFile: NodeupConfig = { ...config, KubeletConfigFile: undefined };
    const noFlag: NodeupConfig = { ...config, ComponentFlags: { ...config.ComponentFlags, kubelet: config.ComponentFlags.kubelet.filter((a) => !a.startsWith('--config=')) } };
    for (const bad of [noFile, noFlag]) {
      let err: unknown;
      try {
        renderNodeFiles(bad, { source: 'node.yaml' });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(NodeupConfigError);
      expect((err as NodeupConfigError).code).toBe('INVALID_NODEUP_CONFIG');
    }
    // Neither: kubelet runs without a file, as it would for a spec with no such setting.
    const neither: NodeupConfig = { ...noFlag, KubeletConfigFile: undefined };
    expect(renderNodeFiles(neither).map((f) => f.path)).not.toContain('/var/lib/kubelet/kubelet.conf');
  });
});
