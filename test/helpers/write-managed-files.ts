import { ManagedFilesPlan, planManagedFiles, writeManagedFiles } from '../../src/ops/plan-managed-files';
import { openVfs } from '../../src/state/vfs/open-vfs';

/**
 * Does what `update cluster --yes` does to the state store (the PKI and the managed files), in-process,
 * for tests whose clusters were made by the CLI: `store` is a directory or a store URL; `env` (e.g. an
 * S3 endpoint and credentials; undefined removes a variable) applies while it runs. Returns the plan.
 */
export async function writeManagedFilesOf(store: string, cluster: string, env: NodeJS.ProcessEnv = {}): Promise<ManagedFilesPlan> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  const apply = (values: NodeJS.ProcessEnv) => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  apply(env);
  try {
    const vfs = openVfs(store);
    const plan = await planManagedFiles(vfs, cluster);
    await writeManagedFiles(vfs, plan);
    return plan;
  } finally {
    apply(saved);
  }
}
