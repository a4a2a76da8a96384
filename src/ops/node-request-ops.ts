import { ConflictError } from '../errors/conflict-error';
import { NotFoundError } from '../errors/not-found-error';
import { UsageError } from '../errors/usage-error';
import { isExpired, isNodeRequestName, NodeRequestRecord, nodeRequestKey, readNodeRequest, readNodeRequests, serializeNodeRequest } from '../node-identity/node-request-record';
import { ClusterRepository } from '../state/cluster-repository';
import { localHolder } from '../state/lock/lease';
import type { Vfs } from '../state/vfs/vfs';

/** One row of `get node-requests` (`-o json|yaml` print these; fields are only ever added). */
export interface NodeRequestRow {
  name: string;
  nodeName: string;
  /** Pending, Approved, Denied, or Expired (a pending request older than 24 hours). */
  status: string;
  /** Certificate name to `sha256:<hex>` of the DER public key (openssl's digest). */
  fingerprints: Record<string, string>;
  source: string;
  /** When the service recorded the request (ISO 8601): the record's time, not this command's. */
  created: string;
  decided?: string;
  decidedBy?: string;
}

async function mustExist(vfs: Vfs, cluster: string): Promise<void> {
  if (!(await new ClusterRepository(vfs).exists(cluster))) throw new NotFoundError(`cluster "${cluster}" not found in state store ${vfs.url}`);
}

/** `get node-requests`: the pending requests (with `all`, every recorded one), sorted by name; nothing secret is stored. */
export async function listNodeRequests(vfs: Vfs, cluster: string, options: { all?: boolean; now?: Date } = {}): Promise<NodeRequestRow[]> {
  await mustExist(vfs, cluster);
  const now = options.now ?? new Date();
  const rows: NodeRequestRow[] = [];
  for (const { record: r } of await readNodeRequests(vfs, cluster)) {
    const status = isExpired(r, now) ? 'Expired' : r.status;
    if (!options.all && status !== 'Pending') continue;
    rows.push({ name: r.name, nodeName: r.nodeName, status, fingerprints: r.fingerprints, source: r.source, created: r.created, ...(r.decided ? { decided: r.decided, decidedBy: r.decidedBy } : {}) });
  }
  return rows;
}

/**
 * `approve node-request NAME` / `deny node-request NAME`: records the decision on the request with
 * compare-and-swap (the service never changes a record it made, so only another decision can race).
 * An unknown request is NotFoundError and an expired one a UsageError, both with nothing written; the same
 * decision twice is a no-op. Approving is refused while another request for the same node name is approved
 * (deny that one first); denying an approved request stops the service issuing for it (certificates already
 * issued stay valid until they expire). The caller holds the cluster lock.
 */
export async function decideNodeRequest(vfs: Vfs, cluster: string, name: string, decision: 'Approved' | 'Denied', now: Date = new Date()): Promise<{ record: NodeRequestRecord; unchanged: boolean }> {
  if (!isNodeRequestName(name)) throw new UsageError(`"${name}" is not a node request name (<node name>-<16 hex digits>, as "kforge get node-requests" lists them)`);
  await mustExist(vfs, cluster);
  const found = await readNodeRequest(vfs, cluster, name);
  if (!found) throw new NotFoundError(`node request "${name}" not found in cluster "${cluster}" ("kforge get node-requests ${cluster}" lists the pending ones)`);
  const { record, version } = found;
  if (record.status === decision) return { record, unchanged: true };
  if (isExpired(record, now)) throw new UsageError(`node request "${name}" expired (recorded ${record.created}, pending requests last 24 hours): the node asks again with its next attempt`);
  if (decision === 'Approved') {
    if (record.status === 'Denied') throw new UsageError(`node request "${name}" was denied${record.decidedBy ? ` by ${record.decidedBy}` : ''}; a denied request stays denied (the node must ask again with new keys)`);
    const other = (await readNodeRequests(vfs, cluster, `${record.nodeName}-`)).find((r) => r.record.nodeName === record.nodeName && r.record.name !== name && r.record.status === 'Approved');
    if (other) throw new UsageError(`node name ${record.nodeName} is already approved for request ${other.record.name}, with other keys; deny that one first ("kforge deny node-request ${other.record.name}")`);
  }
  const next: NodeRequestRecord = { ...record, status: decision, decided: now.toISOString(), decidedBy: localHolder() };
  try {
    await vfs.write(nodeRequestKey(cluster, name), serializeNodeRequest(next), { ifVersion: version });
  } catch (e) {
    if (e instanceof ConflictError) throw new ConflictError(`node request "${name}" changed while it was being ${decision.toLowerCase()}; run the command again`);
    throw e;
  }
  return { record: next, unchanged: false };
}
