import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isProcessAlive } from '../../util/process-alive';
import { createHash, randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { AlreadyExistsError } from '../../errors/already-exists-error';
import { ConflictError } from '../../errors/conflict-error';
import { StateStoreError } from '../../errors/state-store-error';
import { contentVersion } from './content-version';
import { Vfs, VfsDeleteOptions, VfsObject, VfsWriteOptions } from './vfs';

const TEMP_PREFIX = '.kforge-tmp-';
const GUARD_WAIT_MS = 5000;
const GUARD_STALE_MS = 30000;
/** A temporary file this old was left by a crashed write: no write takes minutes. */
const TEMP_STALE_MS = 5 * 60_000;

/** A state store in a local directory (`file:///dir` or a plain path); writes are temp-file + rename. */
export class FileVfs implements Vfs {
  readonly url: string;

  constructor(readonly root: string) {
    this.url = pathToFileURL(root).href;
  }

  /** Directories below the root already checked to be real directories (not links) by this process. */
  private readonly checkedDirs = new Set<string>();
  /** Directories whose stale temporary files this process has already removed. */
  private readonly sweptDirs = new Set<string>();

  private resolve(key: string): string {
    const full = path.resolve(this.root, key);
    if (full !== this.root && !full.startsWith(this.root + path.sep)) {
      throw new StateStoreError(`key ${JSON.stringify(key)} escapes the state store ${this.url}`);
    }
    return full;
  }

  /**
   * The path of a key, after checking that no existing component below the root is a symbolic link. The
   * store never follows a link: one at `<cluster>` or `pki/private/<keyset>` would send writes (private
   * keys among them) and chmods outside the store. A symlinked root itself is fine.
   */
  private async safePath(key: string): Promise<string> {
    const full = this.resolve(key);
    let at = this.root;
    for (const part of path.relative(this.root, full).split(path.sep).filter(Boolean)) {
      at = path.join(at, part);
      if (this.checkedDirs.has(at)) continue;
      let st: import('node:fs').Stats;
      try {
        st = await fs.lstat(at);
      } catch (e) {
        if (isCode(e, 'ENOENT') || isCode(e, 'ENOTDIR')) return full;
        throw storeError(`cannot read ${at}`, e);
      }
      if (st.isSymbolicLink()) throw symlinkError(at, this.url);
      if (st.isDirectory()) this.checkedDirs.add(at);
    }
    return full;
  }

  /** Creates the store's directory, private to its owner; AlreadyExistsError when it exists. */
  async createStore(): Promise<string[]> {
    await fs.mkdir(path.dirname(this.root), { recursive: true }).catch((e: unknown) => {
      throw storeError(`cannot create ${path.dirname(this.root)}`, e);
    });
    try {
      await fs.mkdir(this.root, { mode: 0o700 });
    } catch (e) {
      if (isCode(e, 'EEXIST')) throw new AlreadyExistsError(`state store directory ${this.root} already exists`);
      throw storeError(`cannot create ${this.root}`, e);
    }
    await fs.chmod(this.root, 0o700);
    return [`created directory ${this.root}`, 'mode: 0700 (only you can read it)'];
  }

  async read(key: string): Promise<VfsObject | undefined> {
    try {
      const data = await fs.readFile(await this.safePath(key));
      return { data, version: contentVersion(data) };
    } catch (e) {
      if (isCode(e, 'ENOENT') || isCode(e, 'ENOTDIR') || isCode(e, 'EISDIR')) return undefined;
      throw storeError(`cannot read ${this.resolve(key)}`, e);
    }
  }

  async write(key: string, data: Buffer | string, options: VfsWriteOptions = {}): Promise<string> {
    // A delete of the directory's last other key (in the same transaction, or another process) removes the
    // directory it leaves empty; a write that meets its directory gone makes it again (a few times at most).
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.writeOnce(key, data, options);
      } catch (e) {
        if (!(e instanceof DirectoryGoneError) || attempt >= 5) throw e instanceof DirectoryGoneError ? e.storeError : e;
      }
    }
  }

  private async writeOnce(key: string, data: Buffer | string, options: VfsWriteOptions): Promise<string> {
    const target = await this.safePath(key);
    const buf = Buffer.from(data);
    const dirMode = options.secret ? 0o700 : 0o755;
    const fileMode = options.secret ? 0o600 : 0o644;
    let created: string | undefined;
    try {
      // Only the key's own directory is private: a recursive mkdir would make shared ancestors (pki/) 0700 too.
      // No existing component is a link (safePath), so mkdir creates real directories only.
      await fs.mkdir(path.dirname(path.dirname(target)), { recursive: true, mode: 0o755 });
      created = await fs.mkdir(path.dirname(target), { recursive: true, mode: dirMode });
      if (options.secret) await fs.chmod(path.dirname(target), dirMode);
    } catch (e) {
      // Another process's delete pruned an ancestor between the two mkdirs: make them again.
      if (isCode(e, 'ENOENT')) throw new DirectoryGoneError(storeError(`cannot create directory ${path.dirname(target)}`, e));
      throw storeError(`cannot create directory ${path.dirname(target)}`, e);
    }
    // A directory that existed may hold temporary files of a write that crashed (possibly keys).
    if (created === undefined) await this.sweepStaleTemporaryFiles(path.dirname(target));
    if (options.ifVersion === undefined) return this.writeFile(target, buf, fileMode, options.ifNotExists ?? false);
    const expected = options.ifVersion;
    return this.withKeyGuard(target, async () => {
      const current = await this.read(key);
      if (!current || current.version !== expected) {
        throw new ConflictError(`${target} changed since you read it; re-run the command to start from the current version`);
      }
      return this.writeFile(target, buf, fileMode, false);
    });
  }

  /**
   * Runs a read-compare-write under a per-key guard file, created exclusively, so that two kforge
   * processes cannot both pass the compare: a file system has no compare-and-swap of its own.
   */
  private async withKeyGuard<T>(target: string, fn: () => Promise<T>): Promise<T> {
    const guard = path.join(path.dirname(target), `${TEMP_PREFIX}guard-${path.basename(target)}`);
    const deadline = Date.now() + GUARD_WAIT_MS;
    for (let delay = 5; ; delay = Math.min(delay * 2, 100)) {
      try {
        const handle = await fs.open(guard, 'wx', 0o600);
        try {
          await handle.writeFile(GUARD_OWNER);
        } finally {
          await handle.close();
        }
        break;
      } catch (e) {
        if (isCode(e, 'ENOENT') && !(await exists(path.dirname(guard)))) throw new DirectoryGoneError(storeError(`cannot lock ${target}`, e));
        if (!isCode(e, 'EEXIST')) throw storeError(`cannot lock ${target}`, e);
        const age = await fs.stat(guard).then((st) => Date.now() - st.mtimeMs, () => 0);
        // A guard of a process of this host that is gone, or one older than any real write, was left by a crash.
        if (age > GUARD_STALE_MS || (await guardOwnerIsGone(guard))) await fs.rm(guard, { force: true });
        else if (Date.now() > deadline) throw new StateStoreError(`${target} is being written by another process; try again`);
        await new Promise((r) => setTimeout(r, delay));
      }
    }
    try {
      return await fn();
    } finally {
      await fs.rm(guard, { force: true });
    }
  }

  private async writeFile(target: string, buf: Buffer, fileMode: number, exclusive: boolean): Promise<string> {
    const temp = path.join(path.dirname(target), `${TEMP_PREFIX}${TEMP_OWNER}-${randomBytes(6).toString('hex')}`);
    try {
      const handle = await fs.open(temp, 'wx', fileMode);
      try {
        await handle.writeFile(buf);
        await handle.sync();
      } finally {
        await handle.close();
      }
      if (exclusive) {
        // link() fails if the target exists, which makes the create exclusive and still atomic.
        try {
          await fs.link(temp, target);
        } catch (e) {
          if (isCode(e, 'EEXIST')) throw new ConflictError(`${target} already exists`);
          throw e;
        }
        await fs.unlink(temp);
      } else {
        await fs.rename(temp, target);
      }
    } catch (e) {
      await fs.rm(temp, { force: true });
      if (e instanceof ConflictError) throw e;
      if (isCode(e, 'ENOENT') && !(await exists(path.dirname(target)))) throw new DirectoryGoneError(storeError(`cannot write ${target}`, e));
      throw storeError(`cannot write ${target}`, e);
    }
    return contentVersion(buf);
  }

  /** Removes temporary files older than TEMP_STALE_MS from a directory, once per directory and process. */
  private async sweepStaleTemporaryFiles(dir: string): Promise<void> {
    if (this.sweptDirs.has(dir)) return;
    this.sweptDirs.add(dir);
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    const now = Date.now();
    for (const name of names.filter((n) => n.startsWith(TEMP_PREFIX))) {
      const file = path.join(dir, name);
      const age = await fs.lstat(file).then((st) => now - st.mtimeMs, () => 0);
      if (age > TEMP_STALE_MS) await fs.rm(file, { force: true });
    }
  }

  async removeTemporaryFiles(prefix: string): Promise<number> {
    const dirPart = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    const start = await this.safePath(dirPart || '.');
    let removed = 0;
    const walk = async (dir: string): Promise<void> => {
      const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const ent of entries) {
        const full = path.join(dir, ent.name);
        if (ent.isSymbolicLink()) throw symlinkError(full, this.url);
        if (ent.isDirectory()) await walk(full);
        else if (ent.name.startsWith(TEMP_PREFIX) && path.relative(this.root, full).split(path.sep).join('/').startsWith(prefix) && (await temporaryFileIsLeftOver(full, ent.name))) {
          await fs.rm(full, { force: true });
          removed++;
        }
      }
      if (dir !== this.root) await fs.rmdir(dir).catch(() => undefined);
    };
    await walk(start);
    await this.pruneEmptyDirs(path.dirname(start));
    return removed;
  }

  async delete(key: string, options: VfsDeleteOptions = {}): Promise<void> {
    const target = await this.safePath(key);
    const expected = options.ifVersion;
    if (expected === undefined) return this.deleteFile(target);
    await this.withKeyGuard(target, async () => {
      const current = await this.read(key);
      if (current && current.version !== expected) throw new ConflictError(`${target} changed since you read it`);
      await fs.rm(target, { force: true }).catch((e: unknown) => {
        throw storeError(`cannot delete ${target}`, e);
      });
    });
    // Only now, with the guard file gone, can the directory be empty.
    await this.pruneEmptyDirs(path.dirname(target));
  }

  private async deleteFile(target: string): Promise<void> {
    try {
      await fs.rm(target, { force: true });
      await this.pruneEmptyDirs(path.dirname(target));
    } catch (e) {
      throw storeError(`cannot delete ${target}`, e);
    }
  }

  /** Removes directories left empty by a delete, up to the store root, so deleted clusters leave no trace. */
  private async pruneEmptyDirs(dir: string): Promise<void> {
    let d = dir;
    while (d.startsWith(this.root + path.sep)) {
      try {
        await fs.rmdir(d);
      } catch {
        return;
      }
      d = path.dirname(d);
    }
  }

  async list(prefix: string): Promise<string[]> {
    const out: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      let entries: import('node:fs').Dirent[];
      try {
        entries = await fs.readdir(dir, { withFileTypes: true });
      } catch (e) {
        if (isCode(e, 'ENOENT') || isCode(e, 'ENOTDIR')) return;
        throw storeError(`cannot list ${dir}`, e);
      }
      const subdirs: string[] = [];
      for (const ent of entries) {
        const full = path.join(dir, ent.name);
        if (ent.isSymbolicLink()) throw symlinkError(full, this.url);
        if (ent.isDirectory()) subdirs.push(full);
        else if (ent.isFile() && !ent.name.startsWith(TEMP_PREFIX)) out.push(path.relative(this.root, full).split(path.sep).join('/'));
      }
      // Directories are read concurrently: one at a time, a store of a few clusters took ~40 ms of round trips.
      await Promise.all(subdirs.map(walk));
    };
    // Walk only the deepest directory named by the prefix, not the whole store.
    const dirPart = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    await walk(await this.safePath(dirPart || '.'));
    return out.filter((k) => k.startsWith(prefix)).sort();
  }
}

