import type { ClusterSpec } from '../../api/types';
import type { ExpandContext } from '../expand-context';
import { componentImage } from './images';

/** kube-controller-manager: pod CIDR allocation, leader election, signing keys. */
export function expandKubeControllerManager(spec: ClusterSpec, ctx: ExpandContext): void {
  const c = (spec.kubeControllerManager ??= {});
  c.image ??= componentImage('kube-controller-manager', ctx.kubernetesVersion);
  c.logLevel ??= 2;
  c.cloudProvider ??= 'external';
  c.clusterName ??= ctx.clusterName;
  c.clusterCIDR ??= spec.podCIDR;
  c.allocateNodeCIDRs ??= true;
  // Only kubenet needs the cloud's route tables to carry pod routes.
  c.configureCloudRoutes ??= spec.networking?.kubenet !== undefined;
  c.leaderElection ??= { leaderElect: true };
  c.attachDetachReconcileSyncPeriod ??= '1m0s';
  c.useServiceAccountCredentials ??= true;
  c.rootCAFile ??= '/srv/kubernetes/ca.crt';
  c.serviceAccountPrivateKeyFile ??= '/srv/kubernetes/kube-controller-manager/service-account.key';
}
