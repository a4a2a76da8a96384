import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The temporary credentials of an instance's role, as STS issued them. */
export interface RoleCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  expiration: string;
}

/** A running fake metadata service: its base URL (AWS_EC2_METADATA_SERVICE_ENDPOINT) and the paths it was asked. */
export interface FakeImds {
  endpoint: string;
  requests: string[];
  stop(): Promise<void>;
}

/**
 * A small stateful fake of the EC2 instance-metadata service (IMDSv2 required) that hands out one role's
 * real STS credentials: moto answers the metadata paths too, but always with fixed credentials that no
 * IAM role in moto owns, so with IAM enforced nothing can be authorised with them. Honest to EC2's paths,
 * shapes and status codes: `PUT /latest/api/token` with a TTL header gives a token (400 without the
 * header); the credentials paths need that token (401 otherwise); the role list is the role's name; its
 * document is EC2's pretty-printed JSON (Code, LastUpdated, Type, AccessKeyId, SecretAccessKey, Token,
 * Expiration); any other path is 404.
 */
export async function startFakeImds(role: string, credentials: RoleCredentials): Promise<FakeImds> {
  const tokens = new Set<string>();
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const url = req.url ?? '';
    requests.push(`${req.method} ${url}`);
    if (url === '/latest/api/token') {
      if (req.method !== 'PUT') return void res.writeHead(405).end();
      if (!req.headers['x-aws-ec2-metadata-token-ttl-seconds']) return void res.writeHead(400).end();
      const token = `token-${tokens.size + 1}`;
      tokens.add(token);
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end(token);
    }
    const prefix = '/latest/meta-data/iam/security-credentials/';
    if (!url.startsWith(prefix)) return void res.writeHead(404).end();
    if (!tokens.has(String(req.headers['x-aws-ec2-metadata-token'] ?? ''))) return void res.writeHead(401).end();
    const name = url.slice(prefix.length);
    if (name === '') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(role);
    if (name !== role) return void res.writeHead(404).end();
    const doc = {
      Code: 'Success',
      LastUpdated: '2026-11-26T00:00:00Z',
      Type: 'AWS-HMAC',
      AccessKeyId: credentials.accessKeyId,
      SecretAccessKey: credentials.secretAccessKey,
      Token: credentials.sessionToken,
      Expiration: credentials.expiration,
    };
    return void res.writeHead(200, { 'content-type': 'text/plain' }).end(JSON.stringify(doc, null, 2));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}
