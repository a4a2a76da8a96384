import { compareVersions } from './assets/asset-catalog';

/**
 * kops's `IsKubernetesGTE`: true when `version` (e.g. `1.35.2`) is at or after the minor `minor` (e.g.
 * `1.35`). Compares major.minor only, so a patch release never flips a gate.
 */
export function isKubernetesGTE(version: string, minor: string): boolean {
  const [major, min] = version.replace(/^v/, '').split('.');
  return compareVersions(`${major}.${min}`, minor) >= 0;
}