/** A write found its directory removed under it (a concurrent delete pruned it): write() makes it again. */
class DirectoryGoneError extends Error {
  constructor(readonly storeError: StateStoreError) {
    super(storeError.message);
  }
}

/** Whether a path exists (a directory a concurrent delete may have pruned). */
async function exists(p: string): Promise<boolean> {
  return fs.stat(p).then(
    () => true,
    () => false,
  );
}

function isCode(e: unknown, code: string): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === code;
}

/** What a guard file records: its writer, so that a guard whose writer died can be removed at once. */
const GUARD_OWNER = `${process.pid}@${os.hostname()}`;

// In a temporary file's name: this host (a short hash: names stay short and carry no host name) and process.
const HOST_TAG = createHash('sha256').update(os.hostname()).digest('hex').slice(0, 8);
const TEMP_OWNER = `${HOST_TAG}-${process.pid}`;

/**
 * Whether a temporary file is what an interrupted write left, not another process's write under way: the
 * holder of a cluster's lock removes the leftovers below it while another process may be writing there (a
 * create racing for the same name writes its lock file through a temporary file; removing it made that
 * create fail with ENOENT instead of "locked"). Left over: a file of a process of this host that is gone, a
 * guard whose owner is gone, anything older than TEMP_STALE_MS, and names of an older kforge (no owner).
 * This process's own files are its writes under way.
 */
