import { AddonApplyError } from './addon-apply-error';
import { AddonPki } from './addon-pki';
import { ApiNotUpError } from './api-not-up-error';
import type { ChannelAddon } from './addon-channel';
import { ChannelVersion } from './channel-version';
import { collectionPath } from './collection-path';
import type { KubeApiClient } from './kube-api-client';
import { ManifestObject, manifestObjects } from './manifest-objects';
import { pruneAddon } from './prune-addon';
import { ResourceMapper } from './resource-mapper';

/** kforge's server-side-apply field manager (kops's is `kops`). */
export const FIELD_MANAGER = 'kforge';

/** kops's annotation asking a rolling update to replace a node (set when an addon with `needsRollingUpdate` changes). */
const NEEDS_UPDATE = 'kops.k8s.io/needs-update';

/** What a pass did with one addon of the channel. */
export interface AddonOutcome {
  name: string;
  /** `unchanged`: the recorded version matches the channel's (and its PKI exists), nothing was sent; `applied`: applied and recorded, or its PKI installed; `failed`. */
  action: 'unchanged' | 'applied' | 'failed';
  /** For a `needsPKI` addon: its CA Secret and cert-manager Issuer were created in this pass. */
  pkiInstalled?: boolean;
  manifestHash: string;
  /** The hash recorded before this pass, if any. */
  previousHash?: string;
  /** Objects created (201) and updated (200) by server-side apply. */
  created?: number;
  configured?: number;
  /** Objects pruned, `Kind namespace/name`. */
  pruned?: string[];
  error?: string;
}

/** What applyAddonChannel needs. */
export interface ApplyChannelOptions {
  client: KubeApiClient;
  /** The channel's location, recorded in each addon's version as kops records it (`s3://…/addons/bootstrap-channel.yaml`). */
  channel: string;
  addons: ChannelAddon[];
  /** Reads an addon's manifest (`<configBase>/addons/<manifest>`). */
  readManifest: (addon: ChannelAddon) => Promise<string>;
  /** How often to look whether a CRD is Established. Default 200 ms (doubling, at most 2 s, until the client's deadline). */
  establishPollMs?: number;
}

const PHASE: Record<string, number> = { Namespace: 0, CustomResourceDefinition: 1 };

const groupOf = (apiVersion: string): string => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');

const describe = (o: ManifestObject): string => `${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`;

/**
 * One pass of kops's `channels apply channel` over the bootstrap channel: reads the installed versions
 * (kops's `addons.k8s.io/<addon>` annotations on the namespaces, one list call), and for each addon whose id
 * or manifest hash differs from what is recorded, applies its objects with server-side apply (field manager
 * `kforge`, forcing conflicts as kops's applier does) in a safe order (Namespaces, then CRDs, then the other
 * objects, and the custom resources of the addon's own CRDs only once those are Established), prunes what
 * its `prune` kinds select and the manifest no longer holds, marks nodes for a rolling update when it asks
 * for one, and records the version; an addon with `needsPKI` also gets its CA Secret and cert-manager
 * Issuer when either is missing (two reads per pass, as kops). An unchanged addon costs no other call. A
 * failing addon does not stop the others; its error names the addon, the object and the API server's reason.
 */
