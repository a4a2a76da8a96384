import data from './asset-data.json';

/** CPU architectures kforge installs nodes for. */
export const ARCHITECTURES = ['amd64', 'arm64'] as const;
/** One of ARCHITECTURES. */
export type Architecture = (typeof ARCHITECTURES)[number];

type HashPair = Record<Architecture, string>;

interface AssetData {
  kubernetes: Record<string, { kubelet: HashPair; kubectl: HashPair }>;
  containerd: Record<string, HashPair>;
  runc: Record<string, HashPair>;
  cni: Record<string, HashPair>;
  urls: Record<'kubelet' | 'kubectl' | 'containerd' | 'runc' | 'cni', string>;
  defaults: Record<string, ComponentVersions>;
  channels: Record<string, string>;
}

/** Versions of the node software kforge pairs with one Kubernetes minor (kops's choices). */
export interface ComponentVersions {
  containerd: string;
  runc: string;
  cni: string;
  etcd: string;
  pause: string;
  coredns: string;
}

/** A file a node downloads: where from and the sha256 it must have. */
export interface FileAsset {
  /** Component name: kubelet, kubectl, containerd, runc, cni. */
  name: string;
  url: string;
  sha256: string;
}

const table = data as unknown as AssetData;

/** Kubernetes versions with known hashes, newest first. */
export function knownKubernetesVersions(): string[] {
  return Object.keys(table.kubernetes).sort(compareVersions).reverse();
}

/** Supported Kubernetes minors (`1.34`), newest first. */
export function supportedMinors(): string[] {
  return [...new Set(knownKubernetesVersions().map((v) => v.split('.').slice(0, 2).join('.')))];
}

/** Channels kforge knows (kops's `stable` and `alpha`), sorted. */
export function knownChannels(): string[] {
  return Object.keys(table.channels).filter((k) => k !== 'comment').sort();
}

/** The Kubernetes version `channel` recommends for a spec that names none; undefined for an unknown channel. */
export function channelKubernetesVersion(channel: string): string | undefined {
  return knownChannels().includes(channel) ? table.channels[channel] : undefined;
}

/** The Kubernetes version `create cluster` uses when none is given: the `stable` channel's. */
export function defaultKubernetesVersion(): string {
  return channelKubernetesVersion('stable') as string;
}

/** Versions of containerd, runc, CNI plugins, etcd, pause and CoreDNS for a Kubernetes minor. */
export function componentVersions(kubernetesVersion: string): ComponentVersions {
  const minor = kubernetesVersion.split('.').slice(0, 2).join('.');
  const v = table.defaults[minor];
  if (!v) throw new Error(`no component versions for Kubernetes ${minor}`);
  return v;
}

/** sha256 of kubelet and kubectl per architecture, for versions the table lacks (spec.assets.releaseHashes). */
export interface ReleaseHashes {
  version: string;
  unresolved?: boolean;
  kubelet?: Partial<HashPair>;
  kubectl?: Partial<HashPair>;
}

/** The hash a node file must have when nothing verified it yet: not a sha256, so nodeup refuses the file. */
export const UNRESOLVED_HASH = 'unresolved';

/** True when the table has verified hashes for this exact Kubernetes version. */
export function isTableKubernetesVersion(version: string): boolean {
  return table.kubernetes[version] !== undefined;
}

/** Download URL of kubelet or kubectl (before fileRepository rewriting). */
export function kubernetesFileUrl(name: 'kubelet' | 'kubectl', version: string, arch: Architecture): string {
  return table.urls[name].replace(/\{version\}/g, version).replace(/\{arch\}/g, arch);
}

/**
 * The files a node of `arch` downloads for `kubernetesVersion`; undefined when a hash is unknown. For a
 * version the table lacks, kubelet's and kubectl's hashes come from `release` (spec.assets.releaseHashes),
 * and are UNRESOLVED_HASH while they could not be fetched.
 */
export function nodeFileAssets(kubernetesVersion: string, arch: Architecture, containerd: string, runc: string, cni: string, release?: ReleaseHashes): FileAsset[] | undefined {
  const fromRelease = (name: 'kubelet' | 'kubectl'): HashPair | undefined =>
    release && release.version === kubernetesVersion
      ? (Object.fromEntries(ARCHITECTURES.map((a) => [a, release.unresolved ? UNRESOLVED_HASH : (release[name]?.[a] ?? UNRESOLVED_HASH)])) as HashPair)
      : undefined;
  const k8s = table.kubernetes[kubernetesVersion] ?? { kubelet: fromRelease('kubelet'), kubectl: fromRelease('kubectl') };
  const entries: Array<[keyof AssetData['urls'], string, HashPair | undefined]> = [
    ['kubelet', kubernetesVersion, k8s?.kubelet],
    ['kubectl', kubernetesVersion, k8s?.kubectl],
    ['containerd', containerd, table.containerd[containerd]],
    ['runc', runc, table.runc[runc]],
    ['cni', cni, table.cni[cni]],
  ];
  const out: FileAsset[] = [];
  for (const [name, version, hashes] of entries) {
    if (!hashes?.[arch]) return undefined;
    out.push({ name, url: table.urls[name].replace(/\{version\}/g, version).replace(/\{arch\}/g, arch), sha256: hashes[arch] });
  }
  return out;
}

/** Which of containerd/runc/cni `version` lacks hashes, for error messages; undefined if all are known. */
export function missingHashes(kind: 'containerd' | 'runc' | 'cni', version: string): string[] | undefined {
  return table[kind][version] ? undefined : Object.keys(table[kind]).sort(compareVersions);
}

/** Compares dotted numeric versions (`1.34.2` < `1.34.10`). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((x) => Number(x));
  const pb = b.split(/[.-]/).map((x) => Number(x));
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] || 0) - (pb[i] || 0);
    if (d !== 0) return d;
  }
  return 0;
}
