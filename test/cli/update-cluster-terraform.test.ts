import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { DescribeVpcsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CliResult, runCli, tempDir } from '../helpers/cli';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer, cliEnvOf } from '../helpers/moto-server';

// `update cluster --target terraform --out DIR` as users run it, against moto with an S3 state store:
// the files are written, the state store gets its keysets and managed files (as kops does), and the
// only AWS calls are reads.

const BUCKET = 'kforge-terraform-state';
const STORE = `s3://${BUCKET}`;
const NAME = 'tf.example.com';
const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };

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
  home = tempDir('kforge-update-tf-');
  env = {
    ...cliEnvOf(moto, home),
    CI: 'true',
  };
  const client = { region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS };
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

/** Operations of a `--verbose` summary, by name. */
function operations(r: CliResult): Record<string, number> {
  const summary = r.stderr.slice(r.stderr.indexOf('AWS API:'));
  return Object.fromEntries([...summary.matchAll(/^ {2}(\w+):? (\d+)$/gm)].map((m) => [m[1], Number(m[2])]));
}

it('writes kubernetes.tf and data/, and the state store, with read-only AWS calls only', async () => {
  expect(kforge(['create', 'cluster', NAME, '--zones', 'us-east-1a', '--cloud', 'aws', '--dns', 'none']).status).toBe(0);
  const out = path.join(home, 'tf');
  const r = kforge(['update', 'cluster', NAME, '--target', 'terraform', '--out', out, '--verbose']);
  expect(r.stderr).not.toMatch(/Error/);
  expect(r.status).toBe(0);
  expect(r.stdout).toContain(`Terraform output written to ${out}: kubernetes.tf (`);

  const ops = operations(r);
  // STS GetCallerIdentity, DescribeInstanceTypes, DescribeAvailabilityZones, DescribeImages: no find.
  expect(Object.keys(ops).length).toBeGreaterThan(0);
  for (const op of Object.keys(ops)) expect(op).toMatch(/^(Describe|Get|List)/);
  expect((await ec2.send(new DescribeVpcsCommand({ Filters: [{ Name: 'tag:KubernetesCluster', Values: [NAME] }] }))).Vpcs).toEqual([]);

  const tf = fs.readFileSync(path.join(out, 'kubernetes.tf'), 'utf8');
  expect(tf).toContain(`resource "aws_vpc" "tf-example-com" {`);
  expect(tf).toMatch(/image_id += "ami-[0-9a-f]+"/);
  const data = fs.readdirSync(path.join(out, 'data'));
  expect(data).toContain(`aws_launch_template_nodes-us-east-1a.${NAME}_user_data`);
  if (spawnSync('terraform', ['version']).status === 0) {
    expect(spawnSync('terraform', ['fmt', '-check', '-recursive', out], { encoding: 'utf8' }).stdout).toBe('');
  } else {
    console.warn('*** SKIPPED: terraform fmt -check (terraform is not installed) ***');
  }

  // As kops: the keysets and managed files are in the state store, since the user-data names them.
  const keys = ((await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `${NAME}/` }))).Contents ?? []).map((o) => o.Key);
  expect(keys).toContain(`${NAME}/cluster-completed.spec`);
  expect(keys).toContain(`${NAME}/igconfig/node/nodes-us-east-1a/nodeupconfig.yaml`);

  // A second run writes the same bytes and nothing new to the store.
  const again = kforge(['update', 'cluster', NAME, '--target', 'terraform', '--out', out]);
  expect(again.status).toBe(0);
  expect(fs.readFileSync(path.join(out, 'kubernetes.tf'), 'utf8')).toBe(tf);
  expect(again.stdout).not.toContain('Wrote to the state store');
});

it('refuses --out without --target terraform', () => {
  const r = kforge(['update', 'cluster', NAME, '--out', path.join(home, 'x')]);
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('--out is for --target terraform');
});
