import type { ClusterSpec } from '../api/types';
import { ETCD_CLIENT_PORTS, ETCD_PEER_PORTS } from '../expand/components/etcd';
import type { ComponentCommand } from './component-argv';

/**
 * The argv of one member of an etcd cluster (`main`, `events`, …) as kforge would start it: name, data
 * dir, peer and client URLs on kops's ports, mutual TLS for clients and peers. Only flags every etcd
 * kforge pairs with Kubernetes 1.33–1.37 accepts (3.5, 3.6, 3.7): no `--enable-v2` (gone in 3.6) and no
 * `--experimental-*` flag (renamed in 3.6, gone in 3.7); test/flags/accepted-flags.test.ts checks this.
 * Pure: throws when the cluster or member is not in the spec.
 */
export function etcdCommand(spec: ClusterSpec, clusterName: string, etcdName: string, memberName: string): ComponentCommand {
  const index = (spec.etcdClusters ?? []).findIndex((e) => e.name === etcdName);
  const etcd = spec.etcdClusters?.[index];
  if (!etcd) throw new Error(`no etcd cluster "${etcdName}" in the spec`);
  const members = etcd.etcdMembers ?? [];
  if (!members.some((m) => m.name === memberName)) throw new Error(`etcd cluster "${etcdName}" has no member "${memberName}"`);
  const clientPort = ETCD_CLIENT_PORTS[etcdName] ?? 4001 + index;
  const peerPort = ETCD_PEER_PORTS[etcdName] ?? 2380 + index;
  // kops names members `etcd-<member>` (main) and `etcd-<cluster>-<member>` (others) under the internal zone.
  const host = (m: string): string => `${etcdName === 'main' ? 'etcd' : `etcd-${etcdName}`}-${m}.internal.${clusterName}`;
  const pki = `/etc/kubernetes/pki/etcd-manager-${etcdName}`;
  const flags = [
    `--name=${memberName}`,
    `--data-dir=/var/lib/etcd/${etcdName}`,
    `--listen-peer-urls=https://0.0.0.0:${peerPort}`,
    `--initial-advertise-peer-urls=https://${host(memberName)}:${peerPort}`,
    `--listen-client-urls=https://0.0.0.0:${clientPort}`,
    `--advertise-client-urls=https://${host(memberName)}:${clientPort}`,
    `--initial-cluster=${[...members].sort((a, b) => a.name.localeCompare(b.name)).map((m) => `${m.name}=https://${host(m.name)}:${peerPort}`).join(',')}`,
    '--initial-cluster-state=new',
    `--initial-cluster-token=etcd-cluster-${etcdName}`,
    `--cert-file=${pki}/server.crt`,
    `--key-file=${pki}/server.key`,
    `--trusted-ca-file=${pki}/etcd-clients-ca.crt`,
    '--client-cert-auth=true',
    `--peer-cert-file=${pki}/peer.crt`,
    `--peer-key-file=${pki}/peer.key`,
    `--peer-trusted-ca-file=${pki}/etcd-peers-ca-${etcdName}.crt`,
    '--peer-client-cert-auth=true',
  ];
  // Sorted by flag name, like componentCommand.
  flags.sort((a, b) => a.slice(0, a.indexOf('=')).localeCompare(b.slice(0, b.indexOf('='))));
  return { component: 'etcd', argv: ['/usr/local/bin/etcd', ...flags] };
}
