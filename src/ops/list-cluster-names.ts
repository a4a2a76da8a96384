import { ClusterRepository } from '../state/cluster-repository';
import { openVfs } from '../state/vfs/open-vfs';

/**
 * The cluster names of a store for shell completion: sorted, and empty when the store cannot be read
 * within `timeoutMs` or at all (completion must never print an error into the user's command line).
 */
export async function listClusterNamesQuickly(stateUrl: string, timeoutMs: number): Promise<string[]> {
  const names = (async () => new ClusterRepository(openVfs(stateUrl)).listClusterNames())().catch(() => [] as string[]);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string[]>((resolve) => {
    timer = setTimeout(() => resolve([]), timeoutMs);
  });
  try {
    return await Promise.race([names, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
