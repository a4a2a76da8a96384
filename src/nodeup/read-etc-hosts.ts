import { ETC_HOSTS_PATH } from './etc-hosts';
import { NodeRootError } from './node-root-error';
import { RootWriter } from './root-writer';

/** The node's current /etc/hosts under `root` (content and mode), or `'absent'`; what renderNodeFiles edits its block of. Read through the RootWriter's checks. */
export function readEtcHosts(root: string): { content: string; mode: number } | 'absent' {
  const writer = new RootWriter(root);
  const file = writer.readFile(ETC_HOSTS_PATH);
  if (!file) return 'absent';
  try {
    // Decoded strictly: the lines outside nodeup's block must be written back byte for byte.
    return { content: new TextDecoder('utf-8', { fatal: true }).decode(file.data), mode: file.mode };
  } catch {
    throw new NodeRootError(`${writer.shown(ETC_HOSTS_PATH)}: not UTF-8 text; nodeup will not edit it`);
  }
}
