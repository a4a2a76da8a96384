import { CreateBucketCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { DescribeLaunchTemplateVersionsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { builtNodeupArtifact } from '../../src/model/nodeup-artifacts';
import { StatePaths } from '../../src/state/state-paths';
import { CliResult, runCli, tempDir } from '../helpers/cli';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer, cliEnvOf } from '../helpers/moto-server';

// The nodeup bundle delivered through the state store (issue 18, section 3): `update cluster` plans this
// build's bundle as a managed file at <cluster>/assets/nodeup/<sha256>/nodeup, `--yes` (and
// `--target terraform`) uploads it create-only, a second update has no changes, and the launch
// templates' user-data names it as an s3:// URL. A file repository keeps nodeup on the repository.

const BUCKET = 'kforge-nodeup-state';
const STORE = `s3://${BUCKET}`;
const built = builtNodeupArtifact();
const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

let moto: MotoServer;
let s3: S3Client;
let ec2: EC2Client;
let home: string;
let env: NodeJS.ProcessEnv;
let savedWarningSetting: string | undefined;

beforeAll(async () => {
  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  // This process's own SDK clients would otherwise print the SDK's notice about future Node versions.
  savedWarningSetting = process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  home = tempDir('kforge-nodeup-artifact-');
  env = {
    ...cliEnvOf(moto, home),
    KFORGE_NODEUP: undefined,
    CI: 'true',
  };
  const client = { region: 'us-east-1', endpoint: moto.endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } };
  s3 = new S3Client({ ...client, forcePathStyle: true });
  ec2 = new EC2Client(client);
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
});

afterAll(async () => {
  s3?.destroy();
  ec2?.destroy();
  await moto?.stop();
  if (home) fs.rmSync(home, { recursive: true, force: true });
  if (savedWarningSetting === undefined) delete process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
  else process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = savedWarningSetting;
});

const kforge = (args: string[]): CliResult => runCli([...args, '--state', STORE], { env });
const ok = (r: CliResult): CliResult => {
  expect([r.status, r.stderr]).toEqual([0, expect.not.stringContaining('Error')]);
  return r;
};

/** The user-data of a group's latest launch template version. */
async function userData(cluster: string, group: string): Promise<string> {
  const lt = await ec2.send(new DescribeLaunchTemplateVersionsCommand({ LaunchTemplateName: `${group}.${cluster}`, Versions: ['$Latest'] }));
  return Buffer.from(lt.LaunchTemplateVersions?.[0]?.LaunchTemplateData?.UserData ?? '', 'base64').toString('utf8');
}

/** The keys under a cluster's assets/nodeup/ prefix. */
async function bundles(cluster: string): Promise<string[]> {
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: StatePaths.nodeupArtifactPrefix(cluster) }));
  return (listed.Contents ?? []).map((o) => o.Key as string);
}

it('update plans the bundle as a managed file, --yes uploads these bytes once, and a second update has no changes', async () => {
  const c = 'bundle.example.com';
  const key = StatePaths.nodeupArtifact(c, built.sha256);
  ok(kforge(['create', 'cluster', c, '--zones', 'us-east-1a', '--cloud', 'aws', '--dns', 'none']));
  const plan = ok(kforge(['update', 'cluster', c]));
  expect(plan.stdout).toMatch(new RegExp(`\\n  ManagedFile\\n(    .*\\n)*    ${key.replace(/\./g, '\\.')}\\n`));
  expect(await bundles(c)).toEqual([]);

  ok(kforge(['update', 'cluster', c, '--yes']));
  expect(await bundles(c)).toEqual([key]);
  const got = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  expect(sha256(await (got.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray())).toBe(built.sha256);
  const etag = got.ETag;
  // The control plane reads the bundle from the store with its role; a worker, which may not read the store,
  // downloads the same bytes from the node-identity service (docs/node-identity.md).
  const urls: Record<string, string> = {
    'control-plane-us-east-1a': `${STORE}/${key}`,
    'nodes-us-east-1a': `https://kops-controller.internal.${c}:3988/nodeup/${built.sha256}`,
  };
  for (const [group, url] of Object.entries(urls)) {
    const script = await userData(c, group);
    expect(script).toContain(`NODEUP_URLS=${url}\n`);
    expect(script).toContain(`NODEUP_HASH=${built.sha256}\n`);
  }

  expect(ok(kforge(['update', 'cluster', c])).stdout).toMatch(/^No changes/);
  expect(ok(kforge(['update', 'cluster', c, '--yes'])).stdout).toMatch(/^No changes/);
  // Create-only and content-addressed: the object was not written again.
  expect((await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }))).ETag).toBe(etag);
});

it('--target terraform uploads the bundle too: the launch templates it renders name it', async () => {
  const c = 'tf-bundle.example.com';
  ok(kforge(['create', 'cluster', c, '--zones', 'us-east-1a', '--cloud', 'aws', '--dns', 'none']));
  const out = path.join(home, 'tf');
  ok(kforge(['update', 'cluster', c, '--target', 'terraform', '--out', out]));
  expect(await bundles(c)).toEqual([StatePaths.nodeupArtifact(c, built.sha256)]);
  const data = fs.readdirSync(path.join(out, 'data')).filter((f) => f.endsWith('_user_data'));
  expect(data.length).toBeGreaterThan(0);
  // Control plane from the store, workers from the node-identity service: the same bundle either way.
  for (const f of data) {
    const url = f.includes('control-plane') ? `${STORE}/${StatePaths.nodeupArtifact(c, built.sha256)}` : `https://kops-controller.internal.${c}:3988/nodeup/${built.sha256}`;
    expect(fs.readFileSync(path.join(out, 'data', f), 'utf8')).toContain(`NODEUP_URLS=${url}\n`);
  }
});

it('with spec.assets.fileRepository nodeup stays on the repository: nothing is uploaded', async () => {
  const c = 'mirror.example.com';
  ok(kforge(['create', 'cluster', c, '--zones', 'us-east-1a', '--cloud', 'aws', '--dns', 'none', '--set', 'spec.assets.fileRepository=https://mirror.internal/files']));
  const plan = ok(kforge(['update', 'cluster', c]));
  expect(plan.stdout).not.toContain('assets/nodeup/');
  ok(kforge(['update', 'cluster', c, '--yes']));
  expect(await bundles(c)).toEqual([]);
  expect(await userData(c, 'nodes-us-east-1a')).toContain('NODEUP_URLS=https://mirror.internal/files/kforge/0.1.0/nodeup\n');
});
