import { CreateHostedZoneCommand, Route53Client } from '@aws-sdk/client-route-53';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from '@cdktf/hcl2json';
import { CliResult, ROOT, runCli, tempDir } from '../../helpers/cli';
import { MotoServer, startMotoServer } from '../../helpers/moto-server';

// kops users' Terraform (issue 11): kforge's `--target terraform` output for kops's `minimal` cluster has
// kops's output names and resource types, except for the differences listed, with a reason each, in
// test/fixtures/kops/minimal/allowed-differences.json and docs/differences-from-kops.md.

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'kops', 'minimal');
const CLUSTER = 'minimal.example.com';

interface KopsTerraform {
  source: { repo: string; path: string; commit: string };
  region: string;
  renamed: Record<string, string>;
  outputs: string[];
  resources: Record<string, number>;
}
type Reasons = Record<string, string>;
interface AllowedDifferences {
  outputs: { kopsOnly: Reasons; kforgeOnly: Reasons };
  resourceTypes: { kopsOnly: Reasons; kforgeOnly: Reasons };
  /** Resource types both have, in different numbers. */
  counts: Reasons;
}

const kops = JSON.parse(fs.readFileSync(path.join(FIXTURE, 'kops-terraform.json'), 'utf8')) as KopsTerraform;
const allowed = JSON.parse(fs.readFileSync(path.join(FIXTURE, 'allowed-differences.json'), 'utf8')) as AllowedDifferences;

/** What the comparison reads from a kubernetes.tf: its output names and its resource counts by type. */
async function summarize(tf: string): Promise<{ outputs: string[]; resources: Record<string, number> }> {
  const json = (await parse('kubernetes.tf', tf)) as { output?: Record<string, unknown>; resource?: Record<string, Record<string, unknown>> };
  const resources = Object.fromEntries(Object.entries(json.resource ?? {}).map(([type, byName]) => [type, Object.keys(byName).length]));
  return { outputs: Object.keys(json.output ?? {}).sort(), resources };
}

/** `a` without `b`, sorted. */
const minus = (a: readonly string[], b: readonly string[]): string[] => a.filter((x) => !b.includes(x)).sort();
/** kops's name in kforge's zone: kops's test cloud has zones (`us-test-1a`) that AWS and moto do not. */
const renamed = (name: string): string => Object.entries(kops.renamed).reduce((n, [from, to]) => n.split(from).join(to), name);

let moto: MotoServer;
let dir: string;
let kforgeTf: { outputs: string[]; resources: Record<string, number> };

beforeAll(async () => {
  dir = tempDir('kforge-kops-tf-');
  // kops's manifest names its image; moto's image table gets it (the only image there), as a Canonical image.
  const [image] = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'moto-amis.json'), 'utf8')) as Array<Record<string, unknown>>;
  const manifest = fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'kops', 'minimal.yaml'), 'utf8');
  const imageName = /^ {2}image: (\S+)$/m.exec(manifest)?.[1] as string;
  const amis = path.join(dir, 'amis.json');
  fs.writeFileSync(amis, JSON.stringify([{ ...image, name: imageName, image_location: `${String(image.owner_id)}/${imageName}` }]));
  moto = await startMotoServer({ env: { MOTO_AMIS_PATH: amis } });
  const route53 = new Route53Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  await route53.send(new CreateHostedZoneCommand({ Name: 'example.com', CallerReference: 'kforge-kops-minimal' }));
  route53.destroy();

  const env: NodeJS.ProcessEnv = { ...moto.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', HOME: dir, AWS_PROFILE: undefined, AWS_CONFIG_FILE: path.join(dir, 'none'), AWS_SHARED_CREDENTIALS_FILE: path.join(dir, 'none'), CI: 'true' };
  const kforge = (args: string[]): CliResult => {
    const r = runCli([...args, '--state', `file://${dir}/store`], { env });
    if (r.status !== 0) throw new Error(`kforge ${args.join(' ')} exited ${r.status}:\n${r.stderr}`);
    return r;
  };
  // kops's input as it is; kops finds the DNS zone from the cluster name, kforge is told it.
  kforge(['create', '-f', 'test/fixtures/kops/minimal.yaml']);
  // kops's test stores an admin SSH key too (hence its aws_key_pair).
  const key = path.join(dir, 'id_ed25519');
  expect(spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'kops-minimal@example', '-f', key]).status).toBe(0);
  kforge(['create', 'sshpublickey', CLUSTER, '-i', `${key}.pub`]);
  kforge(['set', 'cluster', CLUSTER, 'spec.dnsZone=example.com']);
  kforge(['update', 'cluster', CLUSTER, '--target', 'terraform', '--out', path.join(dir, 'out')]);
  kforgeTf = await summarize(fs.readFileSync(path.join(dir, 'out', 'kubernetes.tf'), 'utf8'));
}, 60_000);

afterAll(async () => {
  await moto?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("kforge's Terraform for kops's minimal cluster", () => {
  it("has kops's output names, apart from the listed differences", () => {
    const kopsOutputs = kops.outputs.map(renamed);
    expect({ kopsOnly: minus(kopsOutputs, kforgeTf.outputs), kforgeOnly: minus(kforgeTf.outputs, kopsOutputs) }).toEqual({
      kopsOnly: Object.keys(allowed.outputs.kopsOnly).sort(),
      kforgeOnly: Object.keys(allowed.outputs.kforgeOnly).sort(),
    });
  });

  it("has kops's resource types, apart from the listed differences", () => {
    const kopsTypes = Object.keys(kops.resources);
    const kforgeTypes = Object.keys(kforgeTf.resources);
    expect(kforgeTypes.length).toBeGreaterThan(10);
    expect({ kopsOnly: minus(kopsTypes, kforgeTypes), kforgeOnly: minus(kforgeTypes, kopsTypes) }).toEqual({
      kopsOnly: Object.keys(allowed.resourceTypes.kopsOnly).sort(),
      kforgeOnly: Object.keys(allowed.resourceTypes.kforgeOnly).sort(),
    });
  });

  it("has as many resources of each common type as kops's file, apart from the listed differences", () => {
    const common = Object.keys(kops.resources).filter((t) => t in kforgeTf.resources);
    expect(common.filter((t) => kops.resources[t] !== kforgeTf.resources[t]).sort()).toEqual(Object.keys(allowed.counts).sort());
  });

  it('names every allowed difference, with its reason, in the Terraform section of docs/differences-from-kops.md', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs', 'differences-from-kops.md'), 'utf8');
    const section = doc.slice(doc.indexOf('\n## Terraform'));
    expect(section.length).toBeGreaterThan(20);
    const reasons = { ...allowed.outputs.kopsOnly, ...allowed.outputs.kforgeOnly, ...allowed.resourceTypes.kopsOnly, ...allowed.resourceTypes.kforgeOnly, ...allowed.counts };
    for (const [name, reason] of Object.entries(reasons)) {
      expect(reason.length).toBeGreaterThan(10);
      expect(section).toContain(`\`${name}\``);
    }
    expect(section).toContain(kops.source.commit);
  });
});
