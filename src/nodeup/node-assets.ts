import { NodeupConfigError } from './nodeup-config-error';

/** One file a node installs from its nodeup config's `Assets`: where from, its sha256, and where it goes. */
export interface NodeAsset {
  url: string;
  sha256: string;
  /** The file name in the URL, e.g. `kubelet` or `containerd-2.3.6-linux-amd64.tar.gz`. */
  file: string;
  /** A binary copied to `target` (mode 0755), or a tarball extracted into `target`. */
  kind: 'binary' | 'tarball';
  /** An absolute path on the node: the binary's path, or the directory a tarball is extracted into. */
  target: string;
}

// Where kops's nodeup puts each download (nodeup/pkg/model: kubelet and kubectl in /usr/local/bin, runc in
// /usr/local/sbin, containerd's tarball under /usr/local so its bin/ lands in /usr/local/bin, the CNI
// plugins in /opt/cni/bin).
const PLACES: ReadonlyArray<[RegExp, NodeAsset['kind'], (file: string) => string]> = [
  [/^(kubelet|kubectl)$/, 'binary', (f) => `/usr/local/bin/${f}`],
  [/^runc\.(amd64|arm64)$/, 'binary', () => '/usr/local/sbin/runc'],
  [/^containerd-.*\.tar\.gz$/, 'tarball', () => '/usr/local'],
  [/^cni-plugins-.*\.tgz$/, 'tarball', () => '/opt/cni/bin'],
];

/**
 * The assets of one architecture of a nodeup config (`sha256@url` entries, as kops writes them), each
 * with its install place. An entry of another shape, or a file nodeup does not know where to put, is an
 * error naming it: nodeup never installs what it cannot place.
 */
export function nodeAssets(assets: Record<string, string[]>, arch: string): NodeAsset[] {
  const list = assets[arch];
  if (!list) throw new NodeupConfigError(`Assets has no list for this machine's architecture (${arch})`);
  return list.map((entry, i) => {
    const m = /^([0-9a-f]{64})@(https?:\/\/\S+)$/.exec(entry);
    if (!m) throw new NodeupConfigError(`Assets.${arch}[${i}]: ${JSON.stringify(entry)} is not "<sha256>@<url>"`);
    const file = decodeURIComponent(new URL(m[2]).pathname.split('/').pop() ?? '');
    const place = PLACES.find(([re]) => re.test(file));
    if (!place) throw new NodeupConfigError(`Assets.${arch}[${i}]: nodeup does not know where to install "${file}"`);
    return { url: m[2], sha256: m[1], file, kind: place[1], target: place[2](file) };
  });
}
