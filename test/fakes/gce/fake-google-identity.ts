import { createHash, createSign, generateKeyPairSync, KeyObject } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A signing key as Google's OAuth2 service keeps one: an RSA key and its `kid` (the JWKS entry's name). */
export interface FakeGoogleSigner {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/** Google's issuer of instance identity tokens. */
export const GOOGLE_ISSUER = 'https://accounts.google.com';

/** An RSA-2048 key with a `kid` derived from it (Google's kids are 40 hex digits). */
export function fakeGoogleSigner(): FakeGoogleSigner {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = createHash('sha1').update(publicKey.export({ type: 'spki', format: 'der' })).digest('hex');
  return { kid, privateKey, publicKey };
}

/** What Google puts in a `format=full` instance identity token about the VM (`google.compute_engine`). */
export interface ComputeEngineClaims {
  project_id: string;
  project_number: number;
  zone: string;
  instance_id: string;
  instance_name: string;
  /** Seconds since the epoch. */
  instance_creation_timestamp: number;
}

/** The claims of one token; overrides let a test make a token Google would not (another issuer, expired). */
export interface IdentityTokenClaims {
  aud: string;
  iss?: string;
  iat?: number;
  exp?: number;
  /** The service account's unique id (Google's `sub` and `azp`). */
  sub?: string;
  email?: string;
  compute?: ComputeEngineClaims;
}

/**
 * An RS256 JWT shaped as the metadata server's `instance/service-accounts/default/identity?format=full`
 * answer: header `{alg: RS256, kid, typ: JWT}`, claims `aud`, `azp`, `email`, `email_verified`, `exp` (an
 * hour after `iat`), `google.compute_engine.{…}`, `iat`, `iss`, `sub`.
 */
export function signIdentityToken(signer: Pick<FakeGoogleSigner, 'kid' | 'privateKey'>, claims: IdentityTokenClaims, now: Date = new Date()): string {
  const iat = claims.iat ?? Math.floor(now.getTime() / 1000);
  const sub = claims.sub ?? '104857362514981726354';
  const payload: Record<string, unknown> = {
    aud: claims.aud,
    azp: sub,
    ...(claims.email ? { email: claims.email, email_verified: true } : {}),
    exp: claims.exp ?? iat + 3600,
    ...(claims.compute ? { google: { compute_engine: claims.compute } } : {}),
    iat,
    iss: claims.iss ?? GOOGLE_ISSUER,
    sub,
  };
  const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
  const input = `${b64({ alg: 'RS256', kid: signer.kid, typ: 'JWT' })}.${b64(payload)}`;
  const signature = createSign('RSA-SHA256').update(input).sign(signer.privateKey).toString('base64url');
  return `${input}.${signature}`;
}

/** A running fake of Google's JWKS endpoint (`https://www.googleapis.com/oauth2/v3/certs`). */
export interface FakeGoogleJwks {
  /** `http://127.0.0.1:<port>/oauth2/v3/certs`. */
  url: string;
  /** GETs served so far. */
  fetches: number;
  stop(): Promise<void>;
}

/**
 * Serves the public keys of `signers` as Google's v3 certs endpoint does: `{"keys": [{kid, n, e, alg: RS256,
 * kty: RSA, use: sig}]}`, `application/json`, with a Cache-Control max-age; any other path is 404.
 */
export async function startFakeGoogleJwks(signers: readonly Pick<FakeGoogleSigner, 'kid' | 'publicKey'>[]): Promise<FakeGoogleJwks> {
  const keys = signers.map((s) => {
    const jwk = s.publicKey.export({ format: 'jwk' }) as { n: string; e: string };
    return { kid: s.kid, n: jwk.n, e: jwk.e, alg: 'RS256', kty: 'RSA', use: 'sig' };
  });
  const state = { fetches: 0 };
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/oauth2/v3/certs') return void res.writeHead(404, { 'content-type': 'text/html' }).end('Not Found');
    state.fetches++;
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8', 'cache-control': 'public, max-age=21600, must-revalidate, no-transform' });
    res.end(JSON.stringify({ keys }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/oauth2/v3/certs`,
    get fetches() {
      return state.fetches;
    },
    stop: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
