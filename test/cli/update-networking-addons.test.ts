import { GetRolePolicyCommand, IAMClient } from '@aws-sdk/client-iam';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import * as fs from 'node:fs';
import * as yaml from 'js-yaml';
import { StatePaths } from '../../src/state/state-paths';
import { CliResult, runCli, tempDir } from '../helpers/cli';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer, cliEnvOf } from '../helpers/moto-server';

// Issue 18's acceptance for networking: against moto, `update --yes` stores kops's cilium addon; switching
// spec.networking from cilium to calico shows in `update`'s plan as the cilium manifest deleted, the calico one
// created and the channel's diff; applying it leaves only calico's manifest, and the IAM gains Calico's grant.

const BUCKET = 'kforge-networking-state';
const STORE = `s3://${BUCKET}`;
const C = 'cni.example.com';
/** An "editor" that replaces the cluster's cilium networking with calico (kforge edit cluster runs $EDITOR <file>). */
const CILIUM_TO_CALICO_EDITOR = `"${process.execPath}" -e "const fs = require('fs'); const f = process.argv[1]; fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace(/cilium: \\{\\}/, 'calico: {}'))"`;

let moto: MotoServer;
let s3: S3Client;
let iam: IAMClient;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  home = tempDir('kforge-cni-');
  env = { ...cliEnvOf(moto, home), CI: 'true' };
  s3 = new S3Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' }, forcePathStyle: true });
  iam = new IAMClient({ region: 'us-east-1', endpoint: moto.endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
});

afterAll(async () => {
  s3?.destroy();
  iam?.destroy();
  await moto?.stop();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

const kforge = (args: string[], extra: NodeJS.ProcessEnv = {}): CliResult => runCli([...args, '--state', STORE], { env: { ...env, ...extra } });
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

const CILIUM = StatePaths.addonFile(C, 'networking.cilium.io/k8s-1.16-v1.15.yaml');
const CALICO = StatePaths.addonFile(C, 'networking.projectcalico.org/k8s-1.25.yaml');
const CHANNEL = StatePaths.addonFile(C, 'bootstrap-channel.yaml');

it('switching networking from cilium to calico shows the manifest diff in the plan, then replaces the addon', async () => {
  ok(kforge(['create', 'cluster', C, '--zones', 'us-east-1a', '--cloud', 'aws', '--dns', 'none', '--networking', 'cilium']));
  ok(kforge(['update', 'cluster', C, '--yes']));
  const keys = await addonKeys();
  expect(keys).toContain(CILIUM);
  expect(keys).not.toContain(CALICO);
  const cilium = yaml.loadAll(await read(CILIUM)) as Array<{ kind: string; metadata: { name: string; labels: Record<string, string> } }>;
  expect(cilium.find((o) => o.kind === 'DaemonSet')?.metadata).toMatchObject({ name: 'cilium', labels: { 'role.kubernetes.io/networking': '1', 'addon.kops.k8s.io/name': 'networking.cilium.io' } });
  expect(ok(kforge(['update', 'cluster', C])).stdout).toMatch(/^No changes/);

  ok(kforge(['edit', 'cluster', C], { EDITOR: CILIUM_TO_CALICO_EDITOR }));
  const plan = ok(kforge(['update', 'cluster', C])).stdout;
  // The cilium manifest is deleted, calico's created, and the channel's entry changes from one to the other.
  expect(plan).toMatch(/Will delete resources:\n(.*\n)* {2}ManagedFile\n( {4}.*\n)* {4}cni\.example\.com\/addons\/networking\.cilium\.io\/k8s-1\.16-v1\.15\.yaml\n/);
  expect(plan).toMatch(/Will create resources:\n(.*\n)* {2}ManagedFile\n( {4}.*\n)* {4}cni\.example\.com\/addons\/networking\.projectcalico\.org\/k8s-1\.25\.yaml\n/);
  expect(plan).toMatch(/^\s*- +name: networking\.cilium\.io$/m);
  expect(plan).toMatch(/^\s*\+ +name: networking\.projectcalico\.org$/m);
  // The cloud side follows: the roles' policies change (Calico's source/destination-check grant) and IPIP
  // from the nodes to the control plane opens.
  expect(plan).toMatch(/Will modify resources:\n(.*\n)* {2}IAMRolePolicy\n {4}masters\.cni\.example\.com\n/);
  expect(plan).toContain('from-nodes.cni.example.com-ingress-4-0to0-masters.cni.example.com');

  ok(kforge(['update', 'cluster', C, '--yes']));
  const after = await addonKeys();
  expect(after).toContain(CALICO);
  expect(after).not.toContain(CILIUM);
  const channel = await read(CHANNEL);
  expect(channel).toContain('name: networking.projectcalico.org');
  expect(channel).not.toContain('networking.cilium.io');
  const policy = await iam.send(new GetRolePolicyCommand({ RoleName: `masters.${C}`, PolicyName: `masters.${C}` }));
  expect(decodeURIComponent(policy.PolicyDocument ?? '')).toContain('"ec2:ModifyNetworkInterfaceAttribute"');
  expect(ok(kforge(['update', 'cluster', C])).stdout).toMatch(/^No changes/);
});
