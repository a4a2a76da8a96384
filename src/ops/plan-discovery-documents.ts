import type { Cluster } from '../api/types';
import { buildIssuerDiscovery } from '../model/issuer-discovery-builder';
import { openVfs } from '../state/vfs/open-vfs';
import type { Vfs } from '../state/vfs/vfs';
import { unifiedDiff } from '../util/unified-diff';
import type { ManagedFileChange } from './plan-managed-files';

/** The OIDC discovery documents `update cluster` publishes, compared with the discovery store. */
export interface DiscoveryDocumentsPlan {
  /** The store (`spec.serviceAccountIssuerDiscovery.discoveryStore`); undefined when the cluster has none. */
  store?: string;
  /** One entry per document, `path` its full URL; sorted. */
  files: ManagedFileChange[];
  hasChanges: boolean;
}

// The documents to write, by plan; kept out of the printable plan as plan-managed-files does.
const contents = new WeakMap<DiscoveryDocumentsPlan, Map<string, string>>();

/**
 * kops's IssuerDiscoveryModelBuilder as update's managed files: with `discoveryStore` set, the
 * `.well-known/openid-configuration` and `openid/v1/jwks` documents (built from the service-account
 * keyset's public keys, every key, so tokens of a key being rotated out still verify), each compared
 * with what the store holds. `open` opens the store (tests pass their own).
 */
export async function planDiscoveryDocuments(completed: Cluster, serviceAccountPublicKeys: string[], open: (url: string) => Vfs = openVfs): Promise<DiscoveryDocumentsPlan> {
  const store = completed.spec.serviceAccountIssuerDiscovery?.discoveryStore?.replace(/\/+$/, '');
  const documents = buildIssuerDiscovery(completed, serviceAccountPublicKeys);
  if (!store || documents.length === 0) return { files: [], hasChanges: false };
  const vfs = open(store);
  const wanted = new Map<string, string>();
  const files: ManagedFileChange[] = [];
  for (const doc of [...documents].sort((a, b) => (a.url < b.url ? -1 : 1))) {
    const now = (await vfs.read(doc.url.slice(store.length + 1)))?.data.toString('utf8');
    if (now === doc.content) {
      files.push({ path: doc.url, action: 'none' });
      continue;
    }
    wanted.set(doc.url, doc.content);
    files.push(now === undefined ? { path: doc.url, action: 'create', diff: `+${doc.content.split('\n').length - 1} lines` } : { path: doc.url, action: 'update', diff: unifiedDiff(now, doc.content) });
  }
  const plan: DiscoveryDocumentsPlan = { store, files, hasChanges: wanted.size > 0 };
  contents.set(plan, wanted);
  return plan;
}

/**
 * Writes the documents a plan says changed. They are public by design (cloud IAM fetches them without
 * credentials): the discovery store's bucket policy must allow anonymous reads of them, as kops requires;
 * kforge writes them like any store object and never changes a bucket's policy.
 */
export async function writeDiscoveryDocuments(plan: DiscoveryDocumentsPlan, open: (url: string) => Vfs = openVfs): Promise<void> {
  const wanted = contents.get(plan);
  if (!plan.store || !wanted || wanted.size === 0) return;
  const vfs = open(plan.store);
  for (const [url, content] of wanted) await vfs.write(url.slice(plan.store.length + 1), content);
}
