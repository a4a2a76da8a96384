import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeGoogleSigner, signIdentityToken } from './fake-google-identity';

/** The instance the fake describes: what GCE's metadata server says about the VM it runs on. */
export interface FakeGceInstance {
  /** The numeric instance id, as a decimal string. */
  id: string;
  name: string;
  /** The zone's short name, e.g. `us-central1-a` (served as `projects/<number>/zones/<zone>`). */
  zone: string;
  /** network-interfaces/0/ip. */
  internalIp: string;
  /** Custom metadata (`cluster-name`, `kops-k8s-io-instance-group-name`, `startup-script`, ...). */
  attributes: Record<string, string>;
  /** The default service account's email; its token is served at service-accounts/default/token. */
  serviceAccountEmail: string;
  scopes: string[];
}

/** The project the instance is in. */
export interface FakeGceProject {
  id: string;
  numericId: string;
}

/** What the fake signs identity tokens with, and what it says about the VM's creation; absent: the identity path is 404. */
export interface FakeGceMetadataOptions {
  /** Google's key that signs `service-accounts/default/identity` tokens (its public half in a fake JWKS). */
  signer?: Pick<FakeGoogleSigner, 'kid' | 'privateKey'>;
  /** `google.compute_engine.instance_creation_timestamp` (seconds); default 1767225600. */
  creationTimestamp?: number;
  /** Default: the clock. */
  now?: () => Date;
}

/** A running fake metadata server. */
export interface FakeGceMetadata {
  /** `http://127.0.0.1:<port>`, for tests that build URLs. */
  endpoint: string;
  /** `127.0.0.1:<port>`: the value of GCE_METADATA_HOST, as Google's client libraries and the boot script read it (no scheme). */
  host: string;
  /** Every request as `METHOD path?query`. */
  requests: string[];
  /** Whether `token` is an access token this server issued (fake GCS and Compute servers check bearers with it). */
  issued(token: string): boolean;
  instance: FakeGceInstance;
  project: FakeGceProject;
  stop(): Promise<void>;
}

const TEXT = { 'content-type': 'application/text', 'metadata-flavor': 'Google' };
const JSON_TYPE = { 'content-type': 'application/json', 'metadata-flavor': 'Google' };

/**
 * A small stateful fake of GCE's metadata server (no emulator exists), honest to its paths, shapes and
 * status codes: everything is under `/computeMetadata/v1/`; a request without `Metadata-Flavor: Google`, or
 * with `X-Forwarded-For`, is 403; methods other than GET are 405; a directory asked without its trailing
 * slash is a 301 to it; a directory lists its entries one per line (subdirectories with a `/`), or as JSON
 * with `?recursive=true`; an unknown path is 404; values are `application/text`; every answer carries
 * `Metadata-Flavor: Google`. `instance/zone` is `projects/<number>/zones/<zone>`, `instance/hostname` the
 * internal FQDN `<name>.<zone>.c.<project>.internal`, and `instance/service-accounts/default/token` a fresh
 * bearer token `{access_token, expires_in, token_type}` that `issued()` recognises. With a signer,
 * `instance/service-accounts/default/identity?audience=…[&format=full]` is an RS256 instance identity token
 * for that audience (Google's claims; `google.compute_engine` only with `format=full`), a missing audience 400.
 */
