import type { ClusterSpec } from '../../api/types';
import type { ExpandContext } from '../expand-context';

/** containerd and runc versions (kops's table for the Kubernetes minor) and log level. */
export function expandContainerd(spec: ClusterSpec, ctx: ExpandContext): void {
  const c = (spec.containerd ??= {});
  c.version ??= ctx.versions.containerd;
  c.logLevel ??= 'info';
  c.runc ??= {};
  c.runc.version ??= ctx.versions.runc;
}
