import type { Vfs, VfsDeleteOptions, VfsObject, VfsWriteOptions } from '../vfs/vfs';

/**
 * What code holding cluster locks checks before each change it makes (a cloud call, a task, a state
 * write): `verify` rejects with LockLostError once another command has taken one of the locks, or one
 * expired because it could not be renewed. A command that has lost its lock must change nothing more.
 */
export interface LockFence {
  /** Resolves while every lock is still held, as the store says now; rejects with LockLostError otherwise. */
  verify(): Promise<void>;
  /** `vfs`, whose writes and deletes verify the locks first. */
  vfs(vfs: Vfs): Vfs;
}

/** A store whose writes and deletes first `verify` (a fence); reads and listings go straight through. */
export function fencedVfs(inner: Vfs, verify: () => Promise<void>): Vfs {
  return new FencedVfs(inner, verify);
}

class FencedVfs implements Vfs {
  readonly url: string;
  readonly createStore?: () => Promise<string[]>;
  readonly removeTemporaryFiles?: (prefix: string) => Promise<number>;

  constructor(
    private readonly inner: Vfs,
    private readonly verify: () => Promise<void>,
  ) {
    this.url = inner.url;
    const create = inner.createStore?.bind(inner);
    if (create) this.createStore = async () => (await this.verify(), create());
    const removeTemporary = inner.removeTemporaryFiles?.bind(inner);
    if (removeTemporary) this.removeTemporaryFiles = async (prefix) => (await this.verify(), removeTemporary(prefix));
  }

  read(key: string): Promise<VfsObject | undefined> {
    return this.inner.read(key);
  }

  list(prefix: string): Promise<string[]> {
    return this.inner.list(prefix);
  }

  async write(key: string, data: Buffer | string, options?: VfsWriteOptions): Promise<string> {
    await this.verify();
    return this.inner.write(key, data, options);
  }

  async delete(key: string, options?: VfsDeleteOptions): Promise<void> {
    await this.verify();
    return this.inner.delete(key, options);
  }
}
