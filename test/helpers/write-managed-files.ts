import { ManagedFilesPlan, planManagedFiles, writeManagedFiles } from '../../src/ops/plan-managed-files';
import { openVfs } from '../../src/state/vfs/open-vfs';

/**
 * Does what `update cluster --yes` does to the state store (the PKI and the managed files), in-process,
 * for tests whose clusters were made by the CLI: `store` is a directory or a store URL. Returns the plan.
 */
export async function writeManagedFilesOf(store: string, cluster: string): Promise<ManagedFilesPlan> {
  const vfs = openVfs(store);
  const plan = await planManagedFiles(vfs, cluster);
  await writeManagedFiles(vfs, plan);
  return plan;
}