export async function startFakeGceMetadata(instance: FakeGceInstance, project: FakeGceProject, options: FakeGceMetadataOptions = {}): Promise<FakeGceMetadata> {
  const requests: string[] = [];
  const tokens = new Set<string>();
  // The tree the paths walk: strings are values, objects directories, functions values computed per request.
  const tree = (): Record<string, unknown> => ({
    instance: {
      id: instance.id,
      name: instance.name,
      hostname: `${instance.name}.${instance.zone}.c.${project.id}.internal`,
      zone: `projects/${project.numericId}/zones/${instance.zone}`,
      'machine-type': `projects/${project.numericId}/machineTypes/e2-medium`,
      attributes: { ...instance.attributes },
      'network-interfaces': { '0': { ip: instance.internalIp, network: `projects/${project.numericId}/networks/default` } },
      'service-accounts': {
        default: { email: instance.serviceAccountEmail, scopes: instance.scopes.join('\n') + '\n', aliases: 'default\n', token: issueToken, ...identity },
        [instance.serviceAccountEmail]: { email: instance.serviceAccountEmail, scopes: instance.scopes.join('\n') + '\n', aliases: 'default\n', token: issueToken, ...identity },
      },
    },
    project: { 'project-id': project.id, 'numeric-project-id': project.numericId, attributes: {} },
  });
  const identity = options.signer ? { identity: issueIdentity } : {};
  // GCE's identity endpoint: a token for the caller's audience, signed by Google, about this VM.
  function issueIdentity(url: URL): string | { status: number; body: string } {
    const audience = url.searchParams.get('audience');
    if (!audience) return { status: 400, body: 'non-empty audience parameter required\n' };
    const format = url.searchParams.get('format') ?? 'standard';
    if (format !== 'standard' && format !== 'full') return { status: 400, body: `invalid format parameter: ${format}\n` };
    const compute = { project_id: project.id, project_number: Number(project.numericId), zone: instance.zone, instance_id: instance.id, instance_name: instance.name, instance_creation_timestamp: options.creationTimestamp ?? 1767225600 };
    return signIdentityToken(options.signer as FakeGoogleSigner, { aud: audience, email: instance.serviceAccountEmail, ...(format === 'full' ? { compute } : {}) }, options.now?.());
  }
  function issueToken(): string {
    const token = `ya29.fake-${randomBytes(12).toString('hex')}`;
    tokens.add(token);
    return JSON.stringify({ access_token: token, expires_in: 3599, token_type: 'Bearer' });
  }
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://metadata.google.internal');
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    if (req.headers['x-forwarded-for'] !== undefined || req.headers['metadata-flavor'] !== 'Google') {
      return void res.writeHead(403, { 'content-type': 'text/html; charset=UTF-8', 'metadata-flavor': 'Google' }).end("Missing required header 'Metadata-Flavor': 'Google'\n");
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, TEXT).end();
    if (url.pathname === '/') return void res.writeHead(200, TEXT).end('computeMetadata/\n');
    const prefix = '/computeMetadata/v1/';
    const rest = url.pathname === '/computeMetadata/v1' ? '' : url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : undefined;
    if (rest === undefined) return void res.writeHead(404, TEXT).end('Not Found\n');
    const segments = rest.split('/');
    const trailing = segments[segments.length - 1] === '';
    if (trailing) segments.pop();
    let node: unknown = tree();
    for (const s of segments) {
      node = typeof node === 'object' && node !== null && Object.prototype.hasOwnProperty.call(node, s) ? (node as Record<string, unknown>)[s] : undefined;
      if (node === undefined) return void res.writeHead(404, TEXT).end('Not Found\n');
    }
    if (typeof node === 'function') node = (node as (u: URL) => unknown)(url);
    if (typeof node === 'object' && node !== null && typeof (node as { status?: unknown }).status === 'number') {
      const failed = node as { status: number; body: string };
      return void res.writeHead(failed.status, TEXT).end(failed.body);
    }
    if (typeof node === 'string') {
      const json = node.startsWith('{');
      return void res.writeHead(200, json ? JSON_TYPE : TEXT).end(node);
    }
    // A directory: without its slash, a redirect to it.
    if (!trailing && url.pathname !== '/computeMetadata/v1') return void res.writeHead(301, { ...TEXT, location: `${url.pathname}/${url.search}` }).end();
    if (url.searchParams.get('recursive') === 'true') return void res.writeHead(200, JSON_TYPE).end(JSON.stringify(recursive(node as Record<string, unknown>)));
    const entries = Object.entries(node as Record<string, unknown>).map(([k, v]) => (typeof v === 'object' ? `${k}/` : k));
    return void res.writeHead(200, TEXT).end(entries.map((e) => `${e}\n`).join(''));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    requests,
    issued: (token) => tokens.has(token),
    instance,
    project,
    stop: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** A directory as the server's `?recursive=true` JSON: camelCase keys but the attributes' own, tokens left out (never listed). */
function recursive(dir: Record<string, unknown>, camel = true): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(dir)) {
    if (typeof v === 'function') continue;
    const key = camel ? k.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase()) : k;
    out[key] = typeof v === 'object' && v !== null ? recursive(v as Record<string, unknown>, k !== 'attributes') : v;
  }
  return out;
}
