import { Flags } from '@oclif/core';
import { UsageError } from '../errors/usage-error';
import type { LockOptions } from '../state/lock/cluster-lock';
import { readInputFile } from './read-input-file';

/** The -f flag of `create` and `replace`. */
export const filenameFlag = Flags.string({ char: 'f', description: 'Manifest file to read ("-" for stdin); repeatable', multiple: true, multipleNonGreedy: true });

/** Shared body of `create -f` and `replace -f`: applies each file and returns one line per object. */
export async function applyManifestFiles(stateUrl: string, files: string[] | undefined, mode: 'create' | 'replace', lock: LockOptions): Promise<string[]> {
  if (!files || files.length === 0) throw new UsageError(`-f FILE is required${mode === 'create' ? ' (or use "kforge create cluster NAME")' : ''}`);
  const { openVfs } = await import('../state/vfs/open-vfs');
  const { applyManifests } = await import('../ops/apply-manifests');
  const vfs = openVfs(stateUrl);
  const lines: string[] = [];
  for (const file of files) {
    for (const a of await applyManifests(vfs, await readInputFile(file), file, mode, lock)) {
      lines.push(`${a.kind === 'Cluster' ? 'cluster' : 'instancegroup'} "${a.name}" ${a.action}${a.kind === 'InstanceGroup' ? ` in cluster "${a.cluster}"` : ''}`);
    }
  }
  return lines;
}
