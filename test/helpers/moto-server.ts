import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

/** A running moto_server (a local fake of the AWS APIs); state is global per server, so one per test file. */
export interface MotoServer {
  /**
   * Base URL, e.g. `http://127.0.0.1:40123`: a proxy process in front of moto that plays AWS's part moto lacks (a
   * network load balancer's network interfaces, test/helpers/moto-nlb-proxy.js), unless `nlbInterfaces: false`.
   */
  endpoint: string;
  /** The loopback port `endpoint` listens on. */
  port: number;
  /** moto_server's own URL (no proxy). */
  upstream: string;
  /**
   * Sets the credentials the proxy creates and deletes load balancer interfaces with (default `test`/`test`); a
   * test that enforces IAM gives a user's keys.
   */
  setProxyKeys(keys: { accessKeyId: string; secretAccessKey: string }): Promise<void>;
  /** Environment a child `kforge` process (or an S3Vfs) needs to talk to this server with fake credentials. */
  env: Record<string, string>;
  /** Forgets every bucket, object and IAM entity. */
  reset(): Promise<void>;
  /** Kills the server and waits for it to exit. */
  stop(): Promise<void>;
}

/** Options of startMotoServer. */
export interface MotoServerOptions {
  /** Extra environment for the moto process, e.g. `INITIAL_NO_AUTH_ACTION_COUNT` to enforce IAM auth. */
  env?: Record<string, string>;
  /** Put the proxy that makes a network load balancer's interfaces in front (default true); false: `endpoint` is moto's own. */
  nlbInterfaces?: boolean;
}

const READY_TIMEOUT_MS = 20_000;

/**
 * moto's environment for a server whose only images are those of test/fixtures/moto-amis.json: kforge's
 * default image (Canonical's Ubuntu 24.04), which moto 5.2.1's built-in list (Ubuntu up to 16.04) lacks,
 * so `create cluster` without `--image` works against it as it does against AWS.
 */
export const MOTO_WITH_DEFAULT_IMAGE: Record<string, string> = { MOTO_AMIS_PATH: path.join(__dirname, '..', 'fixtures', 'moto-amis.json') };

