import * as yaml from 'js-yaml';
import { AddonApplyError } from './addon-apply-error';

/** kops's `PruneKindSpec`: objects of one kind the addon prunes, by label (and namespace when given). */
export interface PruneKind {
  group: string;
  kind: string;
  namespaces?: string[];
  labelSelector?: string;
  fieldSelector?: string;
}

/** One entry of kops's bootstrap channel (`channels/pkg/api.AddonSpec`), as the applier reads it. */
export interface ChannelAddon {
  name: string;
  /** Where the install record goes (kops: the addon's `namespace`, default kube-system). */
  namespace: string;
  id: string;
  /** The manifest path, relative to the channel's directory (`coredns.addons.k8s.io/k8s-1.12.yaml`). */
  manifest: string;
  manifestHash: string;
  needsRollingUpdate?: string;
  needsPKI: boolean;
  prune: PruneKind[] | undefined;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * Parses kops's bootstrap channel (`kind: Addons`, `spec.addons[]`; channels/pkg/api/channel.go), keeping
 * its order. `where` names the file in errors. A bootstrap channel may not carry a `kubernetesVersion` range
 * (kops's `Addons.Verify`); an entry without a name or manifest is refused; of two entries with one name the
 * last is kept (kops's menu keeps the one whose version replaces the other).
 */
export function parseAddonChannel(text: string, where: string): ChannelAddon[] {
  let doc: unknown;
  try {
    doc = yaml.load(text);
  } catch (e) {
    throw new AddonApplyError(`${where}: not YAML (${(e as Error).message})`);
  }
  const obj = doc as { kind?: unknown; metadata?: { name?: unknown }; spec?: { addons?: unknown } } | undefined;
  if (!obj || typeof obj !== 'object' || obj.kind !== 'Addons') throw new AddonApplyError(`${where}: not an addon channel (kind Addons)`);
  const entries = obj.spec?.addons ?? [];
  if (!Array.isArray(entries)) throw new AddonApplyError(`${where}: spec.addons is not a list`);
  const byName = new Map<string, ChannelAddon>();
  entries.forEach((raw: Record<string, unknown> | null, i: number) => {
    const at = `${where}: spec.addons[${i}]`;
    if (!raw || typeof raw !== 'object') throw new AddonApplyError(`${at}: not an object`);
    const name = str(raw.name) ?? str(obj.metadata?.name);
    const manifest = str(raw.manifest);
    if (!name) throw new AddonApplyError(`${at}: name is required`);
    if (!manifest) throw new AddonApplyError(`${at} (${name}): manifest is required`);
    // The manifest is read from the state store next to the channel: no absolute URL, no way out of addons/.
    if (/^[a-z][a-z0-9+.-]*:/i.test(manifest) || manifest.startsWith('/') || manifest.split('/').includes('..')) throw new AddonApplyError(`${at} (${name}): manifest "${manifest}" must be a path below the channel's directory`);
    if (raw.kubernetesVersion !== undefined) throw new AddonApplyError(`${at} (${name}): a bootstrap addon has no kubernetesVersion`);
    const prune = raw.prune as { kinds?: unknown } | undefined;
    const kinds = prune?.kinds;
    if (kinds !== undefined && !Array.isArray(kinds)) throw new AddonApplyError(`${at} (${name}): prune.kinds is not a list`);
    byName.set(name, {
      name,
      namespace: str(raw.namespace) ?? 'kube-system',
      id: str(raw.id) ?? '',
      manifest,
      manifestHash: str(raw.manifestHash) ?? '',
      needsRollingUpdate: str(raw.needsRollingUpdate),
      needsPKI: raw.needsPKI === true,
      prune: prune === undefined ? undefined : ((kinds ?? []) as Record<string, unknown>[]).map((k) => ({
        group: str(k.group) ?? '',
        kind: str(k.kind) ?? '',
        ...(Array.isArray(k.namespaces) ? { namespaces: k.namespaces.map(String) } : {}),
        ...(str(k.labelSelector) ? { labelSelector: str(k.labelSelector) } : {}),
        ...(str(k.fieldSelector) ? { fieldSelector: str(k.fieldSelector) } : {}),
      })),
    });
  });
  return [...byName.values()];
}
