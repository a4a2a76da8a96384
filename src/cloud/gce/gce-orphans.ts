import type { AnyTask } from '../../tasks/task';
import type { OrphanedResource } from '../cloud-provider';
import type { GceCloud } from './gce-cloud';
import { GCE_COLLECTIONS } from './gce-compute';
import { GceInstanceTemplateTask } from './tasks/gce-instance-template-task';

/**
 * The cluster's resources the model no longer has. Instance templates are immutable, so a changed group
 * leaves its previous template (same name prefix, another content suffix): it is listed here and deleted
 * after the apply has pointed the MIG at the new one. Read from the run's inventory: no extra call.
 */
export async function findGceOrphans(cloud: GceCloud, tasks: readonly AnyTask<GceCloud>[]): Promise<OrphanedResource[]> {
  const templates = tasks.filter((t): t is GceInstanceTemplateTask => t instanceof GceInstanceTemplateTask);
  if (templates.length === 0) return [];
  const wanted = new Set(templates.map((t) => t.templateName()));
  const prefixes = templates.map((t) => `${t.desired.namePrefix}-`);
  const existing = await cloud.inventory.all(GCE_COLLECTIONS.instanceTemplates);
  return existing
    .map((r) => String(r.name))
    .filter((name) => !wanted.has(name) && prefixes.some((p) => name.startsWith(p) && /^[0-9a-f]{8}$/.test(name.slice(p.length))))
    .sort()
    .map((name) => ({ kind: 'InstanceTemplate', name }));
}

/** Deletes what findGceOrphans found (after apply: no MIG uses them any more). */
export async function deleteGceOrphans(cloud: GceCloud, orphans: readonly OrphanedResource[]): Promise<void> {
  for (const o of orphans) {
    if (o.kind === 'InstanceTemplate') await cloud.compute.delete(GCE_COLLECTIONS.instanceTemplates, undefined, o.name);
  }
  cloud.inventory.invalidate();
}
