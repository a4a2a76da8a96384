import type { ClusterSpec } from '../../api/types';
import { isTableKubernetesVersion } from '../assets/asset-catalog';
import type { ExpandContext } from '../expand-context';

/** Cluster-wide settings that do not belong to one component: names, stores, access, DNS, API exposure. */
export function expandClusterDefaults(spec: ClusterSpec, ctx: ExpandContext): void {
  spec.cloudProvider ??= 'aws';
  spec.channel ??= 'stable';
  spec.kubernetesVersion = ctx.kubernetesVersion;
  // Nodes read their config from where the cluster is actually stored, whatever the manifest said.
  spec.configBase = `${ctx.storeUrl.replace(/\/+$/, '')}/${ctx.clusterName}`;
  spec.keyStore ??= `${spec.configBase}/pki`;
  spec.secretStore ??= `${spec.configBase}/secrets`;
  spec.clusterDNSDomain ??= 'cluster.local';
  spec.masterPublicName ??= spec.api?.publicName ?? `api.${ctx.clusterName}`;
  spec.masterInternalName ??= `api.internal.${ctx.clusterName}`;
  spec.kubernetesApiAccess ??= ['0.0.0.0/0', '::/0'];
  spec.sshAccess ??= [...spec.kubernetesApiAccess];
  // kforge defaults to RBAC when `authorization` is absent; kops's legacy default there is AlwaysAllow.
  spec.authorization ??= { rbac: {} };
  spec.iam ??= {};
  spec.iam.legacy ??= false;
  // No default for allowContainerRegistry: kops sets it only in a new cluster (`create cluster`,
  // upup/pkg/fi/cloudup/new_cluster.go), and its IAM builder grants ECR read only when it is true.
  spec.containerRuntime ??= 'containerd';
  spec.topology ??= {};
  spec.topology.dns ??= { type: defaultDnsType(ctx.clusterName) };
  spec.api ??= defaultApi(spec);
  // A load balancer without a type is a public one (kops's populate_cluster_spec.go).
  if (spec.api.loadBalancer && !spec.api.loadBalancer.type) spec.api.loadBalancer.type = 'Public';
  recordReleaseHashes(spec, ctx.kubernetesVersion);
}

/**
 * A version the hash table lacks carries its fetched hashes in spec.assets.releaseHashes (filled in by
 * the command before expansion); without them, or with hashes of another version, they are unresolved.
 */
function recordReleaseHashes(spec: ClusterSpec, version: string): void {
  if (isTableKubernetesVersion(version)) {
    if (spec.assets?.releaseHashes) delete spec.assets.releaseHashes;
    return;
  }
  spec.assets ??= {};
  if (spec.assets.releaseHashes?.version !== version) spec.assets.releaseHashes = { version, unresolved: true };
}

function defaultDnsType(clusterName: string): 'Public' | 'None' {
  // `.k8s.local` names were kops's gossip clusters; they have no DNS zone.
  return clusterName.endsWith('.k8s.local') ? 'None' : 'Public';
}

function defaultApi(spec: ClusterSpec): NonNullable<ClusterSpec['api']> {
  const privateTopology = (spec.subnets ?? []).some((s) => s.type === 'Private');
  if (spec.topology?.dns?.type === 'Public' && !privateTopology) return { dns: {} };
  return { loadBalancer: { type: 'Public', class: 'Network' } };
}
