import * as fs from 'node:fs';
import * as path from 'node:path';
import { adminSubject, KUBERNETES_CA } from '../../src/pki/cluster-pki';
import { issueKeypair } from '../../src/pki/issue-keypair';
import { Keystore } from '../../src/state/keystore';
import type { Vfs } from '../../src/state/vfs/vfs';
import { FakeKubeApi, startFakeKubeApi } from '../fakes/kube/fake-kube-api-server';

const DAY = 24 * 3600 * 1000;

/**
 * A fake kube-apiserver serving with a certificate from the cluster's CA (read from its state store), and a
 * kubeconfig file (mode 0600) whose context, named after the cluster, is an admin of it: what the rolling
 * update and validate tests of every cloud start from.
 */
export async function startClusterKubeApi(vfs: Vfs, cluster: string, dir: string): Promise<{ api: FakeKubeApi; kubeconfig: string }> {
  const ca = (await new Keystore(vfs, cluster).getPrivate(KUBERNETES_CA)).keyset.primary();
  const [serving, admin] = await Promise.all([
    issueKeypair({ subject: { commonName: 'kubernetes-master' }, usage: 'server', validityMs: DAY, dnsNames: ['localhost', `api.${cluster}`], ipAddresses: ['127.0.0.1'] }, ca),
    issueKeypair({ subject: adminSubject('tester'), usage: 'client', validityMs: DAY }, ca),
  ]);
  const api = await startFakeKubeApi({ ca, serving });
  const b64 = (s: string): string => Buffer.from(s).toString('base64');
  const kubeconfig = path.join(dir, `${cluster}.kubeconfig`);
  fs.writeFileSync(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      `current-context: ${cluster}`,
      `clusters:\n- name: ${cluster}\n  cluster:\n    server: ${api.url}\n    certificate-authority-data: ${b64(ca.certificatePem)}`,
      `users:\n- name: ${cluster}\n  user:\n    client-certificate-data: ${b64(admin.certificatePem)}\n    client-key-data: ${b64(admin.privateKeyPem as string)}`,
      `contexts:\n- name: ${cluster}\n  context:\n    cluster: ${cluster}\n    user: ${cluster}`,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  return { api, kubeconfig };
}
