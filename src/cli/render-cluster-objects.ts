import type { ClusterObjects } from '../ops/get-cluster-objects';
import { OutputFormat, renderObjects, renderTable } from './output';

/**
 * Renders what `get NAME` / `get all NAME` print, as kops does: tables under the headings "Cluster",
 * "Instance Groups" and (when there are any) "Addon Objects"; for yaml and json, every object as a
 * list (a multi-document stream, or a JSON array) that `create -f` and `replace -f` accept.
 */
export function renderClusterObjects(objects: ClusterObjects, format: OutputFormat): string {
  if (format !== 'table') return renderObjects(format, [objects.cluster, ...objects.instanceGroups, ...objects.additionalObjects], true);
  const spec = objects.cluster.spec;
  const zones = [...new Set((spec.subnets ?? []).map((x) => x.zone ?? x.region ?? ''))].filter(Boolean).join(',');
  const parts = [
    'Cluster\n',
    renderTable(['NAME', 'CLOUD', 'ZONES'], [[objects.cluster.metadata.name, spec.cloudProvider ?? 'aws', zones]]),
    '\nInstance Groups\n',
    renderTable(
      ['NAME', 'ROLE', 'MACHINETYPE', 'MIN', 'MAX', 'SUBNETS'],
      objects.instanceGroups.map((ig) => [ig.metadata.name, ig.spec.role, ig.spec.machineType ?? '(auto)', String(ig.spec.minSize ?? ''), String(ig.spec.maxSize ?? ''), (ig.spec.subnets ?? []).join(',')]),
    ),
  ];
  if (objects.additionalObjects.length > 0) {
    const name = (o: Record<string, unknown>) => String((o.metadata as { name?: unknown } | undefined)?.name ?? '');
    parts.push('\nAddon Objects\n', renderTable(['KIND', 'NAME', 'APIVERSION'], objects.additionalObjects.map((o) => [String(o.kind ?? ''), name(o), String(o.apiVersion ?? '')])));
  }
  return parts.join('');
}
