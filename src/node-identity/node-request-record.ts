import { createHash, KeyObject } from 'node:crypto';
import { StatePaths } from '../state/state-paths';
import type { Vfs } from '../state/vfs/vfs';

/** The approval queue's decision about one request. */
export type NodeRequestStatus = 'Pending' | 'Approved' | 'Denied';

/**
 * One node's request for certificates without a cloud proof, as the service records it in the state store
 * (`<cluster>/node-requests/<name>`). Public keys only: the node keeps its private keys.
 */
export interface NodeRequestRecord {
  apiVersion: 'kforge.dev/v1alpha1';
  kind: 'NodeRequest';
  /** `<nodeName>-<16 hex>`: the hex binds the name to the keys, so approving a name approves exactly these keys. */
  name: string;
  /** The node name the machine claims; the kubelet certificate is issued for exactly this name. */
  nodeName: string;
  status: NodeRequestStatus;
  /** Certificate name to `sha256:<hex>` of the public key's DER SubjectPublicKeyInfo (see nodeKeyFingerprint). */
  fingerprints: Record<string, string>;
  /** Certificate name to the PEM public key the node sent (public material, kept for audit). */
  publicKeys: Record<string, string>;
  /** The address the request came from, as the service saw it. */
  source: string;
  /** When the service first recorded the request (ISO 8601). */
  created: string;
  /** When and by whom (user@host) it was approved or denied. */
  decided?: string;
  decidedBy?: string;
}

/** A pending request older than this is expired: not listed, not approvable, not counted; the node's next poll records it anew. */
export const NODE_REQUEST_TTL_MS = 24 * 3600 * 1000;
/** At most this many unexpired pending requests: beyond it new ones are refused (429), so a flood cannot fill the store. */
export const MAX_PENDING_NODE_REQUESTS = 100;

/** The store prefix of a cluster's node requests. */
export function nodeRequestPrefix(cluster: string): string {
  return StatePaths.nodeRequestPrefix(cluster);
}

/** The store key of one request. */
export function nodeRequestKey(cluster: string, name: string): string {
  return `${nodeRequestPrefix(cluster)}${name}`;
}

/**
 * A public key's fingerprint: `sha256:` and the hex sha256 of its DER SubjectPublicKeyInfo, what
 * `openssl pkey -pubin -in key.pub -outform DER | openssl dgst -sha256` prints (and, for an issued
 * certificate, `openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform DER | openssl dgst -sha256`).
 */
export function nodeKeyFingerprint(key: KeyObject): string {
  return `sha256:${createHash('sha256').update(key.export({ type: 'spki', format: 'der' })).digest('hex')}`;
}

/** The request's name: the node name and 16 hex of a hash over its fingerprints, sorted by certificate name. */
export function nodeRequestName(nodeName: string, fingerprints: Record<string, string>): string {
  const canonical = Object.keys(fingerprints)
    .sort()
    .map((k) => `${k}=${fingerprints[k]}`)
    .join('\n');
  return `${nodeName}-${createHash('sha256').update(canonical).digest('hex').slice(0, 16)}`;
}

/** Whether a request name has the shape nodeRequestName gives (no `/`, so it stays a key under the prefix). */
export function isNodeRequestName(name: string): boolean {
  return /^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?-[0-9a-f]{16}$/.test(name);
}

/** Whether a record is a pending request past its time. */
export function isExpired(record: NodeRequestRecord, now: Date): boolean {
  return record.status === 'Pending' && now.getTime() - Date.parse(record.created) > NODE_REQUEST_TTL_MS;
}

/** Whether two records ask for the same certificates with the same keys. */
export function sameKeys(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a[k] === b[k]);
}

/** Reads one record with its version; undefined when absent. */
export async function readNodeRequest(vfs: Vfs, cluster: string, name: string): Promise<{ record: NodeRequestRecord; version: string } | undefined> {
  const o = await vfs.read(nodeRequestKey(cluster, name));
  if (!o) return undefined;
  return { record: JSON.parse(o.data.toString('utf8')) as NodeRequestRecord, version: o.version };
}

/** Reads every record of the cluster (or those whose name starts with `namePrefix`), sorted by name. */
export async function readNodeRequests(vfs: Vfs, cluster: string, namePrefix = ''): Promise<Array<{ record: NodeRequestRecord; version: string }>> {
  const keys = await vfs.list(`${nodeRequestPrefix(cluster)}${namePrefix}`);
  const out: Array<{ record: NodeRequestRecord; version: string }> = [];
  for (const key of keys) {
    const name = key.slice(nodeRequestPrefix(cluster).length);
    if (!isNodeRequestName(name)) continue;
    const r = await readNodeRequest(vfs, cluster, name);
    if (r) out.push(r);
  }
  return out.sort((a, b) => a.record.name.localeCompare(b.record.name));
}

/** The record's serialized form (stable key order as built). */
export function serializeNodeRequest(record: NodeRequestRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}
