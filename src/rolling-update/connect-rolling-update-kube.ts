import type { Cluster } from '../api/types';
import type { CloudMachines } from '../cloud/cloud-provider';
import type { ValidationFailure } from '../cluster-validation/validation-result';
import { RollingUpdateError } from '../errors/rolling-update-error';
import type { Vfs } from '../state/vfs/vfs';
import { clientNodeRollingUpdateKube } from './client-node-rolling-update-kube';
import type { RollingUpdateKube } from './rolling-update-kube';

/** Where `rolling-update cluster` finds the Kubernetes API. */
export interface ConnectRollingUpdateKubeOptions {
  /** `--kubeconfig`; default the user's kubeconfig context of the cluster, else an admin certificate issued in memory. */
  kubeconfig?: string;
  /** The API URL instead of the spec's `https://api.<cluster>` (a tunnel; tests). */
  server?: string;
  env?: NodeJS.ProcessEnv;
}

// The in-memory admin credential lives as long as a long rolling update may (validate's is a day too).
const ADMIN_VALIDITY_MS = 24 * 3600 * 1000;

/** A validation failure as one line: what, where, why. */
export function failureLine(f: ValidationFailure): string {
  return `${f.kind} ${f.name}: ${f.message}${f.cause ? ` (${f.cause})` : ''}`;
}

/**
 * The cluster's Kubernetes API for a rolling update, reached as `validate cluster` reaches it (`--kubeconfig`,
 * the user's context of the cluster, else an admin certificate issued in memory), and the
 * validation pass `validate cluster` runs (API, instance groups against their cloud groups, machines
 * without Nodes, Nodes Ready, control-plane and critical pods).
 */
export async function connectRollingUpdateKube(vfs: Vfs, cluster: Cluster, cloud: CloudMachines, o: ConnectRollingUpdateKubeOptions = {}): Promise<RollingUpdateKube> {
  const { resolveKubeAccess } = await import('../cluster-validation/kube-access');
  const { issueAdminCredential } = await import('../ops/issue-admin-credential');
  const { validatePass } = await import('../cluster-validation/validate-pass');
  const { ClusterRepository } = await import('../state/cluster-repository');
  const name = cluster.metadata.name;
  const server = o.server ?? `https://${cluster.spec?.masterPublicName ?? `api.${name}`}`;
  const access = await resolveKubeAccess({ cluster: name, kubeconfig: o.kubeconfig, server, env: o.env, issueAdmin: () => issueAdminCredential(vfs, name, ADMIN_VALIDITY_MS) });
  const instanceGroups = (await new ClusterRepository(vfs).get(name)).instanceGroups.map((v) => v.object);
  const etcdClusters = (cluster.spec?.etcdClusters ?? []).map((e) => e.name).sort();
  const { apiCallProblem } = await import('../cluster-validation/api-reachability');
  const kube = await clientNodeRollingUpdateKube(access.kc, async () => {
    const result = await validatePass({ cluster: name, instanceGroups, etcdClusters, access, cloud });
    return { ok: result.valid, failures: result.failures.map(failureLine) };
  });
  // Listing the Nodes is the first call: an API that cannot be used is named with where the credentials came from.
  const nodes = kube.nodes;
  kube.nodes = () =>
    nodes().catch((e: unknown) => {
      throw new RollingUpdateError('KUBERNETES_API', `cannot list the Nodes of cluster "${name}" at ${access.server} (credentials: ${access.source}): ${apiCallProblem(e, access.source).message}; pass --cloudonly to roll without the Kubernetes API`);
    });
  return kube;
}
