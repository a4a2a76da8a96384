import type { ClusterSpec } from '../../api/types';
import type { ExpandContext } from '../expand-context';
import { componentImage } from './images';

/** kube-scheduler: image, log level, leader election. */
export function expandKubeScheduler(spec: ClusterSpec, ctx: ExpandContext): void {
  const c = (spec.kubeScheduler ??= {});
  c.image ??= componentImage('kube-scheduler', ctx.kubernetesVersion);
  c.logLevel ??= 2;
  c.leaderElection ??= { leaderElect: true };
}
