import { createHash } from 'node:crypto';
import * as yaml from 'js-yaml';
import { remapImage } from '../../expand/components/images';
import type { Addon, AddonContext, KubeObject } from './addon';
import { ADDON_BUILDERS } from './addon-builders';

/**
 * The value of `app.kubernetes.io/managed-by` (and of the pod templates' `kops.k8s.io/managed-by`) on every
 * addon object, and in the prune selector. kops's own value: a cluster moved from kops keeps its objects' labels,
 * so the prune selector still matches what kops applied (docs/differences-from-kops.md, "Addons").
 */
export const ADDON_MANAGED_BY = 'kops';

/** kops's label naming the addon an object belongs to (pkg/model/components/addonmanifests/remap.go). */
export const ADDON_NAME_LABEL = 'addon.kops.k8s.io/name';

/** The channel file's path under `<configBase>/addons/`. */
export const BOOTSTRAP_CHANNEL_FILE = 'bootstrap-channel.yaml';

/** The group/kinds kops always prunes for a prunable addon (upup/pkg/fi/cloudup/bootstrapchannelbuilder/pruning.go), sorted by group then kind. */
const ALWAYS_PRUNED: ReadonlyArray<{ group: string; kind: string }> = [
  { group: '', kind: 'ConfigMap' },
  { group: '', kind: 'Service' },
  { group: '', kind: 'ServiceAccount' },
  { group: 'admissionregistration.k8s.io', kind: 'MutatingWebhookConfiguration' },
  { group: 'admissionregistration.k8s.io', kind: 'ValidatingWebhookConfiguration' },
  { group: 'apps', kind: 'DaemonSet' },
  { group: 'apps', kind: 'Deployment' },
  { group: 'apps', kind: 'StatefulSet' },
  { group: 'policy', kind: 'PodDisruptionBudget' },
  { group: 'rbac.authorization.k8s.io', kind: 'ClusterRole' },
  { group: 'rbac.authorization.k8s.io', kind: 'ClusterRoleBinding' },
  { group: 'rbac.authorization.k8s.io', kind: 'Role' },
  { group: 'rbac.authorization.k8s.io', kind: 'RoleBinding' },
];

/** One entry of kops's channel (channels/pkg/api/channel.go AddonSpec), fields as kops serialises them. */
export interface ChannelEntry {
  id?: string;
  manifest: string;
  manifestHash: string;
  name: string;
  needsPKI?: boolean;
  needsRollingUpdate?: string;
  prune?: { kinds: Array<{ group?: string; kind: string; labelSelector: string; namespaces?: string[] }> };
  selector: Record<string, string>;
}

/** The channel and the manifests, by path relative to `<configBase>/addons/`. */
export interface AssembledAddons {
  channel: { kind: 'Addons'; metadata: { name: 'bootstrap' }; spec: { addons: ChannelEntry[] } };
  /** Every file to write under `<configBase>/addons/` (the channel included), content as kops stores it. */
  files: Map<string, string>;
}

/**
 * Renders the addons of a completed cluster: every builder of ADDON_BUILDERS, in its order. With
 * `assets.containerRegistry`, every container image comes from that registry (kops's RemapManifest); images the
 * completed spec already names there are kept.
 */
export function renderAddons(ctx: AddonContext): Addon[] {
  const addons = ADDON_BUILDERS.flatMap((build) => build(ctx));
  const registry = ctx.cluster.spec.assets?.containerRegistry;
  if (!registry) return addons;
  const prefix = `${registry.replace(/\/+$/, '')}/`;
  return addons.map((addon) => ({
    ...addon,
    objects: addon.objects.map((object) => {
      const pod = (object.spec as { template?: { spec?: Record<string, unknown> } } | undefined)?.template?.spec;
      if (!pod) return object;
      const copy = structuredClone(object);
      const spec = (copy.spec as { template: { spec: Record<string, Array<{ image?: string }> | undefined> } }).template.spec;
      for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
        if (c.image && !c.image.startsWith(prefix)) c.image = remapImage(c.image, registry);
      }
      return copy;
    }),
  }));
}

/**
 * kops's bootstrap channel and one manifest per addon (upup/pkg/fi/cloudup/bootstrapchannelbuilder): each object
 * gets the addon's labels, each manifest is the objects' YAML joined with kops's separator and trimmed, its hash
 * the sha256 of those bytes, and a prunable addon's entry lists kops's kinds with the namespaces its objects use.
 */
