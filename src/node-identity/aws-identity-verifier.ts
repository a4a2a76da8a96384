import * as http from 'node:http';
import * as https from 'node:https';
import { AWS_TOKEN_PREFIX, requestSha, STS_GET_CALLER_IDENTITY_BODY } from './aws-identity-token';
import { IdentityDenied } from './identity-denied';

/** What DescribeInstances says of one instance, as far as the verifier needs it. */
export interface InstanceFacts {
  instanceId: string;
  /** EC2's state name: `running`, `terminated`, … */
  state: string;
  privateDnsName: string;
  tags: Readonly<Record<string, string>>;
}

/** Who the verifier found: the instance, its group, and the node name it may have a certificate for. */
export interface VerifiedNode {
  instanceId: string;
  instanceGroup: string;
  role: string;
  nodeName: string;
}

/** The verifier's configuration: the cluster's facts, never anything from a request. */
export interface AwsIdentityVerifierOptions {
  clusterName: string;
  region: string;
  /**
   * The STS endpoint the signed request is executed against: the cluster region's (`regionalStsEndpoint`),
   * or a test's moto server. Injected by the service's own configuration; a request's Host must name it.
   */
  stsEndpoint: string;
  /** The AWS account the cluster's roles live in; an ARN of another account is refused. */
  accountId: string;
  /** Each of this cluster's instance roles (by role name) and the instance groups that run with it. */
  roles: ReadonlyMap<string, readonly string[]>;
  /** DescribeInstances of one instance id (undefined when EC2 does not know it). */
  describeInstance(instanceId: string): Promise<InstanceFacts | undefined>;
  /** Default: the clock. */
  now?: () => Date;
}

/** kops's limit: a signature older than this is refused (SigV4's own limit at STS is the same). */
export const MAX_TOKEN_AGE_MS = 15 * 60 * 1000;
// A clock ahead of ours by more than this is refused too: a future date would stretch the replay window.
const MAX_CLOCK_AHEAD_MS = 5 * 60 * 1000;
// The STS answer is small; more is not STS.
const MAX_STS_RESPONSE = 64 * 1024;
const STS_TIMEOUT_MS = 10_000;
// Signatures are remembered before STS checks them; a flood of forged ones must not grow memory without end.
const MAX_REMEMBERED = 100_000;

/**
 * Verifies a node's AWS identity as kops-controller does (pkg/bootstrap/awsbootstrap/verifier.go, v1
 * tokens): the token is a signed sts:GetCallerIdentity request, bound to the bootstrap body by the sha256
 * header, which the verifier itself sends to the STS endpoint of the cluster's region (never a host from
 * the request). AWS answers with `assumed-role/<role>/<instance id>`; the role must be one of this
 * cluster's, the instance running, tagged with this cluster, in a group of that role. Each signature is
 * accepted once (the seen ones are kept for the 15 minutes they stay valid).
 */
export class AwsIdentityVerifier {
  private readonly seen = new Map<string, number>();
  private readonly stsUrl: URL;

  constructor(private readonly options: AwsIdentityVerifierOptions) {
    this.stsUrl = new URL(options.stsEndpoint);
  }

