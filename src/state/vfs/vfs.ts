/** What a read returns: the bytes and an opaque version token for compare-and-swap writes. */
export interface VfsObject {
  /** Object content. */
  data: Buffer;
  /** Opaque token that changes whenever the content changes (content hash, ETag or generation). */
  version: string;
}

/** Options of a write. */
export interface VfsWriteOptions {
  /** Fail with ConflictError if the object already exists (create-only write). */
  ifNotExists?: boolean;
  /** Fail with ConflictError unless the object's current version equals this token. */
  ifVersion?: string;
  /** The object holds secret material: file stores use mode 0600 (dirs 0700); object stores encrypt every object anyway. */
  secret?: boolean;
}

/** Options of a delete. */
export interface VfsDeleteOptions {
  /** Delete only if the object's current version equals this token (best effort where the store has no conditional delete). */
  ifVersion?: string;
}

/**
 * The state-store abstraction: a flat key space below one base URL. Keys use `/` separators and are
 * relative to the base (`mycluster/config`). Implementations: file, memory, S3, GCS.
 */
export interface Vfs {
  /** The base URL as the user gave it, normalised (e.g. `file:///home/me/.kforge/state`, `s3://bucket/prefix`). */
  readonly url: string;
  /** Reads an object; undefined when absent. */
  read(key: string): Promise<VfsObject | undefined>;
  /** Writes an object atomically (readers see the old or the new content, never a mix); returns the new version token. */
  write(key: string, data: Buffer | string, options?: VfsWriteOptions): Promise<string>;
  /** Deletes an object; deleting an absent object is not an error. */
  delete(key: string, options?: VfsDeleteOptions): Promise<void>;
  /** Lists every key below `prefix` (recursively), sorted. */
  list(prefix: string): Promise<string[]>;
  /**
   * Creates the bucket (or directory) behind the store with safe settings; returns one line per setting
   * applied. AlreadyExistsError when it exists. Only stores that can create their container implement it.
   */
  createStore?(): Promise<string[]>;
  /**
   * Removes every temporary file of interrupted writes below `prefix` (which `list` never shows); returns
   * how many. Only stores that write through temporary files implement it.
   */
  removeTemporaryFiles?(prefix: string): Promise<number>;
}