export async function applyAddonChannel(o: ApplyChannelOptions): Promise<AddonOutcome[]> {
  const { client } = o;
  const mapper = new ResourceMapper(client);
  const pki = new AddonPki(client, mapper);
  const namespaces = await client.request('GET', '/api/v1/namespaces');
  if (namespaces.status !== 200) throw new AddonApplyError(`listing namespaces for the installed addon versions: ${namespaces.status} ${namespaces.body?.message ?? ''}`.trim());
  const installed = new Map<string, ChannelVersion>();
  for (const ns of namespaces.body?.items ?? []) {
    for (const [k, v] of Object.entries((ns.metadata?.annotations ?? {}) as Record<string, string>)) {
      if (!k.startsWith('addons.k8s.io/')) continue;
      const version = ChannelVersion.parse(v);
      if (version) installed.set(`${ns.metadata.name}:${k.slice('addons.k8s.io/'.length)}`, version);
    }
  }
  const ensure = async (addon: ChannelAddon): Promise<AddonOutcome> => {
    const key = `${addon.namespace}:${addon.name}`;
    const existing = installed.get(key);
    const next = new ChannelVersion(o.channel, addon.id, addon.manifestHash);
    const base = { name: addon.name, manifestHash: addon.manifestHash, ...(existing ? { previousHash: existing.manifestHash } : {}) };
    try {
      // kops's GetRequiredUpdates: a new version, or (needsPKI) a missing CA Secret or Issuer.
      const pkiMissing = addon.needsPKI && !(await pki.installed(addon.name));
      const changed = !existing || next.replaces(existing);
      if (!changed && !pkiMissing) return { ...base, action: 'unchanged' };
      // kops's EnsureUpdated: the manifest first, then the PKI.
      let applied: Partial<AddonOutcome> = {};
      if (changed) {
        applied = await updateAddon(o, mapper, addon, existing, next);
        installed.set(key, next);
      }
      if (pkiMissing) await pki.install(addon.name);
      return { ...base, action: 'applied', ...applied, ...(pkiMissing ? { pkiInstalled: true } : {}) };
    } catch (e) {
      if (e instanceof ApiNotUpError) throw e;
      return { ...base, action: 'failed', error: e instanceof Error ? e.message : String(e) };
    }
  };
  const outcomes: AddonOutcome[] = [];
  for (const addon of o.addons) outcomes.push(await ensure(addon));
  // An addon may need one later in the channel (a CRD, cert-manager's Issuer): when the pass applied
  // something, the failed ones are tried once more now rather than a pass later (kops waits for its next
  // iteration).
  if (outcomes.some((x) => x.action === 'applied')) {
    for (const [i, addon] of o.addons.entries()) {
      if (outcomes[i].action !== 'failed') continue;
      const again = await ensure(addon);
      // What the first attempt did stays in the report (its applies, its version record).
      outcomes[i] = again.action === 'unchanged' ? { ...outcomes[i], action: 'applied', error: undefined } : { ...outcomes[i], ...again, previousHash: outcomes[i].previousHash };
      if (outcomes[i].error === undefined) delete outcomes[i].error;
    }
  }
  return outcomes;
}

/** kops's `updateAddon`: apply, prune, apply again if the first apply failed and the prune did not, mark nodes, record. */
async function updateAddon(o: ApplyChannelOptions, mapper: ResourceMapper, addon: ChannelAddon, existing: ChannelVersion | undefined, next: ChannelVersion): Promise<Partial<AddonOutcome>> {
  const where = `addon ${addon.name}`;
  const objects = manifestObjects(await o.readManifest(addon), `${where}: manifest ${addon.manifest}`);
  let applied: { created: number; configured: number } | undefined;
  let applyError: unknown;
  try {
    applied = await applyObjects(o, mapper, addon, objects);
  } catch (e) {
    if (e instanceof ApiNotUpError) throw e;
    applyError = e;
  }
  let pruned: string[] = [];
  if (addon.prune) {
    try {
      pruned = await pruneAddon(o.client, mapper, addon.prune, objects);
    } catch (e) {
      if (e instanceof ApiNotUpError) throw e;
      throw new AddonApplyError(`${where}: pruning: ${(e as Error).message}${applyError ? `; and applying: ${(applyError as Error).message}` : ''}`);
    }
  }
  // As kops: an apply that failed may succeed once pruning removed what was in its way.
  if (applyError) applied = addon.prune ? await applyObjects(o, mapper, addon, objects) : undefined;
  if (!applied) throw applyError;
  if (existing && addon.needsRollingUpdate) await markNodes(o.client, addon.needsRollingUpdate);
  const record = await o.client.request('PATCH', `/api/v1/namespaces/${encodeURIComponent(addon.namespace)}`, {
    body: { metadata: { annotations: { [ChannelVersion.annotation(addon.name)]: next.encode() } } },
    contentType: 'application/merge-patch+json',
  });
  if (record.status !== 200) throw new AddonApplyError(`${where}: recording the installed version on namespace ${addon.namespace}: ${record.status} ${record.body?.reason ?? ''}: ${record.body?.message ?? ''}`);
  return { ...applied, pruned };
}

