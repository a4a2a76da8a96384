import type { ClusterSpec } from '../../api/types';
import type { ExpandContext } from '../expand-context';

/** Client port of each well-known etcd cluster on the control-plane host; kops's numbering. */
export const ETCD_CLIENT_PORTS: Record<string, number> = { main: 4001, events: 4002, cilium: 4003 };
/** Peer port of each well-known etcd cluster; kops's etcd-manager numbering (2380 is etcd's own default). */
export const ETCD_PEER_PORTS: Record<string, number> = { main: 2380, events: 2381, cilium: 2382 };

/** etcd clusters: version, backups under the config base, etcd-manager retention, resource requests. */
export function expandEtcd(spec: ClusterSpec, ctx: ExpandContext): void {
  for (const etcd of spec.etcdClusters ?? []) {
    etcd.version ??= ctx.versions.etcd;
    etcd.backups ??= {};
    etcd.backups.backupStore ??= `${spec.configBase}/backups/etcd/${etcd.name}`;
    etcd.manager ??= {};
    etcd.manager.backupRetentionDays ??= 90;
    etcd.cpuRequest ??= etcd.name === 'main' ? '200m' : '100m';
    etcd.memoryRequest ??= '100Mi';
  }
}

/** `https://127.0.0.1:<port>` of an etcd cluster, as kube-apiserver reaches it. */
export function etcdClientUrl(name: string, index: number): string {
  return `https://127.0.0.1:${ETCD_CLIENT_PORTS[name] ?? 4001 + index}`;
}
