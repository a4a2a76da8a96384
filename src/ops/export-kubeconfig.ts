import * as os from 'node:os';
import { NotFoundError } from '../errors/not-found-error';
import { existingUser, mergeKubeconfig, NamedEntry } from '../kubeconfig/kubeconfig-file';
import { adminSubject, KUBERNETES_CA } from '../pki/cluster-pki';
import { issueKeypair } from '../pki/issue-keypair';
import { NotUpdatedError } from '../errors/not-updated-error';
import { ClusterRepository } from '../state/cluster-repository';
import { Keystore } from '../state/keystore';
import type { Vfs } from '../state/vfs/vfs';
import { performAssignments } from '../expand/perform-assignments';
import { completeCluster } from './expand-cluster';

/** Inputs of `export kubeconfig`. */
export interface ExportKubeconfigOptions {
  cluster: string;
  /** Issue an admin client certificate valid this long (ms). Default: no credentials. */
  adminMs?: number;
  /** Use this existing kubeconfig user instead of writing one. */
  user?: string;
  /** Use the internal API name (from inside the cluster's network). Default: the public name. */
  internal?: boolean;
  /** The kubeconfig file to merge into. */
  file: string;
  /** Default: the current time. */
  now?: Date;
}

/** What `export kubeconfig` did. */
export interface ExportKubeconfigResult {
  file: string;
  context: string;
  server: string;
  /** When the admin certificate expires, if one was issued. */
  adminExpiry?: Date;
  /** The context's user has no credentials (neither --admin nor --user, and none stored before). */
  withoutCredentials: boolean;
}

/**
 * Writes a context for the cluster into a kubeconfig: the server, the cluster CA bundle, and, with
 * `adminMs`, a short-lived admin client certificate issued from `kubernetes-ca` (never stored anywhere
 * else). The server is the API's DNS name from the spec until the cloud step records a load balancer.
 */
export async function exportKubeconfig(vfs: Vfs, o: ExportKubeconfigOptions): Promise<ExportKubeconfigResult> {
  const repo = new ClusterRepository(vfs);
  // A missing cluster is "not found", as every command says, not a missing completed spec.
  if (!(await repo.exists(o.cluster))) throw new NotFoundError(`cluster "${o.cluster}" not found in state store ${vfs.url}`);
  const keystore = new Keystore(vfs, o.cluster);
  const ca = await keystore.getPublic(KUBERNETES_CA);
  // As in kops, the PKI is created by the first update, not by create.
  if (!ca) throw new NotUpdatedError(`cluster "${o.cluster}" has no ${KUBERNETES_CA} yet: its PKI is created by the first update; run "kforge update cluster ${o.cluster} --yes" first`);
  // The API names need no release hashes: completed without them, so that nothing is fetched.
  const stored = await repo.get(o.cluster);
  const completed = completeCluster(performAssignments(stored.cluster.object), stored.instanceGroups.map((v) => v.object), vfs.url);
  const host = o.internal ? completed.spec.masterInternalName ?? `api.internal.${o.cluster}` : completed.spec.masterPublicName ?? `api.${o.cluster}`;
  const server = `https://${host}`;
  const name = o.cluster;
  const userName = o.user ?? name;
  let user: NamedEntry | undefined;
  let adminExpiry: Date | undefined;
  if (o.adminMs !== undefined && !o.user) {
    const signer = (await keystore.getPrivate(KUBERNETES_CA)).keyset.primary();
    const cert = await issueKeypair({ subject: adminSubject(localUser()), usage: 'client', validityMs: o.adminMs, now: o.now }, signer);
    adminExpiry = new Date(cert.certificate.validTo);
    user = {
      name: userName,
      user: {
        'client-certificate-data': Buffer.from(cert.certificatePem).toString('base64'),
        'client-key-data': Buffer.from(cert.privateKeyPem as string).toString('base64'),
      },
    };
  }
  const hadUser = !user && (await existingUser(o.file, userName)) !== undefined;
  await mergeKubeconfig(o.file, {
    cluster: { name, cluster: { 'certificate-authority-data': Buffer.from(ca.keyset.certificateBundle()).toString('base64'), server } },
    user,
    context: { name, context: { cluster: name, user: userName } },
  });
  return { file: o.file, context: name, server, adminExpiry, withoutCredentials: !user && !o.user && !hadUser };
}

function localUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return process.env.USER ?? 'admin';
  }
}
