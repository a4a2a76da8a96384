import type { CloudConnection } from '../cloud/cloud-provider';
import type { Vfs } from '../state/vfs/vfs';
import { exportKubeconfig } from './export-kubeconfig';

/** Inputs of exportAfterUpdate: update's kubeconfig flags and its connected cloud. */
export interface ExportAfterUpdateOptions {
  cluster: string;
  /** `--admin`: an admin certificate valid this long (ms). Default: no credentials. */
  adminMs?: number;
  /** `--user`: an existing kubeconfig user. */
  user?: string;
  /** `--internal`: the API's internal name. */
  internal?: boolean;
  /** The update run's cloud, reused to look up the API load balancer. */
  cloud: CloudConnection;
  /** The kubeconfig file to merge into. */
  file: string;
  /** Whether the run changed anything (a later run that changed nothing suggests nothing). */
  applied: boolean;
}

/** One line for the user: `out` for what was done and what to do next, `err` for warnings. */
export interface ReportLine {
  stream: 'out' | 'err';
  text: string;
}

/**
 * What kops's `update cluster --yes` does after applying: writes the cluster's context into the kubeconfig
 * and says what to do next. A first export (the cluster was not in the kubeconfig) means a new cluster:
 * kops's "Cluster is starting" with its suggestions; a later one suggests a rolling update.
 */
export async function exportAfterUpdate(vfs: Vfs, o: ExportAfterUpdateOptions): Promise<ReportLine[]> {
  let r: Awaited<ReturnType<typeof exportKubeconfig>>;
  try {
    r = await exportKubeconfig(vfs, { cluster: o.cluster, adminMs: o.adminMs, user: o.user, internal: o.internal, file: o.file, cloud: o.cloud });
  } catch (e) {
    // The cluster was updated; a kubeconfig that could not be written is the user's to retry, not a failed update.
    const why = e instanceof Error ? e.message : String(e);
    return [{ stream: 'err', text: `Warning: the kubeconfig was not written (${why}); run "kforge export kubeconfig ${o.cluster}${o.adminMs !== undefined ? ' --admin' : ''}"` }];
  }
  const out = (text: string): ReportLine => ({ stream: 'out', text });
  const lines: ReportLine[] = [out(`kforge has set your kubectl context to ${r.context} (server ${r.server}) in ${r.file}`)];
  if (r.adminExpiry) lines.push(out(`The admin certificate expires at ${r.adminExpiry.toISOString()}.`));
  if (r.warning) lines.push({ stream: 'err', text: `Warning: ${r.warning}` });
  if (r.withoutCredentials) lines.push({ stream: 'err', text: `Warning: exported kubeconfig with no user authentication; use --admin or --user here or with "kforge export kubeconfig ${o.cluster}"` });
  if (r.firstExport) {
    lines.push(out(''), out('Cluster is starting. It should be ready in a few minutes.'), out(''), out('Suggestions:'));
    lines.push(out(` * validate cluster: kforge validate cluster ${o.cluster} --wait 10m`));
    lines.push(out(' * list nodes: kubectl get nodes --show-labels'));
  } else if (o.applied) {
    lines.push(out(''), out(`Changes may require instances to restart: kforge rolling-update cluster ${o.cluster}`));
  }
  return lines;
}
