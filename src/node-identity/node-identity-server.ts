import { createPublicKey, KeyObject } from 'node:crypto';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Keypair } from '../pki/keypair';
import type { VerifiedNode } from './aws-identity-verifier';
import { IdentityDenied } from './identity-denied';
import { issueNodeCertificates, NODE_CERT_SUBJECTS } from './node-client-certificate';

/** The API version of a bootstrap request and answer (kops's nodeup.BootstrapAPIVersion). */
export const BOOTSTRAP_API_VERSION = 'bootstrap.kops.k8s.io/v1alpha1';
/** The largest bootstrap body accepted: two PEM public keys and a name fit in a fraction of it. */
export const MAX_BOOTSTRAP_BODY = 16 * 1024;

/** A bootstrap request: kops's shape, plus the node name the node claims. */
export interface BootstrapRequest {
  apiVersion: string;
  /** The name the node's kubelet registers under; must equal the name the cloud gives the instance. Only needed with certs. */
  nodeName?: string;
  /** Certificate name (`kubelet`, `kube-proxy`) to the PEM SubjectPublicKeyInfo of a key made on the node; may be empty with includeNodeConfig. */
  certs: Record<string, string>;
  /** kops's IncludeNodeConfig: also answer with the nodeup config of the verified instance's group (nodes without state-store access). */
  includeNodeConfig?: boolean;
}

/** What the server needs: its TLS identity, the CA it issues from, how it verifies, where it logs. */
export interface NodeIdentityServerOptions {
  /** Serving certificate and key (issued from kops-controller-ca), PEM. */
  tls: { cert: string; key: string };
  /** kubernetes-ca's primary keypair, with its private key. */
  ca: Keypair;
  /** Verifies the request's proof of identity for its raw body. */
  verify(authorization: string | undefined, body: Buffer): Promise<VerifiedNode>;
  /** With spec.nodeIdentity.mode Approval: answers every request from the approval queue instead of `verify` (approval-handler.ts). */
  approval?: (body: Buffer, source: string) => Promise<ServiceAnswer>;
  /** One line per decision. */
  log(line: string): void;
  now?: () => Date;
  /** The stored nodeupconfig.yaml (its exact bytes) of the verified node's instance group: answers includeNodeConfig. */
  nodeConfig?(node: VerifiedNode): Promise<string>;
  /** The nodeup bundle whose sha256 is this (lowercase hex), or undefined: answers `GET /nodeup/<sha256>`. */
  nodeupArtifact?(sha256: string): Promise<Buffer | undefined>;
}

/** An answer of the service: its status, the JSON body sent, the decision's log line. */
export interface ServiceAnswer {
  status: number;
  body: unknown;
  line: string;
}

/** A running service. */
export interface NodeIdentityServer {
  server: https.Server;
  port: number;
  close(): Promise<void>;
}

/**
 * The node-identity service (kops's kops-controller bootstrap server), HTTPS only: `POST /bootstrap` with
 * a body of at most 16 KiB and the proof in `Authorization`. A node whose proof holds, and whose claimed
 * name is the instance's, gets its kubelet certificate (`CN=system:node:<name>`, `O=system:nodes`) and, if
 * asked, kube-proxy's, for public keys it made itself. Every decision is one log line with the reason; the
 * caller only learns the status.
 */
