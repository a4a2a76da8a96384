import * as fs from 'node:fs';
import * as path from 'node:path';
import { newCluster } from '../../src/create/new-cluster';
import { expandCluster } from '../../src/ops/expand-cluster';
import { CA_VALIDITY_MS, clusterCaNames, ISSUED_VALIDITY_MS } from '../../src/pki/cluster-pki';
import { generateClusterPki } from '../../src/pki/generate-cluster-pki';
import { issueApiServerCertificate } from '../../src/pki/issue-serving-certificate';
import type { Keypair } from '../../src/pki/keypair';
import type { Keyset } from '../../src/pki/keyset';
import { tempDir } from '../helpers/cli';
import { decimalSerial, entries, extensions, verify, writePem } from './openssl';
import { CLUSTER_KEYSETS } from '../helpers/cluster-layout';

/**
 * The certificates of a new cluster, judged by openssl (`verify -x509_strict`, `x509 -ext`) and by
 * Node's X509Certificate: names, issuers, keys, extensions, validity and ids, as docs/pki.md promises.
 */

const DAY_MS = 24 * 3600 * 1000;
const CAS = clusterCaNames(['main', 'events']);
const CLIENTS: Record<string, string> = {
  'kubelet-bootstrap': 'O=system:bootstrappers\nCN=kubelet-bootstrap',
  'kube-proxy': 'CN=system:kube-proxy',
  'kube-controller-manager': 'CN=system:kube-controller-manager',
  'kube-scheduler': 'CN=system:kube-scheduler',
};

