import * as fs from 'node:fs';
import * as path from 'node:path';
import { KforgeError } from '../errors/kforge-error';
import { NodeRootError } from './node-root-error';
import { NodeRootEscapeError } from './node-root-escape-error';

/** What a write did (or, in a dry run, would do). */
export type RootWriteAction = 'created' | 'changed' | 'unchanged';

/** A regular file read under the root: its bytes and permission bits. */
export interface RootFile {
  data: Buffer;
  mode: number;
}

/** Options of RootWriter.writeFile. */
export interface RootWriteOptions {
  /** Report what would happen; create and write nothing (the path is still checked). */
  dryRun?: boolean;
  /** When the rename fails with EBUSY (a container's bind-mounted /etc/hosts), write the file in place instead. */
  inPlaceWhenBusy?: boolean;
}

/**
 * The one way nodeup and protokube touch the node's filesystem under `--root`: every path is an absolute
 * node path, resolved below the root one component at a time with lstat. A symlink is followed only when
 * it resolves inside the real root (a Debian root's relative `/lib -> usr/lib`); one that leads outside it,
 * dangling or not, fails with NodeRootEscapeError naming it, before anything is created. Directories are
 * made one level at a time and checked again after mkdir. Files are written atomically (a temporary file
 * created with O_EXCL beside the target, its mode set through the descriptor, renamed over the target) and
 * idempotently (same bytes and mode: untouched); an existing file is opened with O_NOFOLLOW, and a symlink,
 * directory or device at a file's path is never replaced or written through.
 *
 * What this covers: anything present before or between runs, including directories nodeup made itself in an
 * earlier run and links planted at any component or at the file itself. What it does not (TOCTOU): a
 * process that can write inside the root and swaps a checked directory for a symlink between the check
 * and the open or rename. Node has no openat()/RESOLVE_BENEATH to pin each directory, and such a process
 * already runs as the node's root. With `--root /` every path is inside the root and only the
 * regular-file checks apply.
 */
export class RootWriter {
  /** The root as given (messages name paths under it). */
  readonly root: string;
  private realRootCache?: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** The root's real path; the root itself is the caller's choice and may be made here (never in a dry run). */
  private realRoot(create: boolean): string | undefined {
    if (this.realRootCache) return this.realRootCache;
    if (!fs.existsSync(this.root)) {
      if (!create) return undefined;
      fs.mkdirSync(this.root, { recursive: true, mode: 0o755 });
    }
    const real = fs.realpathSync(this.root);
    if (!fs.statSync(real).isDirectory()) throw new NodeRootError(`cannot write under ${this.root}: the root is not a directory`);
    this.realRootCache = real;
    return real;
  }

  /** The host path of `nodePath` as given, for messages. */
  shown(nodePath: string): string {
    return path.join(this.root, nodePath);
  }

  /**
   * The real host path of directory `nodePath`, every component checked; missing ones are made (mode 0755)
   * when `create`, else undefined is returned at the first missing one.
   */
  dir(nodePath: string, create = true): string | undefined {
    const parts = nodeParts(nodePath);
    let real = this.realRoot(create);
    if (real === undefined) return undefined;
    for (let i = 0; i < parts.length; i++) {
      const shown = path.join(this.root, ...parts.slice(0, i + 1));
      const next = path.join(real, parts[i]);
      let st = lstat(next, shown);
      if (!st) {
        if (!create) return undefined;
        try {
          fs.mkdirSync(next, { mode: 0o755 });
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw writeError(shown, e);
        }
        // Checked again: what is there now (ours, or a racer's) must pass like anything else.
        st = lstat(next, shown);
        if (!st) throw new NodeRootError(`${shown}: vanished right after nodeup made it; is something else changing the root?`);
      }
      if (st.isSymbolicLink()) {
        real = this.followInside(next, shown);
        st = fs.statSync(real);
      } else {
        real = next;
      }
      if (!st.isDirectory()) throw new NodeRootError(`${shown}: exists and is not a directory; nodeup will not write below it`);
    }
    return real;
  }

