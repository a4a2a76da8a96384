import * as https from 'node:https';
import * as tls from 'node:tls';
import { AwsCredentials, createAwsIdentityToken, regionalStsEndpoint } from './aws-identity-token';
import { fetchGceIdentityToken, GCE_TOKEN_PREFIX, gceIdentityAudience } from './gce-identity-token';
import { BOOTSTRAP_API_VERSION } from './node-identity-server';
import { NodeIdentityError } from './node-identity-error';

/** Where and how a node asks the node-identity service for its certificates. */
export interface NodeCertificateClientOptions {
  cluster: string;
  /** The service's URLs, tried in order (the config's ConfigServer.Servers). */
  servers: string[];
  /** The kops-controller-ca bundle the service's certificate must chain to; nothing else is trusted. */
  caCertificates: string;
  region: string;
  /** The machine's credentials (the instance role's, from IMDS through the SDK's default chain). Default: that chain. */
  credentials?: () => Promise<AwsCredentials>;
  /** Environment: AWS_ENDPOINT_URL_STS / AWS_ENDPOINT_URL move the STS endpoint signed for, as for the SDK; GCE_METADATA_HOST the metadata server. Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /**
   * The machine's cloud (the boot config's CloudProvider), which decides the proof: `aws` (default) signs
   * sts:GetCallerIdentity; `gce` sends Google's instance identity token from the metadata server.
   */
  cloud?: string;
}

// A nodeup config is a few tens of KiB (CA bundles, flags); certificates far less.
const MAX_ANSWER = 1024 * 1024;
const TIMEOUT_MS = 30_000;

/**
 * Sends the public keys a node made and the node name it claims to the node-identity service, with a
 * sts:GetCallerIdentity request signed by the machine's credentials as proof (on GCE: Google's instance
 * identity token), over TLS pinned to
 * kops-controller-ca and checked against `kops-controller.internal.<cluster>` whatever address it dials;
 * returns the issued certificates by name. A refusal names the status; the service's log has the reason.
 */
export async function requestNodeCertificates(nodeName: string, publicKeys: Record<string, string>, options: NodeCertificateClientOptions): Promise<Record<string, string>> {
  const body = JSON.stringify({ apiVersion: BOOTSTRAP_API_VERSION, nodeName, certs: publicKeys });
  return bootstrap(body, options, `node ${nodeName}'s certificates`, (server, answer) => {
    const certs = (answer as { certs?: Record<string, unknown> }).certs ?? {};
    const missing = Object.keys(publicKeys).filter((k) => typeof certs[k] !== 'string');
    if (missing.length > 0) throw new NodeIdentityError(`${server} issued no ${missing.join(', ')} certificate`);
    return certs as Record<string, string>;
  });
}

/**
 * Asks the node-identity service for the nodeup config of this machine's instance group (kops's
 * `includeNodeConfig`), proving the machine's identity as for certificates; returns the config's text exactly
 * as the service sent it, for the caller to check against the hash in user-data.
 */
export async function requestNodeConfig(options: NodeCertificateClientOptions): Promise<string> {
  const body = JSON.stringify({ apiVersion: BOOTSTRAP_API_VERSION, certs: {}, includeNodeConfig: true });
  return bootstrap(body, options, 'the nodeup config', (server, answer) => {
    const config = (answer as { nodeConfig?: { nodeupConfig?: unknown } }).nodeConfig?.nodeupConfig;
    if (typeof config !== 'string') throw new NodeIdentityError(`${server} answered 200 without nodeConfig.nodeupConfig`);
    return config;
  });
}

/** POSTs a bootstrap body to each server in turn until one answers 200, and reads that answer with `read`. */
async function bootstrap<T>(body: string, options: NodeCertificateClientOptions, what: string, read: (server: string, answer: unknown) => T): Promise<T> {
  const proof = await identityProof(options);
  const failures: string[] = [];
  for (const server of options.servers) {
    const authorization = proof(body);
    let answer: { status: number; body: string };
    try {
      answer = await postBootstrap(server, `kops-controller.internal.${options.cluster}`, options.caCertificates, body, authorization);
    } catch (e) {
      failures.push(`${server}: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    if (answer.status !== 200) {
      failures.push(`${server} answered HTTP ${answer.status} (the reason is in its log: journalctl -u kforge-kops-controller on the control plane)`);
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.body);
    } catch {
      throw new NodeIdentityError(`${server} answered 200 with a body that is not JSON`);
    }
    return read(server, parsed ?? {});
  }
  throw new NodeIdentityError(`no node-identity service sent ${what}: ${failures.join('; ')}`);
}

/** How this machine proves who it is, per request body: an AWS signature, or Google's identity token. */
async function identityProof(options: NodeCertificateClientOptions): Promise<(body: string) => string> {
  const env = options.env ?? process.env;
  if (options.cloud === 'gce') {
    // Google signs the instance's identity for the service's own name, whatever address reaches it; the token is not tied to the body.
    const token = GCE_TOKEN_PREFIX + (await fetchGceIdentityToken(gceIdentityAudience(options.cluster), env));
    return () => token;
  }
  const credentials = await (options.credentials ?? (() => defaultCredentials(options.region)))();
  const stsEndpoint = env.AWS_ENDPOINT_URL_STS || env.AWS_ENDPOINT_URL || regionalStsEndpoint(options.region);
  // A fresh signature per attempt: the service accepts each signed request once.
  return (body) => createAwsIdentityToken(body, { region: options.region, stsEndpoint, credentials });
}

async function defaultCredentials(region: string): Promise<AwsCredentials> {
  // The SDK's default chain: environment, then the instance role through IMDS, as every other AWS call of nodeup.
  const { STSClient } = await import('@aws-sdk/client-sts');
  const client = new STSClient({ region });
  try {
    const c = await client.config.credentials();
    return { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey, sessionToken: c.sessionToken };
  } catch (e) {
    throw new NodeIdentityError(`no AWS credentials to prove this machine's identity (the instance role, from instance metadata): ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    client.destroy();
  }
}

/** POSTs a bootstrap body to one server over TLS pinned to `ca` and checked against `name`; resolves with the status and body. */
export function postBootstrap(server: string, name: string, ca: string, body: string, authorization?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL('/bootstrap', server);
    if (url.protocol !== 'https:') return reject(new Error('not an https URL'));
    const req = https.request(
      url,
      {
        method: 'POST',
        ca,
        servername: name,
        // The service is known by its name, whatever address (load balancer, hosts entry) reaches it.
        checkServerIdentity: (_host, cert) => tls.checkServerIdentity(name, cert),
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        timeout: TIMEOUT_MS,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_ANSWER) req.destroy(new Error('the answer is too large'));
          else chunks.push(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    req.on('error', reject);
    req.end(body);
  });
}