describe('generateClusterPki([main, events])', () => {
  let dir: string;
  let keysets: Keyset[];
  let startedAt: number;
  const byName = (name: string): Keyset => {
    const ks = keysets.find((k) => k.name === name);
    if (!ks) throw new Error(`no keyset ${name}`);
    return ks;
  };
  const file = (name: string) => path.join(dir, `${name}.crt`);
  const cert = (name: string) => byName(name).primary().certificate;

  beforeAll(async () => {
    dir = tempDir('kforge-pki-');
    startedAt = Date.now();
    keysets = await generateClusterPki(['main', 'events']);
    for (const ks of keysets) writePem(dir, `${ks.name}.crt`, ks.primary().certificatePem);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('has every keyset, sorted, each with one primary key that has a private key', () => {
    expect(keysets.map((k) => k.name)).toEqual(CLUSTER_KEYSETS);
    for (const ks of keysets) {
      expect(ks.keys).toHaveLength(1);
      expect(ks.primaryId).toBe(ks.keys[0].id);
      expect(ks.primary().privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
      expect(ks.primary().certificate.checkPrivateKey(ks.primary().privateKey())).toBe(true);
    }
  });

  it.each([...CAS, 'service-account'])('%s is a self-signed CA that openssl verifies against itself', (name) => {
    expect(verify(file(name), file(name))).toBe(`${file(name)}: OK`);
    const c = cert(name);
    expect(c.subject).toBe(`CN=${name}`);
    expect(c.issuer).toBe(`CN=${name}`);
    expect(c.ca).toBe(true);
    expect(c.verify(c.publicKey)).toBe(true);
    const ext = extensions(file(name));
    expect(ext['Basic Constraints']).toEqual({ critical: true, value: 'CA:TRUE' });
    expect(ext['Key Usage'].critical).toBe(true);
    expect(entries(ext['Key Usage'])).toEqual(expect.arrayContaining(['Certificate Sign', 'CRL Sign']));
    expect(entries(ext['Key Usage'])).not.toContain('Key Encipherment');
    expect(ext['Extended Key Usage']).toBeUndefined();
    expect(ext['Subject Key Identifier']).toBeDefined();
  });

  it.each(Object.entries(CLIENTS))('%s is a client certificate of kubernetes-ca that openssl verifies', (name, subject) => {
    expect(verify(file('kubernetes-ca'), file(name), 'sslclient')).toBe(`${file(name)}: OK`);
    const c = cert(name);
    expect(c.subject).toBe(subject);
    expect(c.issuer).toBe('CN=kubernetes-ca');
    expect(c.ca).toBe(false);
    expect(c.checkIssued(cert('kubernetes-ca'))).toBe(true);
    // Signed by kubernetes-ca, not by any other CA of the cluster.
    for (const other of CAS.filter((n) => n !== 'kubernetes-ca')) expect(verify(file(other), file(name))).not.toMatch(/: OK$/);
    const ext = extensions(file(name));
    expect(ext['Basic Constraints']).toEqual({ critical: true, value: 'CA:FALSE' });
    expect(ext['Key Usage']).toEqual({ critical: true, value: 'Digital Signature' });
    expect(entries(ext['Extended Key Usage'])).toEqual(['TLS Web Client Authentication']);
    expect(ext['Subject Alternative Name']).toBeUndefined();
    // authorityKeyIdentifier = the CA's subjectKeyIdentifier, so chain building picks the right CA.
    expect(ext['Authority Key Identifier'].value.replace(/^keyid:/, '')).toBe(extensions(file('kubernetes-ca'))['Subject Key Identifier'].value);
  });

  it('uses ECDSA P-256 keys everywhere except the RSA 2048 service-account signer', () => {
    for (const ks of keysets) {
      const key = ks.primary().certificate.publicKey;
      if (ks.name === 'service-account') {
        expect([key.asymmetricKeyType, key.asymmetricKeyDetails?.modulusLength]).toEqual(['rsa', 2048]);
        expect(ks.primary().privateKey().asymmetricKeyType).toBe('rsa');
      } else {
        expect([ks.name, key.asymmetricKeyType, key.asymmetricKeyDetails?.namedCurve]).toEqual([ks.name, 'ec', 'prime256v1']);
      }
    }
  });

  it('makes CAs valid ~10 years and client certificates ~5 years, starting a few minutes in the past', () => {
    const finishedAt = Date.now();
    for (const ks of keysets) {
      const c = ks.primary().certificate;
      const from = Date.parse(c.validFrom);
      const to = Date.parse(c.validTo);
      // notBefore is backdated for clock skew: a few minutes, not hours and not zero.
      expect(from).toBeGreaterThanOrEqual(startedAt - 10 * 60_000 - 1000);
      expect(from).toBeLessThanOrEqual(finishedAt - 60_000);
      const lifetime = ks.name in CLIENTS ? ISSUED_VALIDITY_MS : CA_VALIDITY_MS;
      expect(to).toBeGreaterThanOrEqual(startedAt + lifetime - 1000);
      expect(to).toBeLessThanOrEqual(finishedAt + lifetime + 1000);
      const days = (to - Date.now()) / DAY_MS;
      if (ks.name in CLIENTS) expect([ks.name, Math.round(days / 365)]).toEqual([ks.name, 5]);
      else expect([ks.name, Math.round(days / 365)]).toEqual([ks.name, 10]);
    }
  });

  it('gives every certificate a unique positive serial, which is its keyset id in decimal', async () => {
    const serials = keysets.map((ks) => ks.primary().certificate.serialNumber);
    expect(new Set(serials).size).toBe(keysets.length);
    for (const ks of keysets) {
      expect(ks.primaryId).toMatch(/^[1-9]\d*$/);
      expect(ks.primaryId).toBe(decimalSerial(ks.primary().certificate));
    }
    // Two runs never collide either (time-based high bits, random low bits).
    const again = await generateClusterPki(['main']);
    for (const ks of again) expect(serials).not.toContain(ks.primary().certificate.serialNumber);
  });
});

describe('issueApiServerCertificate', () => {
  let dir: string;
  let ca: Keypair;
  let caFile: string;

  beforeAll(async () => {
    dir = tempDir('kforge-pki-');
    ca = (await generateClusterPki(['main'])).find((k) => k.name === 'kubernetes-ca')?.primary() as Keypair;
    caFile = writePem(dir, 'kubernetes-ca.crt', ca.certificatePem);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** The SANs openssl reads, sorted, in its "DNS:x" / "IP Address:y" notation. */
  const sans = (file: string) => entries(extensions(file)['Subject Alternative Name']).sort();

  it('covers the API names, the service IP, localhost and the node IP, and is a serving cert of kubernetes-ca', async () => {
    const { cluster, instanceGroups } = newCluster({ name: 'x.example.com', zones: ['us-east-1a'] });
    const { completed } = expandCluster(cluster, instanceGroups, 'file:///tmp/kforge-unused-store');
    expect(completed.spec.serviceClusterIPRange).toBe('100.64.0.0/13');
    const kp = await issueApiServerCertificate(ca, completed, { ipAddresses: ['10.0.0.5'] });
    const file = writePem(dir, 'apiserver.crt', kp.certificatePem);
    expect(verify(caFile, file, 'sslserver')).toBe(`${file}: OK`);
    expect(sans(file)).toEqual(
      [
        'DNS:api.x.example.com',
        'DNS:api.internal.x.example.com',
        'DNS:kubernetes',
        'DNS:kubernetes.default',
        'DNS:kubernetes.default.svc',
        'DNS:kubernetes.default.svc.cluster.local',
        'IP Address:100.64.0.1',
        'IP Address:127.0.0.1',
        'IP Address:10.0.0.5',
      ].sort(),
    );
    const ext = extensions(file);
    expect(entries(ext['Extended Key Usage'])).toEqual(['TLS Web Server Authentication']);
    expect(ext['Basic Constraints'].value).toBe('CA:FALSE');
    expect(ext['Key Usage'].value).toBe('Digital Signature');
    expect(kp.certificate.issuer).toBe('CN=kubernetes-ca');
    expect(kp.certificate.checkHost('api.x.example.com')).toBe('api.x.example.com');
    expect(kp.certificate.checkIP('100.64.0.1')).toBe('100.64.0.1');
    expect(kp.certificate.checkHost('api.other.example.com')).toBeUndefined();
    expect(kp.id).toBe(decimalSerial(kp.certificate));
    expect(Math.round((Date.parse(kp.certificate.validTo) - Date.now()) / DAY_MS / 365)).toBe(5);
  });

  it('follows additionalSans (DNS names and IPs), clusterDNSDomain and serviceClusterIPRange', async () => {
    const { cluster, instanceGroups } = newCluster({ name: 'custom.example.com', zones: ['us-east-1a'] });
    cluster.spec.additionalSans = ['extra.example.org', '203.0.113.7'];
    cluster.spec.clusterDNSDomain = 'corp.internal';
    cluster.spec.serviceClusterIPRange = '100.72.0.0/16';
    const { completed } = expandCluster(cluster, instanceGroups, 'file:///tmp/kforge-unused-store');
    const kp = await issueApiServerCertificate(ca, completed, { ipAddresses: ['10.0.0.5'] });
    const file = writePem(dir, 'custom.crt', kp.certificatePem);
    expect(verify(caFile, file, 'sslserver')).toBe(`${file}: OK`);
    expect(sans(file)).toEqual(
      [
        'DNS:api.custom.example.com',
        'DNS:api.internal.custom.example.com',
        'DNS:kubernetes',
        'DNS:kubernetes.default',
        'DNS:kubernetes.default.svc',
        'DNS:kubernetes.default.svc.corp.internal',
        'DNS:extra.example.org',
        'IP Address:100.72.0.1',
        'IP Address:127.0.0.1',
        'IP Address:10.0.0.5',
        'IP Address:203.0.113.7',
      ].sort(),
    );
    expect(kp.certificate.checkIP('203.0.113.7')).toBe('203.0.113.7');
    expect(kp.certificate.checkHost('extra.example.org')).toBe('extra.example.org');
  });

  it('refuses a cluster that was not expanded (no serviceClusterIPRange)', async () => {
    const { cluster } = newCluster({ name: 'raw.example.com', zones: ['us-east-1a'] });
    delete cluster.spec.serviceClusterIPRange;
    await expect(issueApiServerCertificate(ca, cluster)).rejects.toThrow('cluster raw.example.com has no serviceClusterIPRange');
  });
});