export function assembleAddons(addons: readonly Addon[]): AssembledAddons {
  const files = new Map<string, string>();
  const entries = addons.map((addon): ChannelEntry => {
    const manifest = `${addon.name}/${addon.manifestFile ?? `${addon.id}.yaml`}`;
    const content = manifestYaml(addon.objects.map((o) => labelled(o, addon.name, addon.selector)));
    if (files.has(manifest)) throw new Error(`two addons render ${manifest}`);
    files.set(manifest, content);
    return {
      ...(addon.id ? { id: addon.id } : {}),
      manifest,
      manifestHash: createHash('sha256').update(content).digest('hex'),
      name: addon.name,
      ...(addon.needsPKI ? { needsPKI: true } : {}),
      ...(addon.needsRollingUpdate ? { needsRollingUpdate: addon.needsRollingUpdate } : {}),
      ...(addon.prune ? { prune: pruneSpec(addon) } : {}),
      selector: addon.selector ?? { 'k8s-addon': addon.name },
    };
  });
  const channel = { kind: 'Addons' as const, metadata: { name: 'bootstrap' as const }, spec: { addons: entries } };
  files.set(BOOTSTRAP_CHANNEL_FILE, goYaml(channel));
  return { channel, files };
}

/** kops's addLabels: managed-by, the addon name and the selector label on every object; managed-by on apps/v1 pod templates. */
export function labelled(object: KubeObject, addonName: string, selector?: Record<string, string>): KubeObject {
  const copy = structuredClone(object);
  // The selector's labels: `k8s-addon: <name>`, or the networking addons' `role.kubernetes.io/networking: "1"`.
  const own = { 'app.kubernetes.io/managed-by': ADDON_MANAGED_BY, [ADDON_NAME_LABEL]: addonName, ...(selector ?? { 'k8s-addon': addonName }) };
  const existing = copy.metadata.labels?.['k8s-addon'];
  if (existing !== undefined && existing !== addonName) throw new Error(`${copy.kind}/${copy.metadata.name}: label k8s-addon already set to ${existing}`);
  copy.metadata.labels = { ...copy.metadata.labels, ...own };
  const template = (copy.spec as { template?: { metadata?: { labels?: Record<string, string> } } } | undefined)?.template;
  if ((copy.kind === 'Deployment' || copy.kind === 'DaemonSet') && copy.apiVersion === 'apps/v1' && template) {
    template.metadata = { ...template.metadata, labels: { ...template.metadata?.labels, 'kops.k8s.io/managed-by': ADDON_MANAGED_BY } };
  }
  return copy;
}

/** kops's buildPruneDirectives: every always-pruned kind, with the namespaces of the addon's objects of that kind. */
function pruneSpec(addon: Addon): NonNullable<ChannelEntry['prune']> {
  const labelSelector = `${ADDON_NAME_LABEL}=${addon.name},app.kubernetes.io/managed-by=${ADDON_MANAGED_BY}`;
  return {
    kinds: ALWAYS_PRUNED.map(({ group, kind }) => {
      const namespaces = [
        ...new Set(addon.objects.filter((o) => groupOf(o.apiVersion) === group && o.kind === kind && o.metadata.namespace).map((o) => o.metadata.namespace as string)),
      ].sort();
      return { ...(group ? { group } : {}), kind, labelSelector, ...(namespaces.length > 0 ? { namespaces } : {}) };
    }),
  };
}

/** The API group of an apiVersion (`apps/v1` → `apps`, `v1` → the core group ``). */
export function groupOf(apiVersion: string): string {
  return apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
}

/** kops's ObjectList.ToYAML, then TrimSpace: documents joined by `\n---\n\n`, no trailing newline. */
function manifestYaml(objects: readonly KubeObject[]): string {
  return objects
    .map((o) => goYaml(o))
    .join('\n---\n\n')
    .trim();
}

/** YAML shaped as sigs.k8s.io/yaml writes it: keys sorted, lists not indented under their key, double quotes. */
function goYaml(value: unknown): string {
  return yaml.dump(value, { lineWidth: -1, noRefs: true, sortKeys: true, noArrayIndent: true, quotingType: '"' });
}
