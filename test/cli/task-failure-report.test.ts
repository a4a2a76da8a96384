import * as fs from 'node:fs';
import * as path from 'node:path';
import { CliResult, runCliAsync, tempDir } from '../helpers/cli';
import { FaultProxy, startFaultProxy } from '../helpers/fault-proxy';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer } from '../helpers/moto-server';

// A task failure that stops `update cluster --yes` early, as users see it: moto behind a fault proxy that
// refuses CreateVpc as EC2 refuses a bad request (InvalidParameterValue, a hard error), so nearly every
// other task does not run. The one-line error counts them by kind; --verbose and -o json list them.

const NAME = 'fail.example.com';
let moto: MotoServer;
let proxy: FaultProxy;
let store: string;
let home: string;
let env: NodeJS.ProcessEnv;

const update = (extra: string[]): Promise<CliResult> => runCliAsync(['update', 'cluster', NAME, '--yes', '--state', store, ...extra], env);

/** The error line of stderr (after the progress lines). */
function errorLine(r: CliResult): string {
  return r.stderr.split('\n').find((l) => l.startsWith('Error: ')) ?? '';
}

beforeAll(async () => {
  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  proxy = await startFaultProxy(moto.endpoint);
  store = tempDir('kforge-task-failure-');
  home = tempDir('kforge-task-failure-home-');
  env = {
    ...moto.env,
    AWS_ENDPOINT_URL: proxy.endpoint,
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    HOME: home,
    AWS_PROFILE: undefined,
    AWS_CONFIG_FILE: path.join(home, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: path.join(home, 'no-aws-credentials'),
    CI: 'true',
  };
  const created = await runCliAsync(['create', 'cluster', NAME, '--zones', 'us-east-1a', '--cloud', 'aws', '--dns', 'none', '--state', store], env);
  expect(created.stderr).toBe('');
  expect(created.status).toBe(0);
  proxy.setRule((r) => (r.body.includes('Action=CreateVpc') ? 'invalid-parameter' : undefined));
}, 60_000);

afterAll(async () => {
  await proxy?.stop();
  await moto?.stop();
  for (const d of [store, home]) if (d) fs.rmSync(d, { recursive: true, force: true });
});

describe('a task failure that stops the run', () => {
  it('counts the tasks that did not run by kind, on the one error line', async () => {
    const r = await update([]);
    expect(r.status).toBe(1);
    const line = errorLine(r);
    expect(line).toMatch(/^Error: VPC\/fail\.example\.com: apply failed: Value is not valid \(fault proxy\)\.; not run: \d+ tasks \((\d+ \w+, )+\d+ \w+\); --verbose lists them$/);
    // Kinds, sorted, each with its count: the subnet and the groups never started, as they need the VPC.
    const kinds = [...line.slice(line.indexOf('tasks (')).matchAll(/(\d+) (\w+)/g)].map((m) => m[2]);
    expect(kinds).toEqual([...kinds].sort());
    expect(kinds).toEqual(expect.arrayContaining(['AutoScalingGroup', 'SecurityGroup', 'Subnet']));
    expect(line).not.toContain('Subnet/');
    expect(r.stderr).not.toContain('    at ');
  }, 120_000);

  it('--verbose lists every task that did not run below the message', async () => {
    const r = await update(['--verbose']);
    expect(r.status).toBe(1);
    const count = Number(/not run: (\d+) tasks/.exec(errorLine(r))?.[1]);
    expect(r.stderr).toContain(`\nnot run (${count}):\n`);
    const listed = r.stderr.slice(r.stderr.indexOf(`not run (${count}):`)).split('\n').slice(1, count + 1);
    expect(listed).toHaveLength(count);
    expect(listed.every((l) => /^ {2}\w+\/\S+$/.test(l))).toBe(true);
    expect(listed).toContain('  Subnet/us-east-1a.fail.example.com');
    expect(listed).toEqual([...listed].sort());
  }, 120_000);

  it('-o json prints the failed task and every task that did not run, sorted', async () => {
    const r = await update(['-o', 'json']);
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout) as { cluster: string; applied: boolean; failed: { task: string; phase: string; code: string; notRun: string[] } };
    expect(out).toMatchObject({ cluster: NAME, applied: false, failed: { task: `VPC/${NAME}`, phase: 'apply', code: 'TASK_FAILED' } });
    expect(out.failed.notRun).toContain(`Subnet/us-east-1a.${NAME}`);
    expect(out.failed.notRun).toEqual([...out.failed.notRun].sort());
    expect(out.failed.notRun.length).toBe(Number(/not run: (\d+) tasks/.exec(errorLine(r))?.[1]));
  }, 120_000);
});
