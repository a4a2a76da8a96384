import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import * as yaml from 'js-yaml';
import { adminSubject } from '../../src/pki/cluster-pki';
import { issueKeypair } from '../../src/pki/issue-keypair';
import { ROOT, runCliAsync, tempDir } from '../helpers/cli';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer } from '../helpers/moto-server';
import { setUpValidateFixture, ValidateFixture } from '../helpers/validate-cluster-setup';

let moto: MotoServer;
let f: ValidateFixture;
let kubeconfigFile: string;
const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'schemas', 'validate-cluster-output.schema.json'), 'utf8'));
const checkOutput = new Ajv({ allErrors: true, strict: true }).compile(schema);

beforeAll(async () => {
  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  f = await setUpValidateFixture(moto.endpoint, 'cli.example.com', 1);
  const admin = await issueKeypair({ subject: adminSubject('cli'), usage: 'client', validityMs: 3600_000 }, f.ca);
  const b64 = (s: string): string => Buffer.from(s).toString('base64');
  kubeconfigFile = path.join(tempDir(), 'kubeconfig');
  fs.writeFileSync(
    kubeconfigFile,
    yaml.dump({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: f.name, cluster: { server: `https://localhost:${f.api.port}`, 'certificate-authority-data': b64(f.ca.certificatePem) } }],
      users: [{ name: f.name, user: { 'client-certificate-data': b64(admin.certificatePem), 'client-key-data': b64(admin.privateKeyPem as string) } }],
      contexts: [{ name: f.name, context: { cluster: f.name, user: f.name } }],
      'current-context': f.name,
    }),
  );
});
afterAll(async () => {
  await f?.stop();
  await moto?.stop();
});
beforeEach(() => f.healthy());

const validate = (...extra: string[]): ReturnType<typeof runCliAsync> =>
  runCliAsync(['validate', 'cluster', f.name, '--state', f.store, '--kubeconfig', kubeconfigFile, ...extra], moto.env);

test('exit 0 and "ready" for a healthy cluster; the JSON output matches its documented schema', async () => {
  const table = await validate();
  expect(table.stderr).toBe('');
  expect(table.status).toBe(0);
  expect(table.stdout).toContain(`Your cluster ${f.name} is ready`);
  const json = await validate('-o', 'json');
  expect(json.status).toBe(0);
  const out = JSON.parse(json.stdout);
  expect(checkOutput(out)).toBe(true);
  expect(out).toMatchObject({ cluster: f.name, valid: true, failures: [] });
});

test('exit 2 with every failure listed for an invalid cluster; the JSON still matches the schema', async () => {
  const node = f.instances.find((i) => i.role === 'node') as ValidateFixture['instances'][number];
  f.api.store.delete('nodes', `node-${node.id}`, undefined);
  const r = await validate('-o', 'json');
  expect(r.status).toBe(2);
  const out = JSON.parse(r.stdout);
  expect(checkOutput(out)).toBe(true);
  expect(out.valid).toBe(false);
  expect(out.failures.map((x: { kind: string; name: string }) => [x.kind, x.name])).toEqual([['Machine', node.id]]);
  const table = await validate();
  expect(table.status).toBe(2);
  expect(table.stdout).toMatch(/VALIDATION ERRORS\nKIND +NAME +MESSAGE +CAUSE\nMachine +i-/);
  expect(table.stdout).toContain('Validation failed');
});

test('exit 1 on an error: no such cluster, or a bad flag', async () => {
  const missing = await runCliAsync(['validate', 'cluster', 'nope.example.com', '--state', f.store], moto.env);
  expect(missing.status).toBe(1);
  expect(missing.stderr).toMatch(/^Error: cluster "nope.example.com" not found/);
  const bad = await validate('--wait', 'soon');
  expect(bad.status).toBe(1);
  expect(bad.stderr).toContain('--wait');
});

test('get instances lists each instance with its node and readiness; -o json', async () => {
  const r = await runCliAsync(['get', 'instances', f.name, '--state', f.store, '--kubeconfig', kubeconfigFile, '-o', 'json'], moto.env);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const rows = JSON.parse(r.stdout);
  expect(rows.map((x: { id: string; role: string; nodeName: string; ready: boolean; needsUpdate: boolean }) => [x.role, x.nodeName, x.ready, x.needsUpdate])).toEqual(
    [...f.instances].sort((a, b) => a.instanceGroup.localeCompare(b.instanceGroup) || a.id.localeCompare(b.id)).map((i) => [i.role, `node-${i.id}`, true, false]),
  );
});
