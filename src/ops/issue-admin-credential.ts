import * as os from 'node:os';
import { NotUpdatedError } from '../errors/not-updated-error';
import { adminSubject, KUBERNETES_CA } from '../pki/cluster-pki';
import { issueKeypair } from '../pki/issue-keypair';
import type { Keypair } from '../pki/keypair';
import { Keystore } from '../state/keystore';
import type { Vfs } from '../state/vfs/vfs';

/**
 * An admin client certificate (kops's `kubecfg-<user>` in system:masters) issued from the cluster's
 * `kubernetes-ca`, with the CA bundle to trust: held in memory by the caller, never written anywhere.
 * NotUpdatedError before the first `update cluster --yes` (no CA yet).
 */
export async function issueAdminCredential(vfs: Vfs, cluster: string, validityMs: number): Promise<{ ca: string; admin: Keypair }> {
  const keystore = new Keystore(vfs, cluster);
  const ca = await keystore.getPublic(KUBERNETES_CA);
  if (!ca) throw new NotUpdatedError(`cluster "${cluster}" has no ${KUBERNETES_CA} yet: its PKI is created by the first update; run "kforge update cluster ${cluster} --yes" first`);
  const signer = (await keystore.getPrivate(KUBERNETES_CA)).keyset.primary();
  const admin = await issueKeypair({ subject: adminSubject(localUser()), usage: 'client', validityMs }, signer);
  return { ca: ca.keyset.certificateBundle(), admin };
}

function localUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return process.env.USER ?? 'admin';
  }
}
