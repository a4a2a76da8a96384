import { Vfs, VfsWriteOptions } from './vfs/vfs';

interface StagedWrite {
  key: string;
  data: Buffer | undefined;
  options: VfsWriteOptions;
}

interface Undo {
  key: string;
  before: Buffer | undefined;
  secret: boolean;
}

// Create-only writes are independent of each other; on an object store each is a round trip.
const PARALLEL_CREATES = 8;

/**
 * A batch of writes and deletes that either all happen or, if one fails, are undone: the store is left
 * as it was. Each single write is atomic already; this extends that to the whole command.
 *
 * Operations run in the order staged, except that consecutive create-only writes after the first
 * operation run in parallel: they cannot depend on each other, and the first operation (a cluster's
 * `config`) is the gate that a concurrent creator of the same name trips over.
 */
export class StoreTransaction {
  private readonly staged: StagedWrite[] = [];

  constructor(private readonly vfs: Vfs) {}

  /** Stages a write. */
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
    const undo: Undo[] = [];
    try {
      for (const batch of this.batches()) {
        const results = await Promise.allSettled(batch.map((op) => this.apply(op, undo)));
        const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failed) throw failed.reason;
      }
    } catch (e) {
      for (const u of undo.reverse()) {
        if (u.before === undefined) await this.vfs.delete(u.key).catch(() => undefined);
        else await this.vfs.write(u.key, u.before, { secret: u.secret }).catch(() => undefined);
      }
      throw e;
    }
  }

  private batches(): StagedWrite[][] {
    const out: StagedWrite[][] = [];
    for (const [i, op] of this.staged.entries()) {
      const last = out[out.length - 1];
      const parallel = i > 1 && op.options.ifNotExists && last[0].options.ifNotExists && last.length < PARALLEL_CREATES;
      if (parallel) last.push(op);
      else out.push([op]);
    }
    return out;
  }

  private async apply(op: StagedWrite, undo: Undo[]): Promise<void> {
    const secret = op.options.secret ?? false;
    // A create-only write has nothing to restore: if it succeeds, the object did not exist before.
    const before = op.options.ifNotExists ? undefined : (await this.vfs.read(op.key))?.data;
    if (op.data === undefined) {
      if (before === undefined) return;
      await this.vfs.delete(op.key);
      undo.push({ key: op.key, before, secret });
      return;
    }
    // Recorded only after success: a conditional write that failed changed nothing and must not be undone.
    await this.vfs.write(op.key, op.data, op.options);
    undo.push({ key: op.key, before, secret });
  }
}
