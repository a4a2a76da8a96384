import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AssetError } from './asset-error';
import type { NodeAsset } from './node-assets';

/** Where downloads are kept, by sha256, so a second run downloads nothing. */
export const ASSET_CACHE = '/var/cache/kforge/assets';

/** What installAssets did with each asset. */
export interface AssetResult {
  file: string;
  target: string;
  action: 'installed' | 'unchanged';
}

/** How installAssets fetches; tests shorten the waits. */
export interface InstallAssetsOptions {
  /** Attempts per URL. Default 4. */
  attempts?: number;
  /** First wait between attempts, doubled each time. Default 2,000 ms. */
  backoffMs?: number;
}

/**
 * Downloads every asset into the cache under `root`, checks each sha256, and only when ALL of them match
 * installs them (binaries copied with mode 0755, tarballs extracted with the system's tar). A hash that
 * does not match fails closed: the bad download is removed and nothing is installed. Idempotent: a cached
 * asset is not downloaded again, and one already installed (a marker per sha256) is not installed again.
 */
export async function installAssets(assets: readonly NodeAsset[], root: string, options: InstallAssetsOptions = {}): Promise<AssetResult[]> {
  const cache = path.join(root, ASSET_CACHE);
  fs.mkdirSync(cache, { recursive: true });
  const cached = new Map<NodeAsset, string>();
  for (const a of assets) cached.set(a, await fetchVerified(a, path.join(cache, a.sha256), options));
  const results: AssetResult[] = [];
  for (const a of assets) {
    const marker = path.join(cache, `${a.sha256}.installed`);
    const target = path.join(root, a.target);
    if (fs.existsSync(marker) && fs.existsSync(target)) {
      results.push({ file: a.file, target: a.target, action: 'unchanged' });
      continue;
    }
    const source = cached.get(a) as string;
    if (a.kind === 'binary') {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      const tmp = `${target}.kforge-tmp`;
      fs.copyFileSync(source, tmp);
      fs.chmodSync(tmp, 0o755);
      fs.renameSync(tmp, target);
    } else {
      fs.mkdirSync(target, { recursive: true });
      // --no-same-owner: files belong to root, whatever uid the tarball recorded.
      execFileSync('tar', ['-xzf', source, '--no-same-owner', '-C', target], { stdio: ['ignore', 'ignore', 'pipe'] });
    }
    fs.writeFileSync(marker, `${a.url}\n`);
    results.push({ file: a.file, target: a.target, action: 'installed' });
  }
  return results;
}

/** The cached file of an asset, downloading it (with retries) when missing or corrupt; its sha256 checked. */
async function fetchVerified(asset: NodeAsset, file: string, options: InstallAssetsOptions): Promise<string> {
  if (fs.existsSync(file) && sha256(fs.readFileSync(file)) === asset.sha256) return file;
  const attempts = options.attempts ?? 4;
  let last = '';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const res = await fetch(asset.url);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const body = Buffer.from(await res.arrayBuffer());
      const got = sha256(body);
      // A wrong hash is not retried: the server gave what it has, and it is not what the config names.
      if (got !== asset.sha256) throw new AssetError(`${asset.url}: sha256 ${got} is not the ${asset.sha256} the nodeup config names; nothing was installed`);
      fs.writeFileSync(`${file}.part`, body);
      fs.renameSync(`${file}.part`, file);
      return file;
    } catch (e) {
      if (e instanceof AssetError) throw e;
      last = e instanceof Error ? e.message : String(e);
      if (attempt < attempts) await new Promise((r) => setTimeout(r, (options.backoffMs ?? 2000) * 2 ** (attempt - 1)));
    }
  }
  throw new AssetError(`${asset.url}: download failed after ${attempts} attempts (${last}); nothing was installed`);
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}