/** Applies the objects in a safe order (see applyAddonChannel); the first refusal stops the addon. */
async function applyObjects(o: ApplyChannelOptions, mapper: ResourceMapper, addon: ChannelAddon, objects: ManifestObject[]): Promise<{ created: number; configured: number }> {
  const crds = objects.filter((x) => x.kind === 'CustomResourceDefinition' && groupOf(x.apiVersion) === 'apiextensions.k8s.io');
  const ownKinds = new Set(crds.map((c) => `${(c.spec as { group?: string } | undefined)?.group}/${(c.spec as { names?: { kind?: string } } | undefined)?.names?.kind}`));
  const isOwnCr = (x: ManifestObject): boolean => ownKinds.has(`${groupOf(x.apiVersion)}/${x.kind}`);
  const ordered = objects.map((x, i) => ({ x, i, phase: PHASE[x.kind] ?? (isOwnCr(x) ? 3 : 2) })).sort((a, b) => a.phase - b.phase || a.i - b.i);
  const counts = { created: 0, configured: 0 };
  let waited = false;
  const establishing: string[] = [];
  for (const { x, phase } of ordered) {
    if (phase === 3 && !waited) {
      await waitEstablished(o, addon, establishing);
      waited = true;
    }
    const reply = await applyOne(o.client, mapper, addon, x);
    counts[reply.status === 201 ? 'created' : 'configured']++;
    if (x.kind === 'CustomResourceDefinition' && !established(reply.body)) establishing.push(x.metadata.name);
  }
  return counts;
}

async function applyOne(client: KubeApiClient, mapper: ResourceMapper, addon: ChannelAddon, x: ManifestObject): Promise<{ status: number; body: unknown }> {
  const what = `addon ${addon.name}: ${describe(x)}`;
  const mapping = await mapper.forKind(x.apiVersion, x.kind);
  if (!mapping) throw new AddonApplyError(`${what}: the API server does not serve kind ${x.kind} in ${x.apiVersion} (is its CRD installed?)`);
  // As kubectl: a namespaced object without a namespace goes to "default"; a cluster-scoped one never has one.
  const namespace = mapping.namespaced ? (x.metadata.namespace ?? 'default') : undefined;
  const body = { ...x, metadata: { ...x.metadata, ...(namespace ? { namespace } : {}) } };
  if (!namespace) delete body.metadata.namespace;
  const reply = await client.request('PATCH', `${collectionPath(mapping, namespace)}/${encodeURIComponent(x.metadata.name)}`, {
    query: { fieldManager: FIELD_MANAGER, force: 'true' },
    body,
    contentType: 'application/apply-patch+yaml',
  });
  if (reply.status !== 200 && reply.status !== 201) {
    const b = reply.body as { reason?: string; message?: string } | string | undefined;
    const reason = typeof b === 'object' ? `${b?.reason ?? 'Error'}: ${b?.message ?? ''}` : String(b ?? '');
    throw new AddonApplyError(`${what}: ${reply.status} ${reason}`.trim());
  }
  return reply;
}

function established(crd: unknown): boolean {
  const conditions = ((crd as { status?: { conditions?: { type: string; status: string }[] } } | undefined)?.status?.conditions ?? []);
  return conditions.some((c) => c.type === 'Established' && c.status === 'True');
}

/** Waits until each CRD is Established (its resource served), polling with backoff until the client's deadline. */
async function waitEstablished(o: ApplyChannelOptions, addon: ChannelAddon, names: string[]): Promise<void> {
  for (const name of names) {
    let delay = o.establishPollMs ?? 200;
    for (;;) {
      const reply = await o.client.request('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${encodeURIComponent(name)}`);
      if (reply.status === 200 && established(reply.body)) break;
      if (reply.status !== 200) throw new AddonApplyError(`addon ${addon.name}: CustomResourceDefinition ${name}: ${reply.status} ${reply.body?.message ?? ''}`.trim());
      if (Date.now() + delay > o.client.deadline) throw new AddonApplyError(`addon ${addon.name}: CustomResourceDefinition ${name} is not Established yet; its custom resources wait for the next pass`);
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 2_000);
    }
  }
}

/** kops's `patchNeedsUpdateLabel`: annotates the nodes an addon's change needs replaced (a rolling update picks them). */
async function markNodes(client: KubeApiClient, which: string): Promise<void> {
  const selector = which === 'control-plane' ? 'node-role.kubernetes.io/control-plane' : which === 'workers' ? 'node-role.kubernetes.io/node' : '';
  const nodes = await client.request('GET', '/api/v1/nodes', { query: selector ? { labelSelector: selector } : {} });
  if (nodes.status !== 200) throw new Error(`listing nodes to mark for a rolling update: ${nodes.status} ${nodes.body?.message ?? ''}`.trim());
  for (const n of nodes.body?.items ?? []) {
    const r = await client.request('PATCH', `/api/v1/nodes/${encodeURIComponent(n.metadata.name)}`, { body: { metadata: { annotations: { [NEEDS_UPDATE]: '' } } }, contentType: 'application/merge-patch+json' });
    if (r.status !== 200) throw new Error(`marking node ${n.metadata.name} for a rolling update: ${r.status} ${r.body?.message ?? ''}`.trim());
  }
}
