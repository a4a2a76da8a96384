import * as fs from 'node:fs/promises';
import type { KubeConfig } from '@kubernetes/client-node';
import { UsageError } from '../errors/usage-error';
import { kubeconfigPath } from '../kubeconfig/kubeconfig-file';

/**
 * The cluster's context from a kubeconfig (`--kubeconfig`, else $KUBECONFIG, else ~/.kube/config), as kops
 * finds it: the context named after the cluster, which `kforge export kubeconfig NAME --admin` writes.
 * UsageError naming the file when it or the context is missing.
 */
export async function loadClusterKubeconfig(cluster: string, flag: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<KubeConfig> {
  const file = await kubeconfigPath(flag, env);
  const text = await fs.readFile(file, 'utf8').catch(() => undefined);
  const hint = `run "kforge export kubeconfig ${cluster} --admin" first, or pass --cloudonly to roll without the Kubernetes API`;
  if (text === undefined) throw new UsageError(`kubeconfig ${file} cannot be read: ${hint}`);
  const { KubeConfig } = await import('@kubernetes/client-node');
  const kc = new KubeConfig();
  try {
    kc.loadFromString(text);
  } catch (e) {
    throw new UsageError(`kubeconfig ${file} is not a kubeconfig (${e instanceof Error ? e.message : String(e)}): ${hint}`);
  }
  if (!kc.getContexts().some((c) => c.name === cluster)) throw new UsageError(`kubeconfig ${file} has no context "${cluster}": ${hint}`);
  kc.setCurrentContext(cluster);
  return kc;
}