  /** Checks `authorization` for `body`; resolves to the verified node, or rejects with IdentityDenied naming the reason. */
  async verify(authorization: string | undefined, body: Buffer): Promise<VerifiedNode> {
    const headers = decodeToken(authorization);
    if (headers.get('x-kops-request-sha') !== requestSha(body)) throw new IdentityDenied('the token does not sign this request body (X-Kops-Request-Sha differs)');
    const auth = parseAuthorization(headers.get('authorization'));
    for (const h of ['host', 'x-amz-date', 'x-kops-request-sha']) if (!auth.signedHeaders.includes(h)) throw new IdentityDenied(`the signature does not cover the ${h} header`);
    const [, , region, service] = auth.credential.split('/');
    if (service !== 'sts' || region !== this.options.region) throw new IdentityDenied(`the signature is for ${service ?? '?'} in ${region ?? '?'}, not sts in ${this.options.region}`);
    const host = headers.get('host');
    if (host !== this.stsUrl.host) throw new IdentityDenied(`the request is signed for host ${JSON.stringify(host)}, not this cluster's STS endpoint ${this.stsUrl.host}`);
    const now = (this.options.now ?? (() => new Date()))().getTime();
    const signedAt = parseAmzDate(headers.get('x-amz-date'));
    if (now - signedAt > MAX_TOKEN_AGE_MS) throw new IdentityDenied(`the signature is ${Math.round((now - signedAt) / 60000)} minutes old (at most 15)`);
    if (signedAt - now > MAX_CLOCK_AHEAD_MS) throw new IdentityDenied(`the signature is dated ${Math.round((signedAt - now) / 60000)} minutes in the future`);
    this.remember(auth.signature, signedAt, now);
    const arn = await this.callerArn(headers);
    return this.checkArn(arn);
  }

  // Marks a signature used before STS is asked, so concurrent replays of one token cannot both pass.
  private remember(signature: string, signedAt: number, now: number): void {
    for (const [s, at] of this.seen) if (now - at > MAX_TOKEN_AGE_MS + MAX_CLOCK_AHEAD_MS) this.seen.delete(s);
    if (this.seen.has(signature)) throw new IdentityDenied('the signed request was already used (replay)');
    if (this.seen.size >= MAX_REMEMBERED) throw new IdentityDenied(`over ${MAX_REMEMBERED} signed requests in the last 15 minutes; refusing more until they age out`, 503);
    this.seen.set(signature, signedAt);
  }

  private async callerArn(headers: Map<string, string>): Promise<string> {
    const forward: Record<string, string> = { 'content-length': String(Buffer.byteLength(STS_GET_CALLER_IDENTITY_BODY)) };
    for (const h of ['authorization', 'content-type', 'host', 'x-amz-date', 'x-amz-security-token', 'x-kops-request-sha']) {
      const v = headers.get(h);
      if (v !== undefined) forward[h] = v;
    }
    const { status, body } = await post(this.stsUrl, forward);
    if (status !== 200) throw new IdentityDenied(`STS refused the signed request (HTTP ${status}${stsErrorCode(body)})`);
    const arn = xmlField(body, 'Arn');
    const account = xmlField(body, 'Account');
    if (!arn) throw new IdentityDenied('the STS answer has no Arn');
    if (account !== this.options.accountId) throw new IdentityDenied(`the caller is in account ${account ?? '?'}, not ${this.options.accountId}`);
    return arn;
  }

  private async checkArn(arn: string): Promise<VerifiedNode> {
    const m = /^arn:[a-z-]+:sts::(\d{12}):assumed-role\/([\w+=,.@-]+)\/([\w+=,.@-]+)$/.exec(arn);
    if (!m) throw new IdentityDenied(`caller ${arn} is not an assumed role`);
    const [, , role, session] = m;
    const groups = this.options.roles.get(role);
    if (!groups) throw new IdentityDenied(`caller ${arn}: role ${role} is not an instance role of cluster ${this.options.clusterName}`);
    if (!/^i-[0-9a-f]{8,17}$/.test(session)) throw new IdentityDenied(`caller ${arn}: session name ${session} is not an instance id`);
    let instance: InstanceFacts | undefined;
    try {
      instance = await this.options.describeInstance(session);
    } catch (e) {
      // The node may retry: the service, not the node, could not finish the check.
      throw new IdentityDenied(`caller ${arn}: DescribeInstances of ${session} failed: ${e instanceof Error ? e.message : String(e)}`, 503);
    }
    if (!instance) throw new IdentityDenied(`caller ${arn}: instance ${session} does not exist`);
    if (instance.state !== 'running') throw new IdentityDenied(`caller ${arn}: instance ${session} is ${instance.state}, not running`);
    const c = this.options.clusterName;
    if (instance.tags.KubernetesCluster !== c && instance.tags[`kubernetes.io/cluster/${c}`] === undefined) throw new IdentityDenied(`caller ${arn}: instance ${session} is not tagged with cluster ${c}`);
    const group = instance.tags['kops.k8s.io/instancegroup'];
    if (!group || !groups.includes(group)) throw new IdentityDenied(`caller ${arn}: instance ${session} is in group ${group ?? '(none)'}, and role ${role} is for ${groups.join(', ')}`);
    if (!instance.privateDnsName) throw new IdentityDenied(`caller ${arn}: instance ${session} has no private DNS name`);
    return { instanceId: session, instanceGroup: group, role, nodeName: instance.privateDnsName.toLowerCase() };
  }
}

