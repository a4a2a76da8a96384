import { ValidationError } from '../../errors/validation-error';
import { remapFileUrl } from '../components/images';
import { ARCHITECTURES, kubernetesFileUrl, ReleaseHashes } from './asset-catalog';

/** How hashes are fetched; the defaults suit a CLI (a few seconds at worst when offline). */
export interface ResolveOptions {
  /** Per-request timeout. Default: 5000 ms. */
  timeoutMs?: number;
  /** Tries per file, with exponential backoff between them. Default: 3. */
  attempts?: number;
  /** First backoff delay. Default: 250 ms. */
  backoffMs?: number;
}

const SHA256 = /^([0-9a-f]{64})(\s|$)/;

/**
 * Fetches kubelet's and kubectl's sha256 for a Kubernetes release the built-in table lacks, from the
 * `.sha256` file published next to each binary (as kops does), through `fileRepository` when set. A
 * release that does not exist (HTTP 404) or a file that is not a sha256 is an error naming
 * spec.kubernetesVersion; an unreachable server gives `{ unresolved: true }`, so that offline commands
 * still work and a later one resolves them.
 */
export async function resolveReleaseHashes(version: string, fileRepository: string | undefined, options: ResolveOptions = {}): Promise<ReleaseHashes> {
  const result: ReleaseHashes = { version };
  const jobs = (['kubelet', 'kubectl'] as const).flatMap((name) =>
    ARCHITECTURES.map(async (arch) => {
      const url = `${remapFileUrl(kubernetesFileUrl(name, version, arch), fileRepository)}.sha256`;
      const hash = await fetchSha256(url, version, options);
      if (hash === undefined) result.unresolved = true;
      else (result[name] ??= {})[arch] = hash;
    }),
  );
  const settled = await Promise.allSettled(jobs);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  if (result.unresolved) return { version, unresolved: true };
  return { version, kubelet: sortKeys(result.kubelet), kubectl: sortKeys(result.kubectl) };
}

async function fetchSha256(url: string, version: string, options: ResolveOptions): Promise<string | undefined> {
  const attempts = options.attempts ?? 3;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    let status: number | undefined;
    let body = '';
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 5000), redirect: 'follow' });
      status = res.status;
      body = await res.text();
    } catch {
      // Unreachable, refused or timed out: try again, then give up as unresolved.
    }
    if (status === 404) throw invalid(version, `Kubernetes ${version} has no published release: ${url} answered 404 Not Found`);
    if (status !== undefined && status >= 200 && status < 300) {
      const m = SHA256.exec(body.trim());
      if (!m) throw invalid(version, `${url} did not return a sha256 (got ${JSON.stringify(body.trim().slice(0, 40))})`);
      return m[1];
    }
    if (attempt < attempts) await new Promise((r) => setTimeout(r, (options.backoffMs ?? 250) * 2 ** (attempt - 1)));
  }
  return undefined;
}

function invalid(version: string, message: string): ValidationError {
  return new ValidationError([{ path: 'spec.kubernetesVersion', message }], `Kubernetes ${version}`);
}

function sortKeys<T extends object | undefined>(o: T): T {
  return (o ? Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b))) : o) as T;
}
