/** Where a node downloads nodeup for one architecture, and the sha256 it must have. */
export interface NodeupArtifact {
  url: string;
  sha256: string;
}

/**
 * The nodeup binaries user-data downloads, by architecture. PLACEHOLDERS until kforge's nodeup is built and
 * published (a later issue): the completed spec has no field for them yet, so they live here, in one place.
 * The `.invalid` host never resolves and the all-zero hash matches no file, so a node booted with these
 * waits for a download instead of running anything unverified.
 */
export const NODEUP_ARTIFACTS: Readonly<Record<'amd64' | 'arm64', NodeupArtifact>> = {
  amd64: { url: 'https://nodeup.kforge.invalid/v0.1.0/linux/amd64/nodeup', sha256: '0'.repeat(64) },
  arm64: { url: 'https://nodeup.kforge.invalid/v0.1.0/linux/arm64/nodeup', sha256: '0'.repeat(64) },
};