/** Starts `moto_server` on a free loopback port and resolves once it answers HTTP. */
export async function startMotoServer(options: MotoServerOptions = {}): Promise<MotoServer> {
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  // Output goes to a file, not a pipe: a pipe would keep jest's event loop alive and could fill up.
  const logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kforge-moto-')), 'moto.log');
  const logFd = fs.openSync(logFile, 'w');
  const child = spawn('moto_server', ['-H', '127.0.0.1', '-p', String(port)], {
    stdio: ['ignore', logFd, logFd],
    env: { ...process.env, ...options.env },
  });
  fs.closeSync(logFd);
  child.unref();
  // Jest workers leave through process.exit, which still runs 'exit' listeners: no orphaned servers on a crash.
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.on('exit', killOnExit);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let failure: string | undefined;
  child.once('error', (e: NodeJS.ErrnoException) => {
    failure =
      e.code === 'ENOENT'
        ? `moto_server is not installed (not found on PATH); install it with: pip install 'moto[server]'`
        : `cannot start moto_server: ${e.message}`;
  });
  child.once('exit', (code, signal) => (failure ??= `moto_server exited early (${signal ?? `status ${code}`}):\n${readLog(logFile)}`));

  const stop = async (): Promise<void> => {
    process.off('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(path.dirname(logFile), { recursive: true, force: true });
  };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (failure) {
      await stop();
      throw new Error(failure);
    }
    if ((await request('GET', `${endpoint}/moto-api/`).catch(() => 0)) === 200) break;
    if (Date.now() > deadline) {
      const log = readLog(logFile);
      await stop();
      throw new Error(`moto_server did not answer on ${endpoint} within ${READY_TIMEOUT_MS / 1000} s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  let proxy: { port: number; stop: () => Promise<void> } | undefined;
  if (options.nlbInterfaces !== false) {
    try {
      proxy = await startNlbProxy(endpoint);
    } catch (e) {
      await stop();
      throw e;
    }
  }
  const front = proxy ? `http://127.0.0.1:${proxy.port}` : endpoint;
  const server: MotoServer = {
    endpoint: front,
    port: proxy?.port ?? port,
    upstream: endpoint,
    setProxyKeys: async (keys) => {
      if (!proxy) return;
      const status = await request('POST', `${front}/__moto-nlb-proxy/keys`, JSON.stringify(keys));
      if (status !== 204) throw new Error(`moto-nlb-proxy: setting keys failed with HTTP ${status}`);
    },
    env: {
      AWS_ENDPOINT_URL: front,
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      AWS_REGION: 'us-east-1',
      AWS_EC2_METADATA_DISABLED: 'true',
      // Tests apply with local stores against moto, where no instance boots; users must use s3:// (docs/state-stores.md).
      KFORGE_ALLOW_LOCAL_STATE_FOR_NODES: 'test-only',
    },
    reset: async () => {
      const status = await request('POST', `${endpoint}/moto-api/reset`);
      if (status !== 200) throw new Error(`moto reset failed with HTTP ${status}`);
    },
    stop: async () => {
      await proxy?.stop();
      await stop();
    },
  };
  return server;
}

/** Starts test/helpers/moto-nlb-proxy.js in front of `upstream` and resolves once it printed its port. */
function startNlbProxy(upstream: string): Promise<{ port: number; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [path.join(__dirname, 'moto-nlb-proxy.js'), upstream], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  });
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.on('exit', killOnExit);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    process.off('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => void stop().then(() => reject(new Error('moto-nlb-proxy did not start within 10 s'))), 10_000);
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const m = /^(\d+)\n/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      // Nothing more is read: the pipe must not keep jest's event loop alive.
      child.stdout?.destroy();
      child.unref();
      resolve({ port: Number(m[1]), stop });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`moto-nlb-proxy exited early (status ${code})`));
    });
  });
}

/** A port that was free a moment ago: the OS picks it for port 0, then it is released for moto. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** One HTTP request without keep-alive (no sockets left open for jest to wait on); resolves to the status. */
function request(method: string, url: string, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent: false, timeout: 2000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

function readLog(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').slice(-4000);
  } catch {
    return '(no log)';
  }
}

/** Every source of the AWS SDK's default credential chain switched off, and IMDS disabled so nothing waits on it. */
export const AWS_NO_CREDENTIALS: Record<string, string | undefined> = {
  AWS_ACCESS_KEY_ID: undefined,
  AWS_SECRET_ACCESS_KEY: undefined,
  AWS_SESSION_TOKEN: undefined,
  AWS_PROFILE: undefined,
  AWS_WEB_IDENTITY_TOKEN_FILE: undefined,
  AWS_ROLE_ARN: undefined,
  AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: undefined,
  AWS_CONTAINER_CREDENTIALS_FULL_URI: undefined,
  AWS_EC2_METADATA_DISABLED: 'true',
  AWS_CONFIG_FILE: '/nonexistent/kforge-test/config',
  AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/kforge-test/credentials',
};

/**
 * The environment a `kforge` child process gets in a test against `moto`: its endpoint and fake credentials,
 * and nothing of the runner's AWS setup (no profile, session token, config or credentials file, no IMDS),
 * with `home` as HOME. Spread it and add what a test needs (`CI`, a proxy's endpoint).
 */
export function cliEnvOf(moto: MotoServer, home: string): NodeJS.ProcessEnv {
  return {
    ...moto.env,
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    HOME: home,
    AWS_PROFILE: undefined,
    AWS_SESSION_TOKEN: undefined,
    AWS_CONFIG_FILE: path.join(home, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: path.join(home, 'no-aws-credentials'),
  };
}
