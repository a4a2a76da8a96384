import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as yaml from 'js-yaml';
import { StatePaths } from '../../src/state/state-paths';
import { CliResult, runCli, tempDir } from '../helpers/cli';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer, cliEnvOf } from '../helpers/moto-server';

// The addons at `update` (issue 18, section 1): the plan lists kops's bootstrap channel and one manifest per addon
// as managed files under <cluster>/addons/, `--yes` writes them to the S3 state store, a second update has no
// changes, and an addon the spec turns off shows as a deleted manifest and a channel diff, then is gone.

const BUCKET = 'kforge-addons-state';
const STORE = `s3://${BUCKET}`;
const C = 'addons.example.com';

let moto: MotoServer;
let s3: S3Client;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  home = tempDir('kforge-addons-');
  env = { ...cliEnvOf(moto, home), CI: 'true' };
  s3 = new S3Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' }, forcePathStyle: true });
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
});

afterAll(async () => {
  s3?.destroy();
  await moto?.stop();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

const kforge = (args: string[]): CliResult => runCli([...args, '--state', STORE], { env });
const ok = (r: CliResult): CliResult => {
  expect([r.status, r.stderr]).toEqual([0, expect.not.stringContaining('Error')]);
  return r;
};

async function addonKeys(): Promise<string[]> {
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: StatePaths.addonsPrefix(C) }));
  return (listed.Contents ?? []).map((o) => o.Key as string).sort();
}

async function read(key: string): Promise<string> {
  const got = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return (got.Body as { transformToString(): Promise<string> }).transformToString();
}

const STORAGE = StatePaths.addonFile(C, 'storage-aws.addons.k8s.io/v1.15.0.yaml');
const CHANNEL = StatePaths.addonFile(C, 'bootstrap-channel.yaml');

it('update --yes writes the channel and the manifests; a second update has no changes; a dropped addon is deleted', async () => {
  ok(kforge(['create', 'cluster', C, '--zones', 'us-east-1a', '--cloud', 'aws', '--dns', 'none']));
  const plan = ok(kforge(['update', 'cluster', C])).stdout;
  for (const key of [CHANNEL, STORAGE, StatePaths.addonFile(C, 'coredns.addons.k8s.io/k8s-1.12.yaml')]) expect(plan).toContain(`    ${key}\n`);
  expect(await addonKeys()).toEqual([]);

  ok(kforge(['update', 'cluster', C, '--yes']));
  const keys = await addonKeys();
  expect(keys).toEqual(expect.arrayContaining([CHANNEL, STORAGE]));
  // Every manifest the channel names is stored, with the hash the channel records.
  const channel = yaml.load(await read(CHANNEL)) as { kind: string; spec: { addons: Array<{ manifest: string; manifestHash: string }> } };
  expect(channel.kind).toBe('Addons');
  expect(keys).toEqual([CHANNEL, ...channel.spec.addons.map((a) => StatePaths.addonFile(C, a.manifest))].sort());
  for (const a of channel.spec.addons) {
    expect(createHash('sha256').update(await read(StatePaths.addonFile(C, a.manifest))).digest('hex')).toBe(a.manifestHash);
  }
  expect(ok(kforge(['update', 'cluster', C])).stdout).toMatch(/^No changes/);

  // The spec turns kops's StorageClasses off: the plan deletes the manifest and shows the channel's diff.
  ok(kforge(['set', 'cluster', C, 'spec.cloudConfig.manageStorageClasses=false']));
  const dropped = ok(kforge(['update', 'cluster', C])).stdout;
  expect(dropped).toMatch(/Will delete resources:\n(.*\n)* {2}ManagedFile\n( {4}.*\n)* {4}addons\.example\.com\/addons\/storage-aws\.addons\.k8s\.io\/v1\.15\.0\.yaml\n/);
  expect(dropped).toMatch(/^\s*- +name: storage-aws\.addons\.k8s\.io$/m);
  ok(kforge(['update', 'cluster', C, '--yes']));
  expect(await addonKeys()).not.toContain(STORAGE);
  expect(await read(CHANNEL)).not.toContain('storage-aws');
  expect(ok(kforge(['update', 'cluster', C])).stdout).toMatch(/^No changes/);
});
