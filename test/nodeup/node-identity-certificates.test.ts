import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import * as fs from 'node:fs';
import type { NodeupConfig } from '../../src/model/nodeup-config-builder';
import { issueNodeClientCertificate, NODE_CERT_SUBJECTS } from '../../src/node-identity/node-client-certificate';
import { obtainNodeIdentityCertificates } from '../../src/nodeup/node-identity-certificates';
import { issueKeypair } from '../../src/pki/issue-keypair';
import type { Keypair } from '../../src/pki/keypair';
import { tempDir } from '../helpers/cli';

// nodeup's side without a network: the requester stands in for the service. What comes back is checked
// before anything is written: a certificate for another key, another subject or from another CA is refused.

const NODE = 'ip-10-0-1-5.ec2.internal';
let ca: Keypair;
let other: Keypair;
let config: NodeupConfig;
const dirs: string[] = [];

beforeAll(async () => {
  ca = await issueKeypair({ subject: { commonName: 'kubernetes-ca' }, usage: 'ca', validityMs: 3650 * 86400_000 });
  other = await issueKeypair({ subject: { commonName: 'kubernetes-ca' }, usage: 'ca', validityMs: 3650 * 86400_000 });
  config = {
    InstanceGroupRole: 'Node',
    CAs: { 'kubernetes-ca': ca.certificatePem },
    ComponentFlags: { kubelet: ['/usr/local/bin/kubelet', '--kubeconfig=/var/lib/kubelet/kubeconfig'] },
    ConfigServer: { Servers: ['https://kops-controller.internal.c.example.com:3988'], CACertificates: '', Region: 'us-east-1' },
  } as unknown as NodeupConfig;
});

afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function root(): string {
  const d = tempDir('kforge-nic-');
  dirs.push(d);
  return d;
}

test('an honest answer is used, for the key made here, with the subject asked for', async () => {
  const seen: Array<[string, Record<string, string>]> = [];
  const certs = await obtainNodeIdentityCertificates(config, root(), NODE, async (name, keys) => {
    seen.push([name, keys]);
    return { kubelet: issueNodeClientCertificate(ca, createPublicKey(keys.kubelet), NODE_CERT_SUBJECTS.kubelet(name), 455 * 86400_000) };
  });
  expect(seen.map(([n, k]) => [n, Object.keys(k)])).toEqual([[NODE, ['kubelet']]]);
  expect(certs).toHaveLength(1);
  expect(certs[0]).toMatchObject({ reused: false, request: { name: 'kubelet', kubeconfigPath: '/var/lib/kubelet/kubeconfig' } });
  expect(createPublicKey(certs[0].privateKeyPem).export({ type: 'spki', format: 'pem' })).toBe(seen[0][1].kubelet);
});

test.each<[string, (keys: Record<string, string>) => string]>([
  ['another key', () => issueNodeClientCertificate(ca, generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey, NODE_CERT_SUBJECTS.kubelet(NODE), 455 * 86400_000)],
  ['another node name', (keys) => issueNodeClientCertificate(ca, createPublicKey(keys.kubelet), NODE_CERT_SUBJECTS.kubelet('ip-10-0-9-9.ec2.internal'), 455 * 86400_000)],
  ['another CA', (keys) => issueNodeClientCertificate(other, createPublicKey(keys.kubelet), NODE_CERT_SUBJECTS.kubelet(NODE), 455 * 86400_000)],
])('a certificate for %s is refused with NODE_IDENTITY_FAILED and nothing is returned to write', async (_what, answer) => {
  await expect(obtainNodeIdentityCertificates(config, root(), NODE, async (_n, keys) => ({ kubelet: answer(keys) }))).rejects.toMatchObject({ code: 'NODE_IDENTITY_FAILED' });
});
