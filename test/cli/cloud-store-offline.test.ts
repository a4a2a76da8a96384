import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT, tempDir } from '../helpers/cli';

// A network namespace where loopback works and every other packet is dropped without an answer (routed
// into a tun device nobody reads), as on a laptop where the cloud metadata servers cannot be reached.
const NETNS_SETUP = 'ip link set lo up && ip tuntap add dev t0 mode tun && ip addr add 10.200.0.1/24 dev t0 && ip link set t0 up && ip route add default dev t0';

/** The namespace is a prerequisite of these tests (README), like moto_server for the S3 ones. */
function requireNetns(): void {
  const r = spawnSync('unshare', ['-rn', 'sh', '-c', NETNS_SETUP], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`these tests need "unshare -rn" (util-linux) and "ip tuntap" (iproute2) in a user namespace: ${r.error?.message ?? r.stderr}`);
}

/** The environment of a user with no cloud settings at all: empty HOME, no AWS_/GOOGLE_ variables. */
function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: tempDir(), NO_COLOR: '1', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
  return { ...env, ...extra };
}

/** Runs the built CLI in the offline namespace; how long it took, in ms. */
function runOffline(args: string[], env: NodeJS.ProcessEnv): { status: number; stderr: string; stdout: string; ms: number } {
  const start = Date.now();
  const r = spawnSync('unshare', ['-rn', 'sh', '-c', `${NETNS_SETUP} && exec "$@"`, 'sh', process.execPath, path.join(ROOT, 'bin', 'run.js'), ...args], { env, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, ms: Date.now() - start };
}

/**
 * The 1 s budget of a failure without credentials. On a machine loaded by parallel tests everything is
 * slower, loading a cloud SDK included, so the budget grows with what a plain local command takes (about
 * 300 ms unloaded); the metadata probes this guards against cost 2.5-10 s.
 */
let budgetMs = 1000;

describe('cloud stores without credentials or network fail clearly and quickly', () => {
  beforeAll(() => {
    requireNetns();
    const local = runOffline(['get', 'clusters', '--state', tempDir()], cleanEnv());
    expect(local.status).toBe(0);
    budgetMs = Math.max(1000, local.ms * 2.5);
  });

  it('gs:// without credentials: a clear error within 1 s, no MetadataLookupWarning', () => {
    const r = runOffline(['get', 'clusters', '--state', 'gs://kforge-offline-test'], cleanEnv());
    expect(r.stderr).toMatch(/^Error: no Google Cloud credentials found for gs:\/\/kforge-offline-test: run "gcloud auth application-default login" or set GOOGLE_APPLICATION_CREDENTIALS\n$/);
    expect(r.stderr).not.toContain('MetadataLookupWarning');
    expect(r.status).toBe(1);
    expect(r.ms).toBeLessThan(budgetMs);
  });

  it('s3:// without credentials: a clear error within 1 s', () => {
    const r = runOffline(['get', 'clusters', '--state', 's3://kforge-offline-test'], cleanEnv());
    expect(r.stderr).toMatch(/^Error: no AWS credentials found for s3:\/\/kforge-offline-test: set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.status).toBe(1);
    expect(r.ms).toBeLessThan(budgetMs);
  });

  it('s3:// with credentials but no network: unreachable after 3 s connect timeouts, 3 attempts', () => {
    const r = runOffline(['get', 'clusters', '--state', 's3://kforge-offline-test'], cleanEnv({ AWS_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE', AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' }));
    expect(r.stderr).toContain('Error: state store s3://kforge-offline-test: cannot list s3://kforge-offline-test/: S3 is unreachable');
    expect(r.stderr).toContain('3000 ms');
    expect(r.status).toBe(1);
    expect(r.ms).toBeGreaterThan(8_000);
    expect(r.ms).toBeLessThan(15_000);
  }, 60_000);

  it('gs:// with credentials but no network: unreachable after 3 s timeouts, bounded retries', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const keyFile = path.join(tempDir(), 'sa.json');
    fs.writeFileSync(
      keyFile,
      JSON.stringify({ type: 'service_account', project_id: 'p1', private_key_id: 'k1', private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }), client_email: 'x@p1.iam.gserviceaccount.com', client_id: '1' }),
    );
    const r = runOffline(['get', 'clusters', '--state', 'gs://kforge-offline-test'], cleanEnv({ GOOGLE_APPLICATION_CREDENTIALS: keyFile }));
    expect(r.stderr).toContain('Error: state store gs://kforge-offline-test: cannot list gs://kforge-offline-test/: Google Cloud Storage is unreachable');
    expect(r.stderr).not.toContain('MetadataLookupWarning');
    expect(r.status).toBe(1);
    expect(r.ms).toBeLessThan(15_000);
  }, 60_000);
});
