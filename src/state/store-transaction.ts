import { Vfs, VfsWriteOptions } from './vfs/vfs';

interface StagedWrite {
  key: string;
  data: Buffer | undefined;
  options: VfsWriteOptions;
}

/**
 * A batch of writes and deletes that either all happen or, if one fails, are undone: the store is left
 * as it was. Each single write is atomic already; this extends that to the whole command.
 */
export class StoreTransaction {
  private readonly staged: StagedWrite[] = [];

  constructor(private readonly vfs: Vfs) {}

  /** Stages a write. Staged operations run in the order given. */
  put(key: string, data: Buffer | string, options: VfsWriteOptions = {}): this {
    this.staged.push({ key, data: Buffer.from(data), options });
    return this;
  }

  /** Stages a delete. */
  remove(key: string): this {
    this.staged.push({ key, data: undefined, options: {} });
    return this;
  }

  /** Applies every staged operation; on the first failure restores what was already changed and rethrows. */
  async commit(): Promise<void> {
    const undo: Array<{ key: string; before: Buffer | undefined; secret: boolean }> = [];
    try {
      for (const op of this.staged) {
        const before = (await this.vfs.read(op.key))?.data;
        if (op.data === undefined) {
          if (before === undefined) continue;
          undo.push({ key: op.key, before, secret: op.options.secret ?? false });
          await this.vfs.delete(op.key);
        } else {
          // Record first: a conditional write that fails must not be undone, and one that succeeds must.
          const entry = { key: op.key, before, secret: op.options.secret ?? false };
          await this.vfs.write(op.key, op.data, op.options);
          undo.push(entry);
        }
      }
    } catch (e) {
      for (const u of undo.reverse()) {
        if (u.before === undefined) await this.vfs.delete(u.key).catch(() => undefined);
        else await this.vfs.write(u.key, u.before, { secret: u.secret }).catch(() => undefined);
      }
      throw e;
    }
  }
}
