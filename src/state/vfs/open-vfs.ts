import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NotFoundError } from '../../errors/not-found-error';
import { StateStoreError } from '../../errors/state-store-error';
import { UsageError } from '../../errors/usage-error';
import { FileVfs } from './file-vfs';
import { MemoryVfs } from './memory-vfs';
import { GcsVfs } from './gcs-vfs';
import { S3Vfs } from './s3-vfs';
import { storeTracing, TracedVfs } from './traced-vfs';
import { Vfs, VfsWriteOptions } from './vfs';

/** The state store used when neither --state nor KFORGE_STATE_STORE is set. */
export function defaultStateStore(): string {
  return path.join(os.homedir(), '.kforge', 'state');
}

/** Opens a state store from a URL (`s3://`, `gs://`, `file://`, `memfs://`) or a plain directory path. */
export function openVfs(url: string): Vfs {
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    if (url.trim() === '') throw new UsageError('--state: the state store location is empty');
    return new PrivateRootFileVfs(path.resolve(expandHome(url)));
  }
  switch (scheme) {
    case 'file':
      try {
        return new PrivateRootFileVfs(path.resolve(fileURLToPath(url)));
      } catch {
        throw new UsageError(`--state: ${JSON.stringify(url)} is not a valid file:// URL (use file:///absolute/path)`);
      }
    case 's3':
      return traced(new S3Vfs(url));
    case 'gs':
      return traced(new GcsVfs(url));
    case 'memfs':
      return new MemoryVfs(url.slice('memfs://'.length) || 'default');
    default:
      throw new UsageError(
        `--state: unsupported state store scheme "${scheme}://" in ${JSON.stringify(url)}; kforge supports s3://bucket/prefix, gs://bucket/prefix, file:///dir (or a plain directory path) and memfs://name`,
      );
  }
}

/**
 * A directory store whose missing root (and missing parents, such as ~/.kforge) is created 0700 by the
 * first write, whichever command writes first: the store holds private keys. A root that is a file is
 * reported as such rather than as mkdir's EEXIST.
 */
class PrivateRootFileVfs extends FileVfs {
  private rootReady: Promise<void> | undefined;

  override async write(key: string, data: Buffer | string, options?: VfsWriteOptions): Promise<string> {
    this.rootReady ??= createPrivateDir(this.root);
    await this.rootReady;
    return super.write(key, data, options);
  }
}

async function createPrivateDir(dir: string): Promise<void> {
  try {
    await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') throw new StateStoreError(`state store ${dir} is not a directory: ${code === 'EEXIST' ? 'it is a file' : 'a parent of it is a file'}`);
    throw new StateStoreError(`cannot create state store directory ${dir}: ${(e as Error).message}`);
  }
}

/**
 * Fails unless a directory store exists and is a directory, naming the path: listing a mistyped
 * `--state ./typo` must not look like an empty store. Other stores report a missing bucket when read.
 */
export async function checkStoreExists(vfs: Vfs): Promise<void> {
  if (!(vfs instanceof FileVfs)) return;
  let isDir: boolean;
  try {
    isDir = (await fsp.stat(vfs.root)).isDirectory();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new NotFoundError(`state store ${vfs.root} does not exist (is the path right? "kforge create state-store ${vfs.root}" creates it)`);
    if (code === 'ENOTDIR') throw new StateStoreError(`state store ${vfs.root} is not a directory: a parent of it is a file`);
    throw new StateStoreError(`cannot read state store ${vfs.root}: ${(e as Error).message}`);
  }
  if (!isDir) throw new StateStoreError(`state store ${vfs.root} is not a directory: it is a file`);
}

/** A remote store reports its calls when the CLI asked for it (--verbose, or progress on a terminal). */
function traced(vfs: Vfs): Vfs {
  const t = storeTracing();
  return t.verbose || t.progress ? new TracedVfs(vfs, t) : vfs;
}

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(os.homedir(), p.slice(1)) : p;
}