async function temporaryFileIsLeftOver(file: string, name: string): Promise<boolean> {
  const age = await fs.lstat(file).then((st) => Date.now() - st.mtimeMs, () => 0);
  if (age > TEMP_STALE_MS) return true;
  if (name.startsWith(`${TEMP_PREFIX}guard-`)) return guardOwnerIsGone(file);
  const m = /^\.kforge-tmp-([0-9a-f]{8})-(\d+)-[0-9a-f]+$/.exec(name);
  if (!m) return true;
  const pid = Number(m[2]);
  return m[1] === HOST_TAG && pid !== process.pid && !isProcessAlive(pid);
}

async function guardOwnerIsGone(guard: string): Promise<boolean> {
  const owner = await fs.readFile(guard, 'utf8').catch(() => '');
  const m = /^(\d+)@(.+)$/.exec(owner);
  return m !== null && m[2] === os.hostname() && !isProcessAlive(Number(m[1]));
}

function symlinkError(at: string, url: string): StateStoreError {
  return new StateStoreError(
    `${at} is a symbolic link inside the state store ${url}; kforge never follows links in a store (a write through one could put keys outside it): replace it with the real directory or file`,
  );
}

function storeError(what: string, e: unknown): StateStoreError {
  const reason = e instanceof Error ? e.message : String(e);
  return new StateStoreError(`${what}: ${reason}`);
}
