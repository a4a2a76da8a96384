import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../../errors/usage-error';
import { FileVfs } from './file-vfs';
import { MemoryVfs } from './memory-vfs';
import { GcsVfs } from './gcs-vfs';
import { S3Vfs } from './s3-vfs';
import { Vfs } from './vfs';

/** The state store used when neither --state nor KFORGE_STATE_STORE is set. */
export function defaultStateStore(): string {
  return path.join(os.homedir(), '.kforge', 'state');
}

/** Opens a state store from a URL (`s3://`, `gs://`, `file://`, `memfs://`) or a plain directory path. */
export function openVfs(url: string): Vfs {
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    if (url.trim() === '') throw new UsageError('--state: the state store location is empty');
    return new FileVfs(path.resolve(expandHome(url)));
  }
  switch (scheme) {
    case 'file':
      try {
        return new FileVfs(path.resolve(fileURLToPath(url)));
      } catch {
        throw new UsageError(`--state: ${JSON.stringify(url)} is not a valid file:// URL (use file:///absolute/path)`);
      }
    case 's3':
      return new S3Vfs(url);
    case 'gs':
      return new GcsVfs(url);
    case 'memfs':
      return new MemoryVfs(url.slice('memfs://'.length) || 'default');
    default:
      throw new UsageError(
        `--state: unsupported state store scheme "${scheme}://" in ${JSON.stringify(url)}; kforge supports s3://bucket/prefix, gs://bucket/prefix, file:///dir (or a plain directory path) and memfs://name`,
      );
  }
}

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(os.homedir(), p.slice(1)) : p;
}
