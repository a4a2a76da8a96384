import { createHash, createPublicKey, createSign, createVerify, generateKeyPairSync } from 'node:crypto';
import type { Cluster } from '../../src/api/types';
import { discoveryStoreHttpsUrl } from '../../src/expand/components/service-account-issuer';
import { buildIssuerDiscovery } from '../../src/model/issuer-discovery-builder';
import { completeCluster } from '../../src/ops/expand-cluster';
import { newCluster } from '../../src/create/new-cluster';

function withStore(store: string | undefined): Cluster {
  const { cluster, instanceGroups } = newCluster({ name: 'irsa.example.com', zones: ['eu-west-1a'] });
  if (store) cluster.spec.serviceAccountIssuerDiscovery = { discoveryStore: store };
  return completeCluster(cluster, instanceGroups, 'memfs://store');
}

describe('service-account issuer with a discovery store', () => {
  it('points the issuer and JWKS URI at the store, as kops does', () => {
    const s3 = withStore('s3://oidc-bucket/irsa.example.com').spec.kubeAPIServer;
    expect(s3?.serviceAccountIssuer).toBe('https://oidc-bucket.s3.eu-west-1.amazonaws.com/irsa.example.com');
    expect(s3?.serviceAccountJWKSURI).toBe('https://oidc-bucket.s3.eu-west-1.amazonaws.com/irsa.example.com/openid/v1/jwks');
    expect(discoveryStoreHttpsUrl('gs://b/k/', undefined)).toBe('https://storage.googleapis.com/b/k');
    expect(discoveryStoreHttpsUrl('memfs://discovery.example.com/minimal.example.com', undefined)).toBe('https://discovery.example.com/minimal.example.com');
    expect(withStore(undefined).spec.kubeAPIServer?.serviceAccountIssuer).toBe('https://api.internal.irsa.example.com');
  });

  it('refuses a store with no public HTTPS address, naming the field', () => {
    expect(() => withStore('file:///tmp/oidc')).toThrow(/spec\.serviceAccountIssuerDiscovery\.discoveryStore: "file:\/\/\/tmp\/oidc" is not a discovery store/);
  });
});

describe('issuer discovery documents', () => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();

  it('publish the openid-configuration and a JWKS that verifies a token signed by the service-account key', () => {
    const docs = buildIssuerDiscovery(withStore('s3://oidc-bucket/irsa.example.com'), [pem]);
    expect(docs.map((d) => d.url)).toEqual(['s3://oidc-bucket/irsa.example.com/.well-known/openid-configuration', 's3://oidc-bucket/irsa.example.com/openid/v1/jwks']);
    const config = JSON.parse(docs[0].content);
    expect(config.issuer).toBe('https://oidc-bucket.s3.eu-west-1.amazonaws.com/irsa.example.com');
    expect(config.jwks_uri).toBe(`${config.issuer}/openid/v1/jwks`);
    const [key] = JSON.parse(docs[1].content).keys;
    expect(key.kid).toBe(createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('base64url'));
    // The JWK must be the same key: a signature made with the private key verifies against it.
    const signature = createSign('RSA-SHA256').update('token').sign(privateKey);
    expect(createVerify('RSA-SHA256').update('token').verify(createPublicKey({ key, format: 'jwk' }), signature)).toBe(true);
  });

  it('are nothing without a store, and the same bytes every time', () => {
    expect(buildIssuerDiscovery(withStore(undefined), [pem])).toEqual([]);
    const c = withStore('gs://b/c');
    expect(buildIssuerDiscovery(c, [pem])).toEqual(buildIssuerDiscovery(c, [pem]));
  });
});