  /** Writes `content` at `nodePath` with `mode`, atomically and idempotently (see the class). */
  writeFile(nodePath: string, content: Buffer | string, mode: number, options: RootWriteOptions = {}): RootWriteAction {
    const shown = this.shown(nodePath);
    const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const bits = mode & 0o7777;
    const dir = this.dir(path.posix.dirname(nodePath), !options.dryRun);
    if (dir === undefined) return 'created';
    const target = path.join(dir, path.posix.basename(nodePath));
    const existing = this.readAt(target, shown);
    if (existing && existing.data.equals(data) && existing.mode === bits) return 'unchanged';
    if (options.dryRun) return existing ? 'changed' : 'created';
    try {
      if (existing && existing.data.equals(data)) {
        withFd(target, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW, (fd) => fs.fchmodSync(fd, bits));
        return 'changed';
      }
      const temp = path.join(dir, `.${path.basename(target)}.kforge-${process.pid}.tmp`);
      // A leftover of a crashed run with this pid (rm removes a link, never its target); O_EXCL below never follows one.
      fs.rmSync(temp, { force: true });
      try {
        withFd(temp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, (fd) => {
          fs.writeFileSync(fd, data);
          fs.fchmodSync(fd, bits);
        });
        fs.renameSync(temp, target);
      } catch (e) {
        fs.rmSync(temp, { force: true });
        if (!(options.inPlaceWhenBusy && (e as NodeJS.ErrnoException).code === 'EBUSY')) throw e;
        withFd(target, fs.constants.O_WRONLY | fs.constants.O_TRUNC | fs.constants.O_NOFOLLOW, (fd) => fs.writeFileSync(fd, data));
      }
    } catch (e) {
      throw writeError(shown, e);
    }
    return existing ? 'changed' : 'created';
  }

  /** The regular file at `nodePath`, or undefined when it (or a directory above it) does not exist. */
  readFile(nodePath: string): RootFile | undefined {
    const dir = this.dir(path.posix.dirname(nodePath), false);
    if (dir === undefined) return undefined;
    return this.readAt(path.join(dir, path.posix.basename(nodePath)), this.shown(nodePath));
  }

  /** Whether something (file or directory, not a symlink leading out) is at `nodePath`. */
  exists(nodePath: string): boolean {
    const dir = this.dir(path.posix.dirname(nodePath), false);
    if (dir === undefined) return false;
    const st = lstat(path.join(dir, path.posix.basename(nodePath)), this.shown(nodePath));
    if (st?.isSymbolicLink()) this.followInside(path.join(dir, path.posix.basename(nodePath)), this.shown(nodePath));
    return st !== undefined;
  }

  private readAt(target: string, shown: string): RootFile | undefined {
    const st = lstat(target, shown);
    if (!st) return undefined;
    if (st.isSymbolicLink()) {
      this.followInside(target, shown);
      throw new NodeRootError(`${shown}: is a symlink; nodeup will not replace it or write through it`);
    }
    if (!st.isFile()) throw new NodeRootError(`${shown}: exists and is not a regular file; nodeup will not replace it`);
    try {
      return withFd(target, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW, (fd) => ({ data: fs.readFileSync(fd), mode: fs.fstatSync(fd).mode & 0o7777 }));
    } catch (e) {
      throw writeError(shown, e, 'read');
    }
  }

  /** Where symlink `link` leads when that is inside the real root; NodeRootEscapeError naming it otherwise. */
  private followInside(link: string, shown: string): string {
    const realRoot = this.realRoot(false) as string;
    const to = fs.readlinkSync(link);
    let resolved: string;
    try {
      resolved = fs.realpathSync(link);
    } catch {
      // Dangling: where it points on its face; mkdir -p through it would create that directory.
      resolved = path.resolve(path.dirname(link), to);
      if (inside(resolved, realRoot)) throw new NodeRootError(`${shown}: a symlink to ${to}, which does not exist; nodeup will not write through it`);
    }
    if (!inside(resolved, realRoot)) {
      throw new NodeRootEscapeError(`${shown}: a symlink to ${to}, which resolves to ${resolved}, outside the root ${realRoot}; nodeup writes nothing through it`);
    }
    return resolved;
  }
}

/** The components of an absolute node path; one with `..`, `.` or an empty component is refused. */
function nodeParts(nodePath: string): string[] {
  if (nodePath === '/') return [];
  const parts = nodePath.split('/').slice(1);
  if (!nodePath.startsWith('/') || parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\0'))) {
    throw new NodeRootError(`${nodePath}: not a normalized absolute path inside the node`);
  }
  return parts;
}

function inside(p: string, root: string): boolean {
  return root === '/' || p === root || p.startsWith(`${root}/`);
}

function lstat(p: string, shown: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw writeError(shown, e, 'read');
  }
}

function withFd<T>(file: string, flags: number, f: (fd: number) => T): T {
  const fd = fs.openSync(file, flags, 0o600);
  try {
    return f(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function writeError(shown: string, e: unknown, verb = 'write'): KforgeError {
  if (e instanceof KforgeError) return e;
  const code = (e as NodeJS.ErrnoException).code;
  const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'ENOTDIR' ? 'a parent is not a directory' : code === 'ELOOP' ? 'a symlink is in the way' : String(code ?? e);
  return new NodeRootError(`cannot ${verb} ${shown}: ${why}`);
}
