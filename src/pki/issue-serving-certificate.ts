import type { Cluster } from '../api/types';
import { apiServerSans, ServingSans } from './api-server-sans';
import { ISSUED_VALIDITY_MS } from './cluster-pki';
import { issueKeypair } from './issue-keypair';
import type { Keypair } from './keypair';

/**
 * Issues the kube-apiserver serving certificate from `kubernetes-ca`. The control-plane node calls this
 * at boot with its own addresses in `extra`; the CA's private key never leaves the control plane.
 */
export async function issueApiServerCertificate(ca: Keypair, completed: Cluster, extra: Partial<ServingSans> = {}, now?: Date): Promise<Keypair> {
  const sans = apiServerSans(completed, extra);
  return issueKeypair({ subject: { commonName: 'kubernetes-master' }, usage: 'server', validityMs: ISSUED_VALIDITY_MS, dnsNames: sans.dnsNames, ipAddresses: sans.ipAddresses, now }, ca);
}