export async function startNodeIdentityServer(options: NodeIdentityServerOptions, listen: { port: number; host?: string }): Promise<NodeIdentityServer> {
  const server = https.createServer({ cert: options.tls.cert, key: options.tls.key, minVersion: 'TLSv1.2' }, (req, res) => {
    const remote = `${req.socket.remoteAddress ?? '?'}:${req.socket.remotePort ?? '?'}`;
    const answer = (status: number, body: unknown, line: string): void => {
      options.log(`kops-controller: ${remote} ${req.method ?? '?'} ${req.url ?? '?'} ${status} ${line}`);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/healthz' && req.method === 'GET') return void res.end('ok');
    const artifact = /^\/nodeup\/([0-9a-f]{64})$/.exec(req.url ?? '');
    if (artifact && req.method === 'GET' && options.nodeupArtifact) return void serveNodeup(options, artifact[1], res, (status, line) => options.log(`kops-controller: ${remote} GET ${req.url ?? '?'} ${status} ${line}`));
    if (req.url !== '/bootstrap' || req.method !== 'POST') return answer(404, { error: 'not found' }, 'denied: not POST /bootstrap');
    readBounded(req, MAX_BOOTSTRAP_BODY)
      .then((body) => (options.approval ? options.approval(body, req.socket.remoteAddress ?? '?') : handle(options, req.headers.authorization, body)))
      .then(
        (a) => answer(a.status, a.body, a.line),
        (e: unknown) => {
          if (e instanceof IdentityDenied) answer(e.status, e.answer ?? { error: e.status === 413 ? 'request too large' : 'failed to verify the request' }, `denied: ${e.reason}`);
          else answer(500, { error: 'internal error' }, `failed: ${e instanceof Error ? e.message : String(e)}`);
          // An oversized body is not read to its end: close the connection rather than drain it.
          if (e instanceof IdentityDenied && e.status === 413) req.socket.destroySoon();
        },
      );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function handle(options: NodeIdentityServerOptions, authorization: string | undefined, body: Buffer): Promise<ServiceAnswer> {
  const request = parseBootstrapRequest(body);
  const keys = parsePublicKeys(request);
  const node = await options.verify(authorization, body);
  if (request.nodeName !== undefined && request.nodeName !== node.nodeName) throw new IdentityDenied(`instance ${node.instanceId} (group ${node.instanceGroup}) claims node name ${request.nodeName}, but its node name is ${node.nodeName}`);
  const now = options.now?.() ?? new Date();
  const certs = issueNodeCertificates(options.ca, keys, node.nodeName, now);
  let nodeConfig: string | undefined;
  if (request.includeNodeConfig) {
    if (!options.nodeConfig) throw new IdentityDenied('includeNodeConfig: this service serves no nodeup configs', 400);
    nodeConfig = await options.nodeConfig(node);
  }
  const did = [Object.keys(certs).length > 0 ? `issued ${Object.keys(certs).sort().join(', ')}` : '', nodeConfig !== undefined ? `sent the nodeup config of group ${node.instanceGroup}` : ''].filter((x) => x).join(' and ');
  return {
    status: 200,
    body: nodeConfig === undefined ? { certs } : { certs, nodeConfig: { nodeupConfig: nodeConfig } },
    line: `${did} for node ${node.nodeName} (instance ${node.instanceId}, group ${node.instanceGroup}, role ${node.role})`,
  };
}

/** The request's public keys by certificate name, each checked (a 400 names the bad one). */
export function parsePublicKeys(request: BootstrapRequest): Map<string, KeyObject> {
  const keys = new Map<string, KeyObject>();
  for (const [name, pem] of Object.entries(request.certs ?? {})) keys.set(name, parsePublicKey(name, pem));
  return keys;
}

/** Parses and checks a bootstrap body's shape; anything else is a 400 with the reason. */
export function parseBootstrapRequest(body: Buffer): BootstrapRequest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new IdentityDenied('the body is not JSON', 400);
  }
  const r = parsed as Partial<BootstrapRequest> | null;
  if (typeof r !== 'object' || r === null || Array.isArray(r)) throw new IdentityDenied('the body is not a JSON object', 400);
  if (r.apiVersion !== BOOTSTRAP_API_VERSION) throw new IdentityDenied(`apiVersion ${JSON.stringify(r.apiVersion)} is not ${BOOTSTRAP_API_VERSION}`, 400);
  if (r.includeNodeConfig !== undefined && typeof r.includeNodeConfig !== 'boolean') throw new IdentityDenied('includeNodeConfig is not a boolean', 400);
  const configOnly = r.includeNodeConfig === true && (r.certs === undefined || (typeof r.certs === 'object' && r.certs !== null && Object.keys(r.certs).length === 0));
  // A request for the config alone names no node: the config is the group's, not a node's.
  if (!(configOnly && r.nodeName === undefined) && (typeof r.nodeName !== 'string' || !/^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$/.test(r.nodeName))) throw new IdentityDenied(`nodeName ${JSON.stringify(r.nodeName)} is not a node name`, 400);
  const certs = r.certs ?? {};
  if (typeof certs !== 'object' || certs === null || Array.isArray(certs) || (!configOnly && Object.keys(certs).length === 0)) throw new IdentityDenied('certs names no certificate', 400);
  for (const [name, pem] of Object.entries(certs)) {
    if (!Object.hasOwn(NODE_CERT_SUBJECTS, name)) throw new IdentityDenied(`certs.${name}: not a certificate this service issues (${Object.keys(NODE_CERT_SUBJECTS).join(', ')})`, 400);
    if (typeof pem !== 'string') throw new IdentityDenied(`certs.${name}: not a PEM public key`, 400);
  }
  return { apiVersion: r.apiVersion, nodeName: r.nodeName, certs: certs as Record<string, string>, ...(r.includeNodeConfig ? { includeNodeConfig: true } : {}) };
}

function parsePublicKey(name: string, pem: string): KeyObject {
  let key: KeyObject;
  try {
    if (!pem.startsWith('-----BEGIN PUBLIC KEY-----')) throw new Error('not PEM');
    key = createPublicKey(pem);
  } catch {
    throw new IdentityDenied(`certs.${name}: not a PEM public key`, 400);
  }
  const ok = key.asymmetricKeyType === 'ec' ? ['prime256v1', 'secp384r1'].includes(key.asymmetricKeyDetails?.namedCurve ?? '') : key.asymmetricKeyType === 'rsa' && (key.asymmetricKeyDetails?.modulusLength ?? 0) >= 2048;
  if (!ok) throw new IdentityDenied(`certs.${name}: the key must be ECDSA P-256/P-384 or RSA of 2048 bits or more`, 400);
  return key;
}

/** Reads a request body, refusing (413) more than `limit` bytes, by the header or as it arrives. */
function readBounded(req: NodeJS.ReadableStream & { headers: Record<string, unknown> }, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) return reject(new IdentityDenied(`the body is ${declared} bytes (at most ${limit})`, 413));
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer): void => {
      size += c.length;
      if (size > limit) {
        req.removeListener('data', onData);
        req.pause();
        reject(new IdentityDenied(`the body is over ${limit} bytes`, 413));
      } else chunks.push(c);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * `GET /nodeup/<sha256>`: the nodeup bundle with that hash, without authentication: it is this build's public
 * code, content-addressed (the node checks the hash user-data gives it), and holds no secret.
 */
function serveNodeup(options: NodeIdentityServerOptions, sha256: string, res: import('node:http').ServerResponse, log: (status: number, line: string) => void): void {
  (options.nodeupArtifact as (sha: string) => Promise<Buffer | undefined>)(sha256).then(
    (data) => {
      if (!data) {
        log(404, `no nodeup bundle ${sha256}`);
        res.writeHead(404, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ error: 'not found' }));
      }
      log(200, `sent nodeup bundle ${sha256} (${data.length} bytes)`);
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': data.length });
      res.end(data);
    },
    (e: unknown) => {
      log(503, `failed: ${e instanceof Error ? e.message : String(e)}`);
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'unavailable' }));
    },
  );
}
