import type { ClusterSpec } from '../../api/types';
import type { ExpandContext } from '../expand-context';

/** containerd and runc versions (kops's table for the Kubernetes minor), log level and the sandbox (pause) image. */
export function expandContainerd(spec: ClusterSpec, ctx: ExpandContext): void {
  const c = (spec.containerd ??= {});
  c.version ??= ctx.versions.containerd;
  c.logLevel ??= 'info';
  c.runc ??= {};
  c.runc.version ??= ctx.versions.runc;
  // A pause image the user gave kubelet (allowed before 1.35) is the one containerd must run, so both agree.
  c.sandboxImage ??= spec.kubelet?.podInfraContainerImage ?? `registry.k8s.io/pause:${ctx.versions.pause}`;
}
