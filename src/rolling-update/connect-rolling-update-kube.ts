import type { Cluster } from '../api/types';
import type { Vfs } from '../state/vfs/vfs';
import { clientNodeRollingUpdateKube } from './client-node-rolling-update-kube';
import { loadClusterKubeconfig } from './load-cluster-kubeconfig';
import type { RollingUpdateKube, ValidationPass } from './rolling-update-kube';

/** Where `rolling-update cluster` finds the Kubernetes API. */
export interface ConnectRollingUpdateKubeOptions {
  /** `--kubeconfig`; default $KUBECONFIG, else ~/.kube/config. */
  kubeconfig?: string;
  env?: NodeJS.ProcessEnv;
}

/** The cluster's Kubernetes API for a rolling update, through the kubeconfig context named after the cluster. */
export async function connectRollingUpdateKube(_vfs: Vfs, cluster: Cluster, o: ConnectRollingUpdateKubeOptions = {}): Promise<RollingUpdateKube> {
  const kc = await loadClusterKubeconfig(cluster.metadata.name, o.kubeconfig, o.env);
  const validate = async (): Promise<ValidationPass> => ({ ok: true, failures: [] });
  return clientNodeRollingUpdateKube(kc, validate);
}
