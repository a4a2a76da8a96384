import * as fs from 'node:fs';
import * as path from 'node:path';
import { ETC_HOSTS_PATH } from './etc-hosts';
import { NodeRootError } from './node-root-error';

/** The node's current /etc/hosts under `root` (content and mode), or `'absent'`; what renderNodeFiles edits its block of. */
export function readEtcHosts(root: string): { content: string; mode: number } | 'absent' {
  const file = path.join(root, ETC_HOSTS_PATH);
  let bytes: Buffer;
  let mode: number;
  try {
    mode = fs.statSync(file).mode & 0o7777;
    bytes = fs.readFileSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'absent';
    throw new NodeRootError(`cannot read ${file}: ${code ?? String(e)}`);
  }
  try {
    // Decoded strictly: the lines outside nodeup's block must be written back byte for byte.
    return { content: new TextDecoder('utf-8', { fatal: true }).decode(bytes), mode };
  } catch {
    throw new NodeRootError(`${file}: not UTF-8 text; nodeup will not edit it`);
  }
}
