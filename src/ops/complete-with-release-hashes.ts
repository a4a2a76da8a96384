import * as yaml from 'js-yaml';
import type { Cluster, InstanceGroup } from '../api/types';
import type { YamlDocument } from '../api/yaml-documents';
import { isTableKubernetesVersion, ReleaseHashes } from '../expand/assets/asset-catalog';
import { resolveReleaseHashes } from '../expand/assets/resolve-release-hashes';
import { kubernetesVersionProblem, normalizeKubernetesVersion } from '../expand/kubernetes-version';
import { StatePaths } from '../state/state-paths';
import type { Vfs } from '../state/vfs/vfs';
import { completeCluster } from './expand-cluster';

/** How completeWithReleaseHashes finds the hashes of a Kubernetes version the table lacks. */
export interface ReleaseHashOptions {
  /** Reuse the hashes recorded in the stored completed spec (an existing cluster), instead of fetching them. */
  useRecorded: boolean;
  /** Manifest documents of the objects, so errors can name file and line. */
  sources?: Map<string, YamlDocument>;
}

/**
 * Validates and expands a cluster into its completed spec, with the kubelet/kubectl hashes of a
 * Kubernetes version the built-in table lacks filled in (spec.assets.releaseHashes): the ones recorded in
 * the stored completed spec, else fetched from the release's .sha256 files. A version without a
 * published release is a validation error, so create and edit still refuse it. `cluster` (the user's
 * config) is not changed: the hashes go into the completed spec only.
 */
export async function completeWithReleaseHashes(vfs: Vfs, cluster: Cluster, instanceGroups: InstanceGroup[], o: ReleaseHashOptions): Promise<Cluster> {
  const releaseHashes = await releaseHashesFor(vfs, cluster, o.useRecorded);
  const forExpansion = releaseHashes ? { ...cluster, spec: { ...cluster.spec, assets: { ...cluster.spec.assets, releaseHashes } } } : cluster;
  return completeCluster(forExpansion, instanceGroups, vfs.url, o.sources);
}

/** The hashes of a version the table lacks; undefined for table versions (and invalid ones, which validation reports). */
async function releaseHashesFor(vfs: Vfs, cluster: Cluster, useRecorded: boolean): Promise<ReleaseHashes | undefined> {
  const raw = cluster.spec?.kubernetesVersion;
  if (raw === undefined || kubernetesVersionProblem(String(raw))) return undefined;
  const version = normalizeKubernetesVersion(String(raw));
  if (isTableKubernetesVersion(version)) return undefined;
  const given = cluster.spec.assets?.releaseHashes;
  if (given?.version === version && !given.unresolved) return given;
  if (useRecorded) {
    const stored = await vfs.read(StatePaths.completedSpec(cluster.metadata.name)).catch(() => undefined);
    const recorded = stored ? (yaml.load(stored.data.toString('utf8')) as Cluster | undefined)?.spec?.assets?.releaseHashes : undefined;
    if (recorded?.version === version && !recorded.unresolved) return recorded;
  }
  const resolved = await resolveReleaseHashes(version, cluster.spec.assets?.fileRepository);
  if (resolved.unresolved) {
    process.stderr.write(
      `Warning: could not fetch the kubelet and kubectl hashes of Kubernetes ${version} (not in kforge's table); they are recorded as unresolved and the next command that needs them ("kforge update cluster") fetches them again. Nodes will not install unverified files.\n`,
    );
  }
  return resolved;
}
