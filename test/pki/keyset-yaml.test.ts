import { createPrivateKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as yaml from 'js-yaml';
import { StateStoreError } from '../../src/errors/state-store-error';
import { issueKeypair } from '../../src/pki/issue-keypair';
import { Keypair } from '../../src/pki/keypair';
import { Keyset } from '../../src/pki/keyset';
import { KeysetYaml } from '../../src/pki/keyset-yaml';
import { tempDir } from '../helpers/cli';
import { containsPrivateKey, opensslCa, verify, writePem } from './openssl';

/** The keyset file format: kops's v1alpha2 Keyset with base64 PEM material, both ways. */

const YEAR_MS = 365 * 24 * 3600 * 1000;

interface Doc {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec: { type: string; primaryID: string; keys: Array<{ id: string; publicMaterial: string; privateMaterial?: string; distrustTimestamp?: string }> };
}

describe('KeysetYaml', () => {
  let older: Keypair;
  let newer: Keypair;
  let keyset: Keyset;

  beforeAll(async () => {
    older = await issueKeypair({ subject: { commonName: 'kubernetes-ca' }, usage: 'ca', validityMs: YEAR_MS, now: new Date(Date.now() - 1000) });
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    newer = await issueKeypair({ subject: { commonName: 'kubernetes-ca' }, usage: 'ca', validityMs: YEAR_MS, key: rsa });
    expect(BigInt(older.id) < BigInt(newer.id)).toBe(true);
    // The newer key first, the older primary: order and primary must both survive.
    keyset = new Keyset('kubernetes-ca', [newer, older], older.id);
  });

  it('round-trips a keyset with private keys: ids, primary, certificate and key PEMs', () => {
    const text = KeysetYaml.stringify(keyset, true);
    const back = KeysetYaml.parse(text, 'mem://private');
    expect(back.name).toBe('kubernetes-ca');
    expect(back.primaryId).toBe(older.id);
    expect(back.keys.map((k) => k.id)).toEqual([older.id, newer.id]);
    for (const original of [older, newer]) {
      const k = back.keys.find((x) => x.id === original.id) as Keypair;
      expect(k.certificatePem).toBe(original.certificatePem);
      expect(k.privateKeyPem).toBe(original.privateKeyPem);
      expect(k.certificate.checkPrivateKey(k.privateKey())).toBe(true);
    }
    // Ids are decimal strings far beyond 2^53: quoted, never turned into numbers.
    const doc = yaml.load(text) as Doc;
    expect(doc).toMatchObject({ apiVersion: 'kforge.dev/v1alpha2', kind: 'Keyset', metadata: { name: 'kubernetes-ca' }, spec: { type: 'Keypair', primaryID: older.id } });
    expect(doc.spec.keys.map((k) => typeof k.id)).toEqual(['string', 'string']);
    expect(Buffer.from(doc.spec.keys[0].privateMaterial as string, 'base64').toString()).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(KeysetYaml.stringify(back, true)).toBe(text);
  });

  it('serialises without private keys for pki/issued/, and parses that back without keys', () => {
    for (const source of [keyset, keyset.publicOnly()]) {
      const text = KeysetYaml.stringify(source, false);
      expect(text).not.toContain('privateMaterial');
      expect(containsPrivateKey(text)).toBe(false);
      const back = KeysetYaml.parse(text, 'mem://issued');
      expect(back.primaryId).toBe(older.id);
      expect(back.keys.map((k) => [k.id, k.certificatePem, k.privateKeyPem])).toEqual([
        [older.id, older.certificatePem, undefined],
        [newer.id, newer.certificatePem, undefined],
      ]);
      expect(() => back.primary().privateKey()).toThrow(`the private key of keypair ${older.id} was not loaded`);
    }
    // The same check does see base64 private material (so the negative above means something).
    expect(containsPrivateKey(KeysetYaml.stringify(keyset, true))).toBe(true);
  });

  it('keeps distrustTimestamp, and leaves distrusted keys out of the trust bundle', () => {
    const distrusted = new Keypair(newer.id, newer.certificatePem, newer.privateKeyPem, '2030-01-01T00:00:00Z');
    const ks = new Keyset('kubernetes-ca', [older, distrusted], older.id);
    const back = KeysetYaml.parse(KeysetYaml.stringify(ks, false), 'mem://issued');
    expect(back.keys.map((k) => k.distrustTimestamp)).toEqual([undefined, '2030-01-01T00:00:00Z']);
    expect(back.certificateBundle()).toBe(older.certificatePem);
    expect(keyset.certificateBundle()).toBe(older.certificatePem + newer.certificatePem);
  });

  it('parses a keyset written by kops, and its key signs certificates openssl accepts', async () => {
    const dir = tempDir('kforge-keyset-');
    try {
      // kops stores an RSA CA with a PKCS#1 key; ids are decimal serials, quoted by Go's YAML writer.
      const ca = opensslCa(dir, 'kops-ca', ['-newkey', 'rsa:2048'], '/CN=kubernetes-ca');
      const certPem = fs.readFileSync(ca.cert, 'utf8');
      const keyPem = createPrivateKey(fs.readFileSync(ca.key)).export({ type: 'pkcs1', format: 'pem' }).toString();
      expect(keyPem).toMatch(/^-----BEGIN RSA PRIVATE KEY-----/);
      const id = BigInt(`0x${new X509Certificate(certPem).serialNumber}`).toString();
      const b64 = (s: string) => Buffer.from(s).toString('base64');
      const kops = [
        'apiVersion: kops.k8s.io/v1alpha2',
        'kind: Keyset',
        'metadata:',
        '  creationTimestamp: "2024-05-01T10:00:00Z"',
        '  name: kubernetes-ca',
        'spec:',
        '  keys:',
        `  - id: "${id}"`,
        `    privateMaterial: ${b64(keyPem)}`,
        `    publicMaterial: ${b64(certPem)}`,
        `  primaryID: "${id}"`,
        '  type: Keypair',
        '',
      ].join('\n');
      const ks = KeysetYaml.parse(Buffer.from(kops), 's3://bucket/c/pki/private/kubernetes-ca/keyset.yaml');
      expect([ks.name, ks.primaryId, ks.keys.length]).toEqual(['kubernetes-ca', id, 1]);
      expect(ks.primary().certificatePem).toBe(certPem);
      expect(ks.primary().privateKeyPem).toBe(keyPem);
      const issued = await issueKeypair({ subject: { commonName: 'system:kube-proxy' }, usage: 'client', validityMs: YEAR_MS }, ks.primary());
      const file = writePem(dir, 'issued.crt', issued.certificatePem);
      expect(verify(ca.cert, file, 'sslclient')).toBe(`${file}: OK`);
      // Written back by kforge, the kops keyset keeps its id and material.
      const again = KeysetYaml.parse(KeysetYaml.stringify(ks, true), 'mem://again');
      expect([again.primaryId, again.primary().certificatePem, again.primary().privateKeyPem]).toEqual([id, certPem, keyPem]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['not YAML', ':\n  - ['],
    ['another kind', 'apiVersion: kops.k8s.io/v1alpha2\nkind: Cluster\nmetadata: {name: x}\n'],
    ['an unknown apiVersion', 'apiVersion: kops.k8s.io/v1beta1\nkind: Keyset\nmetadata: {name: x}\nspec: {keys: [{id: "1", publicMaterial: x}], primaryID: "1"}\n'],
    ['no keys', 'apiVersion: kops.k8s.io/v1alpha2\nkind: Keyset\nmetadata: {name: x}\nspec: {keys: [], primaryID: "1"}\n'],
    ['a key without publicMaterial', 'apiVersion: kops.k8s.io/v1alpha2\nkind: Keyset\nmetadata: {name: x}\nspec: {keys: [{id: "1"}], primaryID: "1"}\n'],
  ])('rejects %s with a StateStoreError naming the file', (_label, text) => {
    const parse = () => KeysetYaml.parse(text, 'file:///store/c/pki/issued/x/keyset.yaml');
    expect(parse).toThrow(StateStoreError);
    expect(parse).toThrow(/^file:\/\/\/store\/c\/pki\/issued\/x\/keyset\.yaml is not a valid keyset: /);
  });

  it('rejects a primaryID that is none of the keys', () => {
    const text = KeysetYaml.stringify(keyset, false).replace(`primaryID: '${older.id}'`, "primaryID: '42'");
    expect(text).toContain("primaryID: '42'");
    expect(() => KeysetYaml.parse(text, 'mem://x')).toThrow('primary id 42 is not one of its keys');
  });
});
