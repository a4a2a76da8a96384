import * as fs from 'node:fs';
import * as path from 'node:path';
import type { NodeFile } from './node-file';
import { NodeRootError } from './node-root-error';

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
 * Writes the files under `root`, idempotently: a file whose content and mode already match is left
 * alone; a new or different one is written to a temporary file beside it, given its mode, then renamed
 * over the old one (a reader never sees half a file); a file whose content matches but mode differs only
 * gets chmod. With dryRun, nothing is written and the report says what would be.
 */
export function applyNodeFiles(files: NodeFile[], root: string, options: { dryRun?: boolean } = {}): NodeFilesReport {
  const dryRun = options.dryRun ?? false;
  const results = files.map((f) => applyOne(f, root, dryRun));
  const count = (a: NodeFileResult['action']) => results.filter((r) => r.action === a).length;
  return { root, dryRun, files: results, created: count('created'), changed: count('changed'), unchanged: count('unchanged') };
}

function applyOne(file: NodeFile, root: string, dryRun: boolean): NodeFileResult {
  if (!path.posix.isAbsolute(file.path) || file.path.split('/').includes('..')) throw new NodeRootError(`${file.path}: not an absolute path inside the node`);
  const target = path.join(root, file.path);
  const mode = file.mode & 0o7777;
  const result = (action: NodeFileResult['action']): NodeFileResult => ({ path: file.path, mode: `0${mode.toString(8)}`, action });
  try {
    checkInsideRoot(path.dirname(target), root);
    const existing = stat(target);
    if (existing && !existing.isFile()) throw new NodeRootError(`${target}: exists and is not a regular file; nodeup will not replace it`);
    const sameContent = existing !== undefined && fs.readFileSync(target).equals(Buffer.from(file.content, 'utf8'));
    const sameMode = existing !== undefined && (existing.mode & 0o7777) === mode;
    if (sameContent && sameMode) return result('unchanged');
    if (dryRun) return result(existing ? 'changed' : 'created');
    if (sameContent) {
      fs.chmodSync(target, mode);
      return result('changed');
    }
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o755 });
    const temp = path.join(path.dirname(target), `.${path.basename(target)}.kforge-${process.pid}.tmp`);
    try {
      fs.writeFileSync(temp, file.content, { mode: 0o600, flag: 'wx' });
      fs.chmodSync(temp, mode);
      fs.renameSync(temp, target);
    } catch (e) {
      fs.rmSync(temp, { force: true });
      throw e;
    }
    return result(existing ? 'changed' : 'created');
  } catch (e) {
    if (e instanceof NodeRootError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new NodeRootError(`cannot write ${target}: ${code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'ENOTDIR' ? 'a parent is not a directory' : String(code ?? e)}`);
  }
}

function stat(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/**
 * Refuses a directory that resolves outside the root through a symlink (e.g. `<root>/etc` → `/etc`), so
 * `--root` never writes on the host: the deepest existing ancestor below the root must resolve inside the
 * real root. A root that does not exist yet holds no symlink.
 */
function checkInsideRoot(dir: string, root: string): void {
  const top = path.resolve(root);
  let existing = path.resolve(dir);
  while (!fs.existsSync(existing)) {
    if (existing === top || path.dirname(existing) === existing) return;
    existing = path.dirname(existing);
  }
  const realRoot = fs.realpathSync(top);
  const real = fs.realpathSync(existing);
  const inside = real === realRoot || real.startsWith(realRoot.endsWith(path.sep) ? realRoot : `${realRoot}${path.sep}`);
  if (!inside) throw new NodeRootError(`${dir}: resolves to ${real}, outside the root ${realRoot} (a symlink); nodeup will not write there`);
}
