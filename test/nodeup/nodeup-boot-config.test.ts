import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { newCluster } from '../../src/create/new-cluster';
import { saveCluster } from '../../src/ops/save-cluster';
import { planManagedFiles, writeManagedFiles } from '../../src/ops/plan-managed-files';
import { StatePaths } from '../../src/state/state-paths';
import { S3Vfs } from '../../src/state/vfs/s3-vfs';
import { listFiles, runCli, tempDir } from '../helpers/cli';
import { splitStages, STATUS_FILE } from './stage-lines';
import { MotoServer, startMotoServer } from '../helpers/moto-server';

// The user-data contract end to end, minus the download: user-data writes kube_env.yaml (the boot config:
// ConfigBase, group, role, NodeupConfigHash) and runs `nodeup --conf kube_env.yaml`; nodeup fetches the
// group's nodeupconfig.yaml from the S3 state store (moto) with the machine's credentials, checks its
// sha256 against the boot config, and only then writes the node's files.

const BUCKET = 'kforge-nodeup-boot';
const NAME = 'boot.example.com';
let moto: MotoServer;
let s3: S3Client;
let env: NodeJS.ProcessEnv;
let hashes: Record<string, string>;
let work: string;
let savedWarning: string | undefined;

beforeAll(async () => {
  moto = await startMotoServer();
  savedWarning = process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  s3 = new S3Client({ region: 'us-east-1', endpoint: moto.endpoint, forcePathStyle: true, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  env = { ...moto.env, AWS_EC2_METADATA_DISABLED: 'true', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
  // The store as `update cluster --yes` leaves it. The SDK takes credentials from this process's
  // environment: moto's, for the setup only.
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    const vfs = new S3Vfs(`s3://${BUCKET}`, process.env);
    const planned = newCluster({ name: NAME, zones: ['us-east-1a'], networking: 'calico' });
    await saveCluster(vfs, { cluster: planned.cluster, instanceGroups: planned.instanceGroups });
    const plan = await planManagedFiles(vfs, NAME);
    await writeManagedFiles(vfs, plan);
    hashes = plan.nodeupConfigHashes;
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  work = tempDir('kforge-nodeup-boot-');
});

afterAll(async () => {
  s3?.destroy();
  await moto?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
  if (savedWarning === undefined) delete process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
  else process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = savedWarning;
});

/** A kube_env.yaml as templates/nodeup-user-data.sh writes it. */
function bootConfig(group: string, role: string, hash: string): string {
  const file = path.join(work, `${group}-${hash.slice(0, 8)}.yaml`);
  fs.writeFileSync(file, [`CloudProvider: aws`, `ClusterName: ${NAME}`, `ConfigBase: s3://${BUCKET}/${NAME}`, `InstanceGroupName: ${group}`, `InstanceGroupRole: ${role}`, `NodeupConfigHash: ${hash}`, ''].join('\n'));
  return file;
}

it('fetches the group’s config named by the boot config, checks its hash, and writes the node', () => {
  const root = path.join(work, 'cp-root');
  const r = runCli(['nodeup', '--conf', bootConfig('control-plane-us-east-1a', 'ControlPlane', hashes['control-plane-us-east-1a']), '--root', root], { env });
  expect(splitStages(r).stderr).toBe('');
  expect(splitStages(r).stages).toEqual(['config-fetched', 'keysets-read', 'files-written', 'done']);
  expect(r.status).toBe(0);
  expect(listFiles(root)).toEqual(expect.arrayContaining(['etc/kubernetes/manifests/kube-apiserver.manifest', 'etc/systemd/system/kubelet.service']));
});

it('refuses a config whose hash is not the boot config’s, and installs nothing', async () => {
  const group = 'nodes-us-east-1a';
  const root = path.join(work, 'tampered-root');
  const wrong = runCli(['nodeup', '--conf', bootConfig(group, 'Node', 'f'.repeat(64)), '--root', root], { env });
  expect(wrong.status).not.toBe(0);
  expect(splitStages(wrong).stages).toEqual(['failed: INVALID_NODEUP_CONFIG']);
  expect(splitStages(wrong).stderr).toMatch(new RegExp(`^Error: --conf .*: s3://${BUCKET}/${NAME}/igconfig/node/${group}/nodeupconfig\\.yaml has sha256 [0-9a-f]{64}, not the f{64} this machine was launched with`));
  expect(wrong.stderr).not.toMatch(/\n\s+at /);
  // Nothing installed: the root holds only the status file recording the failure.
  expect(listFiles(root)).toEqual([STATUS_FILE]);

  // The stored file changed under a machine launched with the old hash.
  await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: StatePaths.nodeupConfig(NAME, 'Node', group), Body: 'ClusterName: tampered\n' }));
  const tampered = runCli(['nodeup', '--conf', bootConfig(group, 'Node', hashes[group]), '--root', root], { env });
  expect(tampered.status).not.toBe(0);
  expect(tampered.stderr).toMatch(/nothing was installed/);
  expect(listFiles(root)).toEqual([STATUS_FILE]);
});

it('says what is missing when the group has no config in the store', () => {
  const r = runCli(['nodeup', '--conf', bootConfig('gone', 'Node', 'a'.repeat(64)), '--root', path.join(work, 'gone-root')], { env });
  expect(r.status).not.toBe(0);
  expect(r.stderr).toMatch(/igconfig\/node\/gone\/nodeupconfig\.yaml does not exist; has "kforge update cluster boot\.example\.com --yes" run\?/);
});
