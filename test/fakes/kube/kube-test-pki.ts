import { adminSubject } from '../../../src/pki/cluster-pki';
import { issueKeypair } from '../../../src/pki/issue-keypair';
import type { Keypair } from '../../../src/pki/keypair';

const DAY = 24 * 3600 * 1000;

/** The certificates a fake API server test needs: a cluster CA, a serving certificate, and client certificates. */
export interface KubeTestPki {
  ca: Keypair;
  /** Serving certificate for `dnsNames` (default localhost) and 127.0.0.1. */
  serving: Keypair;
  /** A client certificate in system:masters from the cluster CA. */
  admin: Keypair;
  /** A client certificate in no group from the cluster CA (authenticated, forbidden by default). */
  nobody: Keypair;
  /** Another CA, for "wrong CA" cases. */
  otherCa: Keypair;
  /** A system:masters client certificate from the other CA (401 at the fake). */
  foreignAdmin: Keypair;
}

/** Issues a fresh test PKI; `dnsNames` are the serving certificate's DNS SANs. */
export async function makeKubeTestPki(dnsNames: string[] = ['localhost'], ipAddresses: string[] = ['127.0.0.1']): Promise<KubeTestPki> {
  const ca = await issueKeypair({ subject: { commonName: 'kubernetes-ca' }, usage: 'ca', validityMs: 10 * DAY });
  const otherCa = await issueKeypair({ subject: { commonName: 'kubernetes-ca' }, usage: 'ca', validityMs: 10 * DAY });
  const [serving, admin, nobody, foreignAdmin] = await Promise.all([
    issueKeypair({ subject: { commonName: 'kubernetes-master' }, usage: 'server', validityMs: DAY, dnsNames, ipAddresses }, ca),
    issueKeypair({ subject: adminSubject('tester'), usage: 'client', validityMs: DAY }, ca),
    issueKeypair({ subject: { commonName: 'nobody' }, usage: 'client', validityMs: DAY }, ca),
    issueKeypair({ subject: adminSubject('tester'), usage: 'client', validityMs: DAY }, otherCa),
  ]);
  return { ca, serving, admin, nobody, otherCa, foreignAdmin };
}
