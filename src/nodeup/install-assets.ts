import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KforgeError } from '../errors/kforge-error';
import { AssetError } from './asset-error';
import type { NodeAsset } from './node-assets';
import { RootWriter } from './root-writer';

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
 * installs them (binaries written with mode 0755, tarballs extracted with the system's tar into a staging
 * directory in the cache, then each file installed). A hash that does not match fails closed: the bad
 * download is not kept and nothing is installed. Idempotent: a cached asset is not downloaded again, and
 * one already installed (a marker per sha256) is not installed again. Every write, the cache's included,
 * goes through the RootWriter, so nothing is written through a symlink out of the root.
 */
export async function installAssets(assets: readonly NodeAsset[], root: string, options: InstallAssetsOptions = {}): Promise<AssetResult[]> {
  const writer = new RootWriter(root);
  writer.dir(ASSET_CACHE);
  for (const a of assets) await fetchVerified(writer, a, options);
  const results: AssetResult[] = [];
  for (const a of assets) {
    const marker = `${ASSET_CACHE}/${a.sha256}.installed`;
    if (writer.exists(marker) && writer.exists(a.target)) {
      results.push({ file: a.file, target: a.target, action: 'unchanged' });
      continue;
    }
    const cached = writer.readFile(`${ASSET_CACHE}/${a.sha256}`)?.data as Buffer;
    if (a.kind === 'binary') writer.writeFile(a.target, cached, 0o755);
    else installTarball(writer, a);
    writer.writeFile(marker, `${a.url}\n`, 0o644);
    results.push({ file: a.file, target: a.target, action: 'installed' });
  }
  return results;
}

/**
 * Extracts a tarball into a fresh staging directory in the cache (tar writes only there), then installs
 * each regular file through the RootWriter at the same place under the asset's target. A link or device in
 * the tarball is refused: the assets nodeup knows hold regular files only.
 */
function installTarball(writer: RootWriter, asset: NodeAsset): void {
  const stagingPath = `${ASSET_CACHE}/${asset.sha256}.extract`;
  const staging = writer.dir(stagingPath) as string;
  fs.rmSync(staging, { recursive: true, force: true });
  writer.dir(stagingPath);
  try {
    // --no-same-owner: files belong to root, whatever uid the tarball recorded.
    execFileSync('tar', ['-xzf', writer.dir(ASSET_CACHE) + `/${asset.sha256}`, '--no-same-owner', '-C', staging], { stdio: ['ignore', 'ignore', 'pipe'] });
    writer.dir(asset.target);
    const walk = (rel: string): void => {
      for (const name of fs.readdirSync(path.join(staging, rel)).sort()) {
        const entry = path.posix.join(rel, name);
        const st = fs.lstatSync(path.join(staging, entry));
        if (st.isDirectory()) {
          writer.dir(path.posix.join(asset.target, entry));
          walk(entry);
        } else if (st.isFile()) {
          writer.writeFile(path.posix.join(asset.target, entry), fs.readFileSync(path.join(staging, entry)), st.mode & 0o777);
        } else {
          throw new AssetError(`${asset.url}: holds ${entry}, which is not a regular file or directory; nodeup installs regular files only, and installed nothing of it`);
        }
      }
    };
    walk('');
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** Puts the asset in the cache (downloading it, with retries, when missing or corrupt); its sha256 checked. */
async function fetchVerified(writer: RootWriter, asset: NodeAsset, options: InstallAssetsOptions): Promise<void> {
  const file = `${ASSET_CACHE}/${asset.sha256}`;
  const cached = writer.readFile(file);
  if (cached && sha256(cached.data) === asset.sha256) return;
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
      writer.writeFile(file, body, 0o644);
      return;
    } catch (e) {
      if (e instanceof KforgeError) throw e;
      last = e instanceof Error ? e.message : String(e);
      if (attempt < attempts) await new Promise((r) => setTimeout(r, (options.backoffMs ?? 2000) * 2 ** (attempt - 1)));
    }
  }
  throw new AssetError(`${asset.url}: download failed after ${attempts} attempts (${last}); nothing was installed`);
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}
