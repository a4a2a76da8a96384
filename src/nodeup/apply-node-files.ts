import type { NodeFile } from './node-file';
import { RootWriter } from './root-writer';

/** What happened (or, with dryRun, would happen) to one file. */
export interface NodeFileResult {
  /** Path on the node (without the root). */
  path: string;
  /** Permission bits as octal text, e.g. `0644`. */
  mode: string;
  action: 'created' | 'changed' | 'unchanged';
}

/** The outcome of applyNodeFiles. */
export interface NodeFilesReport {
  root: string;
  dryRun: boolean;
  files: NodeFileResult[];
  created: number;
  changed: number;
  unchanged: number;
}

/**
 * Writes the files under `root` through the root-checked RootWriter, idempotently: a file whose content and
 * mode already match is left alone; a new or different one is written to a temporary file beside it, given
 * its mode, then renamed over the old one (a reader never sees half a file); a file whose content matches
 * but mode differs only gets chmod. No file is written through a symlink that leads outside the root. With
 * dryRun, nothing is written and the report says what would be.
 */
export function applyNodeFiles(files: NodeFile[], root: string, options: { dryRun?: boolean } = {}): NodeFilesReport {
  const dryRun = options.dryRun ?? false;
  const writer = new RootWriter(root);
  const results = files.map((f): NodeFileResult => {
    const mode = f.mode & 0o7777;
    return { path: f.path, mode: `0${mode.toString(8)}`, action: writer.writeFile(f.path, f.content, mode, { dryRun }) };
  });
  const count = (a: NodeFileResult['action']) => results.filter((r) => r.action === a).length;
  return { root, dryRun, files: results, created: count('created'), changed: count('changed'), unchanged: count('unchanged') };
}
