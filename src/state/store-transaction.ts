import { ConflictError } from '../errors/conflict-error';
import { Vfs, VfsWriteOptions } from './vfs/vfs';

interface StagedOp {
  key: string;
  /** undefined: a delete. */
  data: Buffer | undefined;
  options: VfsWriteOptions;
}

interface Undo {
  key: string;
  before: Buffer | undefined;
  secret: boolean;
}

// Operations before the commit point are independent of each other; on an object store each is a round trip.
const PARALLEL_OPS = 8;

/**
 * A batch of writes and deletes that either all happen or, if one fails, are undone: the store is left
 * as it was. Each single write is atomic already; this extends that to the whole command.
 *
 * The staged operations run first, up to eight at a time; the commit point (a cluster's `config`, see
 * docs/state-stores.md) runs last and alone, only after all of them succeeded. Readers treat a cluster
 * as existing, and its derived files as current, from its `config`, so a crash before the commit point
 * leaves only objects that nobody reads and that the next create or delete of the name removes.
 *
 * Every operation is recorded for undo before it is sent, not after it succeeds: a write whose response
 * was lost may well have been applied. Only a write that failed its precondition (a ConflictError, which
 * the stores raise only after checking that the object is not the write's own) is known to have changed
 * nothing, and is dropped from the undo list.
 */
export class StoreTransaction {
  private readonly staged: StagedOp[] = [];
  private readonly last: StagedOp[] = [];

  constructor(private readonly vfs: Vfs) {}

  /** Stages a write. */
  put(key: string, data: Buffer | string, options: VfsWriteOptions = {}): this {
    this.staged.push({ key, data: Buffer.from(data), options });
    return this;
  }

  /** Stages a delete; deletes run after every staged write. */
  remove(key: string): this {
    this.staged.push({ key, data: undefined, options: {} });
    return this;
  }

  /** Stages the commit point: a write that runs after every other operation has succeeded, in the order staged. */
  putLast(key: string, data: Buffer | string, options: VfsWriteOptions = {}): this {
    this.last.push({ key, data: Buffer.from(data), options });
    return this;
  }

  /** The keys staged, in the order staged (writes are applied before deletes, commit points last). */
  keys(): string[] {
    return [...this.staged, ...this.last].map((op) => op.key);
  }

  /** Applies every staged operation; on the first failure restores what may have changed and rethrows. */
  async commit(): Promise<void> {
    const undo: Undo[] = [];
    try {
      // Writes go before deletes: a replaced object's successor exists before it goes, and a delete's pruning of
      // the directories it leaves empty never races a write into the same directory.
      const ordered = [...this.staged.filter((op) => op.data !== undefined), ...this.staged.filter((op) => op.data === undefined)];
      for (let i = 0; i < ordered.length; i += PARALLEL_OPS) await this.run(ordered.slice(i, i + PARALLEL_OPS), undo);
      for (const op of this.last) await this.run([op], undo);
    } catch (e) {
      for (const u of undo.reverse()) {
        if (u.before === undefined) await this.vfs.delete(u.key).catch(() => undefined);
        else await this.vfs.write(u.key, u.before, { secret: u.secret }).catch(() => undefined);
      }
      throw e;
    }
  }

  private async run(batch: StagedOp[], undo: Undo[]): Promise<void> {
    const results = await Promise.allSettled(batch.map((op) => this.apply(op, undo)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private async apply(op: StagedOp, undo: Undo[]): Promise<void> {
    const secret = op.options.secret ?? false;
    // A create-only write has nothing to restore: if it is applied, the object did not exist before.
    const before = op.options.ifNotExists ? undefined : (await this.vfs.read(op.key))?.data;
    if (op.data === undefined && before === undefined) return;
    const record: Undo = { key: op.key, before, secret };
    undo.push(record);
    try {
      if (op.data === undefined) await this.vfs.delete(op.key);
      else await this.vfs.write(op.key, op.data, op.options);
    } catch (e) {
      // A failed precondition changed nothing; undoing it would destroy someone else's object.
      if (e instanceof ConflictError) undo.splice(undo.indexOf(record), 1);
      throw e;
    }
  }
}
