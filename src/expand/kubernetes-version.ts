import { compareVersions, knownKubernetesVersions, supportedMinors } from './assets/asset-catalog';

const VERSION_RE = /^v?(\d+)\.(\d+)\.(\d+)$/;

/** Strips the leading `v` kops accepts (`v1.34.2` → `1.34.2`). */
export function normalizeKubernetesVersion(version: string): string {
  return version.trim().replace(/^v/, '');
}

/** Why a Kubernetes version cannot be used, or undefined when it can. */
export function kubernetesVersionProblem(version: string): string | undefined {
  if (!VERSION_RE.test(version.trim())) return `"${version}" is not a Kubernetes version (expected e.g. ${knownKubernetesVersions()[0]})`;
  const v = normalizeKubernetesVersion(version);
  const minors = supportedMinors();
  const minor = v.split('.').slice(0, 2).join('.');
  if (!minors.includes(minor)) {
    const range = `${minors[minors.length - 1]}–${minors[0]}`;
    const side = compareVersions(minor, minors[0]) > 0 ? 'newer than' : 'older than';
    return `Kubernetes ${v} is not supported (${side} the supported range ${range})`;
  }
  // A patch release the table lacks is fine: its hashes are fetched from the release's .sha256 files
  // when the cluster is first written (src/expand/assets/resolve-release-hashes.ts).
  return undefined;
}
