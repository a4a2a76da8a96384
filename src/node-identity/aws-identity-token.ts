import { createHash, createHmac } from 'node:crypto';

/** The prefix of kops's v1 AWS token (pkg/bootstrap/awsbootstrap): `x-aws-sts <base64 of the signed headers as JSON>`. */
export const AWS_TOKEN_PREFIX = 'x-aws-sts ';
/** The one request a token may stand for: its body is fixed, so only the headers travel. */
export const STS_GET_CALLER_IDENTITY_BODY = 'Action=GetCallerIdentity&Version=2011-06-15';
/** The header that binds the signature to the bootstrap request's body (kops's name). */
export const REQUEST_SHA_HEADER = 'X-Kops-Request-Sha';

/** AWS credentials, as the instance role hands them out (IMDS) or the SDK's providers resolve them. */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** The sha256 of a bootstrap body as the token carries it: base64 without padding (Go's RawStdEncoding). */
export function requestSha(body: Buffer | string): string {
  return createHash('sha256').update(body).digest('base64').replace(/=+$/, '');
}

/** The regional STS endpoint of a region (kops signs for the regional host too). */
export function regionalStsEndpoint(region: string): string {
  return `https://sts.${region}.amazonaws.com`;
}

/**
 * Signs sts:GetCallerIdentity with the node's credentials (SigV4, as kops's createTokenV1) for the STS
 * endpoint of the cluster's region, with the sha256 of `body` in a signed header so the token vouches for
 * exactly that request, and returns the Authorization value for the bootstrap request. The node never sends
 * its credentials: only the signature, which is good for this one call, at this one host, for 15 minutes.
 */
export function createAwsIdentityToken(body: Buffer | string, options: { region: string; stsEndpoint: string; credentials: AwsCredentials; now?: Date }): string {
  const url = new URL(options.stsEndpoint);
  const now = options.now ?? new Date();
  const amzDate = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = {
    'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8',
    Host: url.host,
    [REQUEST_SHA_HEADER]: requestSha(body),
    'X-Amz-Date': amzDate,
    ...(options.credentials.sessionToken ? { 'X-Amz-Security-Token': options.credentials.sessionToken } : {}),
  };
  const names = Object.keys(headers).map((h) => h.toLowerCase()).sort();
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v.trim()]));
  const signedHeaders = names.join(';');
  // SigV4's canonical request: method, path, empty query, the headers (each line ending in a newline), their names, the body's hash.
  const canonical = ['POST', '/', '', names.map((n) => `${n}:${lower.get(n)}\n`).join(''), signedHeaders, sha256Hex(STS_GET_CALLER_IDENTITY_BODY)].join('\n');
  const scope = `${day}/${options.region}/sts/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonical)].join('\n');
  let key: Buffer = hmac(`AWS4${options.credentials.secretAccessKey}`, day);
  for (const part of [options.region, 'sts', 'aws4_request']) key = hmac(key, part);
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  headers.Authorization = `AWS4-HMAC-SHA256 Credential=${options.credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  const asGoHeader = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]]));
  return AWS_TOKEN_PREFIX + Buffer.from(JSON.stringify(asGoHeader)).toString('base64');
}

function sha256Hex(data: string): string {
  return createHash('sha256').update(data).digest('hex');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}