/** The token's headers, lowercased names, one value each; refuses anything but a kops v1 AWS token. */
function decodeToken(authorization: string | undefined): Map<string, string> {
  if (!authorization?.startsWith(AWS_TOKEN_PREFIX)) throw new IdentityDenied('no AWS identity token (Authorization: x-aws-sts …)');
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(authorization.slice(AWS_TOKEN_PREFIX.length), 'base64').toString('utf8'));
  } catch {
    throw new IdentityDenied('the AWS identity token is not base64 JSON', 400);
  }
  if (typeof decoded !== 'object' || decoded === null || Array.isArray(decoded)) throw new IdentityDenied('the AWS identity token is not a header map', 400);
  const headers = new Map<string, string>();
  for (const [k, v] of Object.entries(decoded as Record<string, unknown>)) {
    if (!Array.isArray(v) || v.length !== 1 || typeof v[0] !== 'string' || /[\r\n]/.test(v[0])) throw new IdentityDenied(`the AWS identity token's header ${JSON.stringify(k)} is not one line`, 400);
    if (headers.has(k.toLowerCase())) throw new IdentityDenied(`the AWS identity token repeats header ${JSON.stringify(k)}`, 400);
    headers.set(k.toLowerCase(), v[0]);
  }
  return headers;
}

function parseAuthorization(value: string | undefined): { credential: string; signedHeaders: string[]; signature: string } {
  if (!value?.startsWith('AWS4-HMAC-SHA256 ')) throw new IdentityDenied('the token is not signed with AWS4-HMAC-SHA256');
  const parts = new Map(value.slice('AWS4-HMAC-SHA256 '.length).split(/,\s*/).map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
  const credential = parts.get('Credential') ?? '';
  const signature = parts.get('Signature') ?? '';
  if (!credential || !/^[0-9a-f]{64}$/.test(signature)) throw new IdentityDenied('the token has no credential or signature');
  return { credential, signature, signedHeaders: (parts.get('SignedHeaders') ?? '').split(';') };
}

function parseAmzDate(value: string | undefined): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value ?? '');
  if (!m) throw new IdentityDenied(`the token's X-Amz-Date ${JSON.stringify(value)} is not a SigV4 date`);
  return Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
}

// STS's answer is a small fixed XML document (GetCallerIdentityResponse); one element's text is enough.
function xmlField(xml: string, name: string): string | undefined {
  return new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];
}

function stsErrorCode(xml: string): string {
  const code = xmlField(xml, 'Code');
  return code ? `, ${code}` : '';
}

/** POSTs GetCallerIdentity with the token's headers to the configured STS URL; a bounded answer. */
function post(url: URL, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, { method: 'POST', path: '/', headers, timeout: STS_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_STS_RESPONSE) req.destroy(new Error('the STS answer is too large'));
        else chunks.push(c);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`STS did not answer within ${STS_TIMEOUT_MS / 1000} s`)));
    req.on('error', (e) => reject(new IdentityDenied(`STS at ${url.host} could not be asked: ${e.message}`, 503)));
    req.end(STS_GET_CALLER_IDENTITY_BODY);
  });
}
