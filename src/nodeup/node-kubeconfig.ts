import * as yaml from 'js-yaml';
import type { Keypair } from '../pki/keypair';

/**
 * A component's kubeconfig: one cluster (the API `server`, trusting `caBundle`), one user with the client
 * certificate and key embedded, and the context joining them, so the file alone lets the component in.
 * Deterministic for the same inputs, so a rerun rewrites nothing.
 */
export function nodeKubeconfig(user: string, server: string, caBundle: string, keypair: Pick<Keypair, 'certificatePem' | 'privateKeyPem'>): string {
  const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'local', cluster: { 'certificate-authority-data': b64(caBundle), server } }],
    users: [{ name: user, user: { 'client-certificate-data': b64(keypair.certificatePem), 'client-key-data': b64(keypair.privateKeyPem as string) } }],
    contexts: [{ name: 'service-account-context', context: { cluster: 'local', user } }],
    'current-context': 'service-account-context',
  };
  return yaml.dump(doc, { lineWidth: -1, noRefs: true });
}
