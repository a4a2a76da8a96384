import type { KeyObject } from 'node:crypto';
import { ConflictError } from '../errors/conflict-error';
import type { Vfs } from '../state/vfs/vfs';
import { IdentityDenied } from './identity-denied';
import { RequestDenied } from './request-denied';
import {
  isExpired,
  MAX_PENDING_NODE_REQUESTS,
  nodeKeyFingerprint,
  NodeRequestRecord,
  nodeRequestKey,
  nodeRequestName,
  readNodeRequest,
  readNodeRequests,
  sameKeys,
  serializeNodeRequest,
} from './node-request-record';

/** What the queue decided for one request. */
export type ApprovalDecision =
  | { status: 'Approved'; record: NodeRequestRecord }
  | { status: 'Pending'; record: NodeRequestRecord; created: boolean };

/**
 * The approval queue (spec.nodeIdentity.mode Approval) on the service's side: records a request without a
 * cloud proof as pending in the state store, create-only, and answers from the record on the node's next
 * polls; the service only ever creates records (approve and deny, under the cluster lock, change them).
 * Refused (403): a request an operator denied; a node name already approved for other keys; keys already
 * approved for another node name. Refused (429): more than MAX_PENDING_NODE_REQUESTS pending.
 */
export class ApprovalQueue {
  constructor(
    private readonly vfs: Vfs,
    private readonly cluster: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Decides a request: the node's claimed name and its parsed public keys, from `source`. */
  async decide(nodeName: string, keys: Map<string, KeyObject>, source: string): Promise<ApprovalDecision> {
    const fingerprints: Record<string, string> = {};
    const publicKeys: Record<string, string> = {};
    for (const [name, key] of [...keys].sort(([a], [b]) => a.localeCompare(b))) {
      fingerprints[name] = nodeKeyFingerprint(key);
      publicKeys[name] = key.export({ type: 'spki', format: 'pem' }).toString();
    }
    const name = nodeRequestName(nodeName, fingerprints);
    const now = this.now();
    let existing = await readNodeRequest(this.vfs, this.cluster, name);
    if (existing && !sameKeys(existing.record.fingerprints, fingerprints)) {
      // Only a 64-bit hash collision gets here: the record is for other keys.
      throw new IdentityDenied(`request ${name}: recorded for other keys`);
    }
    if (existing && !isExpired(existing.record, now)) return this.answer(existing.record);
    await this.checkNew(nodeName, fingerprints, now);
    const record: NodeRequestRecord = { apiVersion: 'kforge.dev/v1alpha1', kind: 'NodeRequest', name, nodeName, status: 'Pending', fingerprints, publicKeys, source, created: now.toISOString() };
    try {
      await this.vfs.write(nodeRequestKey(this.cluster, name), serializeNodeRequest(record), existing ? { ifVersion: existing.version } : { ifNotExists: true });
    } catch (e) {
      if (!(e instanceof ConflictError)) throw e;
      // A concurrent copy of this request (or a decision) got there first: answer from what is recorded.
      existing = await readNodeRequest(this.vfs, this.cluster, name);
      if (!existing) throw e;
      return this.answer(existing.record);
    }
    return { status: 'Pending', record, created: true };
  }

  private async answer(record: NodeRequestRecord): Promise<ApprovalDecision> {
    if (record.status === 'Denied') throw new RequestDenied(`request ${record.name} for node ${record.nodeName} was denied${record.decidedBy ? ` by ${record.decidedBy}` : ''}${record.decided ? ` at ${record.decided}` : ''}`);
    if (record.status === 'Approved') {
      // Another request for the same name approved later does not make this one valid again, and vice versa: one approved request per name.
      await this.checkNameFree(record.nodeName, record.name);
      return { status: 'Approved', record };
    }
    await this.checkNameFree(record.nodeName, record.name);
    return { status: 'Pending', record, created: false };
  }

  private async checkNameFree(nodeName: string, self: string): Promise<void> {
    const others = (await readNodeRequests(this.vfs, this.cluster, `${nodeName}-`)).filter((r) => r.record.nodeName === nodeName && r.record.name !== self && r.record.status === 'Approved');
    if (others.length > 0) throw new IdentityDenied(`node name ${nodeName} is already approved for request ${others[0].record.name}, with other keys`);
  }

  private async checkNew(nodeName: string, fingerprints: Record<string, string>, now: Date): Promise<void> {
    const all = await readNodeRequests(this.vfs, this.cluster);
    const approved = all.filter((r) => r.record.status === 'Approved');
    const byName = approved.find((r) => r.record.nodeName === nodeName);
    if (byName) throw new IdentityDenied(`node name ${nodeName} is already approved for request ${byName.record.name}, with other keys`);
    const mine = new Set(Object.values(fingerprints));
    const byKey = approved.find((r) => Object.values(r.record.fingerprints).some((f) => mine.has(f)));
    if (byKey) throw new IdentityDenied(`a key of this request (${Object.values(byKey.record.fingerprints).find((f) => mine.has(f))}) is already approved for node ${byKey.record.nodeName} (request ${byKey.record.name})`);
    const pending = all.filter((r) => r.record.status === 'Pending' && !isExpired(r.record, now)).length;
    if (pending >= MAX_PENDING_NODE_REQUESTS) throw new IdentityDenied(`${pending} requests are pending already (at most ${MAX_PENDING_NODE_REQUESTS}): approve or deny some ("kforge get node-requests")`, 429, { error: 'too many pending requests' });
  }
}
