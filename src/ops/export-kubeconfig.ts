import * as os from 'node:os';
import { NotFoundError } from '../errors/not-found-error';
import { existingCluster, existingUser, mergeKubeconfig, NamedEntry } from '../kubeconfig/kubeconfig-file';
import { adminSubject, KUBERNETES_CA } from '../pki/cluster-pki';
import { issueKeypair } from '../pki/issue-keypair';
import { NotUpdatedError } from '../errors/not-updated-error';
import { ClusterRepository } from '../state/cluster-repository';
import { Keystore } from '../state/keystore';
import type { Vfs } from '../state/vfs/vfs';
import type { Cluster } from '../api/types';
import { CloudConnection, loadCloudProvider } from '../cloud/cloud-provider';
import { StatePaths } from '../state/state-paths';
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
  /** The cluster's cloud, already connected (update's run); default: connect when the API load balancer must be looked up. */
  cloud?: CloudConnection;
  /** Environment of the AWS clients when connecting (AWS_ENDPOINT_URL, profiles); default process.env. */
  env?: NodeJS.ProcessEnv;
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
  /** The cluster was not in the kubeconfig before (kops's "first run" of update). */
  firstExport: boolean;
  /** Something the user should know about the server, e.g. that the load balancer does not exist yet. */
  warning?: string;
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
  const api = await apiHost(vfs, completed, o);
  const server = `https://${api.host}`;
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
  const firstExport = (await existingCluster(o.file, name)) === undefined;
  await mergeKubeconfig(o.file, {
    // As kops: TLS always checks the internal API name, which every API server certificate names, whatever the
    // server is (a load balancer's AWS DNS name or GCE IP is not in the certificate).
    cluster: { name, cluster: { 'certificate-authority-data': Buffer.from(ca.keyset.certificateBundle()).toString('base64'), server, 'tls-server-name': completed.spec.masterInternalName ?? `api.internal.${o.cluster}` } },
    user,
    context: { name, context: { cluster: name, user: userName } },
  });
  return { file: o.file, context: name, server, adminExpiry, withoutCredentials: !user && !o.user && !hadUser, firstExport, ...(api.warning ? { warning: api.warning } : {}) };
}

/**
 * The API's host name in the kubeconfig. A cluster whose API has a DNS record (or `--internal`) uses the
 * spec's name. One whose API has only a load balancer (`--dns none`, `.k8s.local`) uses the load balancer's
 * DNS name, read from AWS as kops does (on GCE the API forwarding rule's IP), since `api.<cluster>`
 * resolves nowhere; TLS checks the internal name (`tls-server-name`, as kops). Before the first
 * `update --yes` there is no load balancer yet, so the spec's name is kept with a warning.
 */
async function apiHost(vfs: Vfs, completed: Cluster, o: ExportKubeconfigOptions): Promise<{ host: string; warning?: string }> {
  const spec = completed.spec;
  const internalName = spec.masterInternalName ?? `api.internal.${o.cluster}`;
  if (o.internal) return { host: internalName };
  const publicName = spec.masterPublicName ?? `api.${o.cluster}`;
  const dnsType = spec.topology?.dns?.type;
  const withoutDns = dnsType === 'None' || o.cluster.endsWith('.k8s.local');
  const cloudName = spec.cloudProvider ?? 'aws';
  if (!withoutDns || !spec.api?.loadBalancer || (cloudName !== 'aws' && cloudName !== 'gce')) return { host: publicName };
  if (!o.cloud && (await vfs.read(StatePaths.appliedMarker(o.cluster))) === undefined) {
    return { host: publicName, warning: `cluster "${o.cluster}" has no DNS name for its API and no load balancer yet: the server ${publicName} resolves nowhere until "kforge update cluster ${o.cluster} --yes" creates the load balancer; export the kubeconfig again then` };
  }
  const provider = await loadCloudProvider(cloudName, 'export kubeconfig');
  const cloud = o.cloud ?? (await provider.connect(completed, { env: o.env, consequence: '; the kubeconfig was not written' }));
  const dnsName = await provider.apiLoadBalancerDnsName(cloud, o.cluster);
  if (!dnsName) throw new NotFoundError(`the API load balancer of cluster "${o.cluster}" was not found in ${cloud.region}: run "kforge update cluster ${o.cluster} --yes" to create it; the kubeconfig was not written`);
  return { host: dnsName };
}

function localUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return process.env.USER ?? 'admin';
  }
}
