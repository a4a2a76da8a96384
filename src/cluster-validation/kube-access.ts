import { promises as fs } from 'node:fs';
import type { KubeConfig } from '@kubernetes/client-node';
import { UsageError } from '../errors/usage-error';
import { kubeconfigPath } from '../kubeconfig/kubeconfig-file';
import type { Keypair } from '../pki/keypair';

/** How validate reaches the API: a client-node KubeConfig, and where its credentials came from. */
export interface KubeAccess {
  kc: KubeConfig;
  server: string;
  /** `kubeconfig <file> context <name>`, or `an admin certificate issued in memory from the state store`. */
  source: string;
}

/** Loads @kubernetes/client-node (~400 ms, ESM): only the commands that talk to the API pay for it. */
export function loadClientNode(): Promise<typeof import('@kubernetes/client-node')> {
  return import('@kubernetes/client-node');
}

/** What resolveKubeAccess needs. */
export interface KubeAccessOptions {
  cluster: string;
  /** --kubeconfig: use this file (its context named after the cluster, else its current context). */
  kubeconfig?: string;
  /** The API URL from the spec (`https://api.<cluster>`), for an issued credential. */
  server: string;
  /** Issues the in-memory admin credential; called only when no kubeconfig context fits. */
  issueAdmin: () => Promise<{ ca: string; admin: Keypair }>;
  env?: NodeJS.ProcessEnv;
}

/**
 * The credentials of a validation, in kops's order: `--kubeconfig`; else the current context of the
 * user's kubeconfig when it is this cluster's (kforge and kops name the context after the cluster); else
 * a short-lived admin certificate issued in memory from the state store's CA, as `export kubeconfig
 * --admin` issues one, which is never written anywhere.
 */
export async function resolveKubeAccess(o: KubeAccessOptions): Promise<KubeAccess> {
  const k8s = await loadClientNode();
  if (o.kubeconfig) {
    const file = await kubeconfigPath(o.kubeconfig, o.env);
    const text = await fs.readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
      throw new UsageError(`--kubeconfig ${o.kubeconfig}: cannot read it (${e.code ?? e.message})`);
    });
    const kc = new k8s.KubeConfig();
    try {
      kc.loadFromString(text);
    } catch (e) {
      throw new UsageError(`--kubeconfig ${o.kubeconfig}: not a kubeconfig (${(e as Error).message})`);
    }
    if (kc.getContexts().some((c) => c.name === o.cluster)) kc.setCurrentContext(o.cluster);
    const server = kc.getCurrentCluster()?.server;
    if (!server) throw new UsageError(`--kubeconfig ${o.kubeconfig}: it has no context named "${o.cluster}" and its current context names no cluster server`);
    return { kc, server, source: `kubeconfig ${file} context ${kc.getCurrentContext()}` };
  }
  const file = await kubeconfigPath(undefined, o.env);
  const text = await fs.readFile(file, 'utf8').catch(() => undefined);
  if (text !== undefined) {
    const kc = new k8s.KubeConfig();
    try {
      kc.loadFromString(text);
      const current = kc.getContextObject(kc.getCurrentContext());
      const server = kc.getCurrentCluster()?.server;
      const user = kc.getCurrentUser();
      const hasCredentials = user !== null && Object.entries(user).some(([k, v]) => k !== 'name' && v !== undefined && v !== '');
      if (current?.cluster === o.cluster && server && hasCredentials) return { kc, server, source: `kubeconfig ${file} context ${current.name}` };
    } catch {
      // An unreadable kubeconfig that is not asked for is not this command's business: issue credentials instead.
    }
  }
  const { ca, admin } = await o.issueAdmin();
  const kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: o.cluster, server: o.server, caData: Buffer.from(ca).toString('base64') }],
    users: [{ name: 'kforge-validate', certData: Buffer.from(admin.certificatePem).toString('base64'), keyData: Buffer.from(admin.privateKeyPem as string).toString('base64') }],
    contexts: [{ name: o.cluster, cluster: o.cluster, user: 'kforge-validate' }],
    currentContext: o.cluster,
  });
  return { kc, server: o.server, source: 'an admin certificate issued in memory from the state store' };
}
