import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from '@cdktf/hcl2json';
import { CliResult, runCli, tempDir } from '../../helpers/cli';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer } from '../../helpers/moto-server';

// "The state-store files that Terraform will own are marked in the plan" (issue 11): `update cluster
// --target terraform` says, in text and in `-o json`, which state-store objects kforge wrote and that
// Terraform owns none of them; the store and kubernetes.tf agree with what it says.

const NAME = 'owner.example.com';
let moto: MotoServer;
let dir: string;
let kforge: (args: string[]) => CliResult;

beforeAll(async () => {
  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  dir = tempDir('kforge-tf-owner-');
  const env: NodeJS.ProcessEnv = { ...moto.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', HOME: dir, AWS_PROFILE: undefined, AWS_CONFIG_FILE: path.join(dir, 'none'), AWS_SHARED_CREDENTIALS_FILE: path.join(dir, 'none'), CI: 'true' };
  kforge = (args) => runCli([...args, '--state', `file://${dir}/store`], { env });
  expect(kforge(['create', 'cluster', NAME, '--zones', 'us-east-1a', '--cloud', 'aws', '--dns', 'none']).status).toBe(0);
});

afterAll(async () => {
  await moto?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

interface Owned {
  type: string;
  name: string;
  action: string;
  owner: string;
}

describe('update cluster --target terraform marks who owns each state-store object', () => {
  const out = (): string => path.join(dir, 'tf');

  it('text: every object kforge wrote, marked owner kforge, and that Terraform will own none', async () => {
    const r = kforge(['update', 'cluster', NAME, '--target', 'terraform', '--out', out()]);
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^State store: kforge wrote (\d+) of these \1 objects itself; Terraform will own none of them \(kubernetes\.tf has no state-store resource\):$/);
    const completed = `${NAME}/cluster-completed.spec`;
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^  ManagedFile ${completed.replace(/\./g, '\\.')} +created +owner: kforge$`)));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}Keypair kubernetes-ca +created +owner: kforge$/));
    // What it says it wrote is in the store, and nothing in kubernetes.tf writes to a store.
    expect(fs.existsSync(path.join(dir, 'store', completed))).toBe(true);
    const json = (await parse('kubernetes.tf', fs.readFileSync(path.join(out(), 'kubernetes.tf'), 'utf8'))) as { resource: Record<string, unknown> };
    expect(Object.keys(json.resource).filter((t) => t.startsWith('aws_s3_'))).toEqual([]);
  });

  it('-o json: terraform.stateStoreFiles, each with its action and owner; a second run wrote nothing', () => {
    const r = kforge(['update', 'cluster', NAME, '--target', 'terraform', '--out', out(), '-o', 'json']);
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout) as { terraform: { stateStoreFiles: Owned[] }; resources: unknown[] };
    const files = report.terraform.stateStoreFiles;
    expect(files.length).toBeGreaterThan(1);
    expect(files.filter((f) => f.owner !== 'kforge')).toEqual([]);
    expect(files.filter((f) => f.action !== 'none')).toEqual([]);
    expect(files).toContainEqual({ type: 'ManagedFile', name: `${NAME}/igconfig/node/nodes-us-east-1a/nodeupconfig.yaml`, action: 'none', owner: 'kforge' });
    for (const f of files) expect(fs.existsSync(path.join(dir, 'store', f.name))).toBe(true);
    // Additive: the plan report's own fields are still there.
    expect(Array.isArray(report.resources)).toBe(true);

    const text = kforge(['update', 'cluster', NAME, '--target', 'terraform', '--out', out()]);
    expect(text.stdout.split('\n')[0]).toBe(`State store: kforge wrote 0 of these ${files.length} objects itself; Terraform will own none of them (kubernetes.tf has no state-store resource):`);
  });
});
