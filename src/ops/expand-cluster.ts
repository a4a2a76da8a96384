import type { Cluster, InstanceGroup } from '../api/types';
import { toSortedYaml } from '../api/to-yaml';
import type { YamlDocument } from '../api/yaml-documents';
import { SUPPORTED_CLOUDS } from '../api/api-versions';
import { locateErrors } from '../api/load-manifests';
import { ValidationError } from '../errors/validation-error';
import { normalizedRole } from '../expand/expand-context';
import { populateCluster } from '../expand/populate-cluster';
import type { ClusterCertificates } from '../pki/cluster-certificates';
import { assembleAddons, renderAddons } from '../model/addons/addon-channel';
import { buildNodeupConfig } from '../model/nodeup-config-builder';
import { StatePaths } from '../state/state-paths';
import { validateAgainstSchema } from '../validate/schema-validator';
import { validateSpec } from '../validate/validate-spec';

/** The result of validating and expanding a cluster: the completed spec and every derived file. */
export interface ExpandedCluster {
  completed: Cluster;
  /** Derived objects to store, keyed by state-store key: completed spec and nodeup configs. */
  files: Map<string, string>;
}

/**
 * spec → validate → expand → validate again → nodeup configs. Throws one ValidationError that lists
 * every problem; `sources` adds file and line to errors about objects read from a manifest.
 */
export function expandCluster(
  cluster: Cluster,
  instanceGroups: InstanceGroup[],
  storeUrl: string,
  sources = new Map<string, YamlDocument>(),
  certificates?: ClusterCertificates,
): ExpandedCluster {
  const completed = completeCluster(cluster, instanceGroups, storeUrl, sources);
  return { completed, files: derivedFiles(completed, instanceGroups, certificates) };
}

/** spec → validate → expand → validate again: the completed spec, or one ValidationError listing every problem. */
export function completeCluster(cluster: Cluster, instanceGroups: InstanceGroup[], storeUrl: string, sources = new Map<string, YamlDocument>()): Cluster {
  const name = cluster.metadata.name;
  // An unsupported cloud makes every other finding noise (its fields are unknown here): say only that.
  const cloud = (cluster.spec as { cloudProvider?: unknown } | undefined)?.cloudProvider;
  if (typeof cloud === 'string' && !SUPPORTED_CLOUDS.includes(cloud)) {
    const error = { object: `Cluster/${name}`, path: 'spec.cloudProvider', message: `"${cloud}" is not supported: kforge builds clusters on ${SUPPORTED_CLOUDS.join(' and ')}` };
    throw new ValidationError(locateErrors([error], sources), `cluster ${name}`);
  }
  const schemaErrors = [
    ...validateAgainstSchema('Cluster', cluster).map((e) => ({ ...e, object: `Cluster/${name}` })),
    ...instanceGroups.flatMap((ig) => validateAgainstSchema('InstanceGroup', ig).map((e) => ({ ...e, object: `InstanceGroup/${ig.metadata?.name}` }))),
  ];
  if (schemaErrors.length > 0) throw new ValidationError(locateErrors(schemaErrors, sources), `cluster ${name}`);
  const before = validateSpec(cluster, instanceGroups);
  if (before.length > 0) throw new ValidationError(locateErrors(before, sources), `cluster ${name}`);
  const completed = populateCluster(cluster, instanceGroups, storeUrl);
  const after = [...validateSpec(completed, instanceGroups), ...validateAgainstSchema('Cluster', completed).map((e) => ({ ...e, path: `(completed spec) ${e.path}` }))];
  if (after.length > 0) throw new ValidationError(locateErrors(after, sources), `cluster ${name}`);
  return completed;
}

/**
 * The files derived from a completed spec: the completed spec itself, one nodeup config per instance group, and
 * the addons (kops's bootstrap channel and one manifest per addon, none when no builder renders anything).
 */
export function derivedFiles(completed: Cluster, instanceGroups: InstanceGroup[], certificates?: ClusterCertificates): Map<string, string> {
  const name = completed.metadata.name;
  const files = new Map<string, string>();
  files.set(StatePaths.completedSpec(name), toSortedYaml(completed));
  for (const ig of [...instanceGroups].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))) {
    files.set(StatePaths.nodeupConfig(name, normalizedRole(ig), ig.metadata.name), toSortedYaml(buildNodeupConfig(completed, ig, certificates)));
  }
  const addons = renderAddons({ cluster: completed, instanceGroups });
  if (addons.length > 0) {
    for (const [relative, content] of assembleAddons(addons).files) files.set(StatePaths.addonFile(name, relative), content);
  }
  return files;
}
