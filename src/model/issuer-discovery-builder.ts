import { createHash, createPublicKey, KeyObject } from 'node:crypto';
import type { Cluster } from '../api/types';

/** One document to publish in the service-account issuer's discovery store. */
export interface DiscoveryDocument {
  /** Full store URL of the object, e.g. `s3://bucket/cluster/.well-known/openid-configuration`. */
  url: string;
  /** The JSON body, deterministic. */
  content: string;
}

/**
 * Model builder for the OIDC discovery documents kops publishes when `serviceAccountIssuerDiscovery.
 * discoveryStore` is set (its IssuerDiscoveryModelBuilder): `.well-known/openid-configuration` and the
 * JWKS at `openid/v1/jwks`, which cloud IAM (IRSA) fetches to trust the cluster's service-account tokens.
 * Pure: the completed spec and the service-account public keys (PEM, every key of the keyset, so that
 * tokens signed by a key being rotated out still verify) in, documents out. Empty when there is no store.
 */
export function buildIssuerDiscovery(completed: Cluster, serviceAccountPublicKeys: string[]): DiscoveryDocument[] {
  const store = completed.spec.serviceAccountIssuerDiscovery?.discoveryStore?.replace(/\/+$/, '');
  const issuer = completed.spec.kubeAPIServer?.serviceAccountIssuer;
  const jwksUri = completed.spec.kubeAPIServer?.serviceAccountJWKSURI;
  if (!store || !issuer || !jwksUri) return [];
  const configuration = {
    issuer,
    jwks_uri: jwksUri,
    authorization_endpoint: 'urn:kubernetes:programmatic_authorization',
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    claims_supported: ['sub', 'iss'],
  };
  const keys = serviceAccountPublicKeys.map((pem) => jwk(createPublicKey(pem))).sort((a, b) => a.kid.localeCompare(b.kid));
  return [
    { url: `${store}/.well-known/openid-configuration`, content: `${JSON.stringify(configuration, null, 2)}\n` },
    { url: `${store}/openid/v1/jwks`, content: `${JSON.stringify({ keys }, null, 2)}\n` },
  ];
}

interface Jwk {
  use: 'sig';
  kty: string;
  kid: string;
  alg: string;
  n: string;
  e: string;
}

function jwk(key: KeyObject): Jwk {
  if (key.asymmetricKeyType !== 'rsa') throw new Error(`service-account keys must be RSA for RS256 tokens, got ${key.asymmetricKeyType}`);
  const { n, e } = key.export({ format: 'jwk' }) as { n: string; e: string };
  // kube-apiserver's key id: base64url of the SHA-256 of the PKIX DER public key (serviceaccount.keyIDFromPublicKey).
  const kid = createHash('sha256').update(key.export({ type: 'spki', format: 'der' })).digest('base64url');
  return { use: 'sig', kty: 'RSA', kid, alg: 'RS256', n, e };
}
