import { Vfs, VfsDeleteOptions, VfsObject, VfsWriteOptions } from './vfs';

/** How store calls are reported: every call with `verbose`, slow ones with `progress` (a terminal). */
export interface StoreTracing {
  /** Log each call with its duration (`--verbose`). */
  verbose: boolean;
  /** Say what a call that takes longer than `slowMs` is waiting on (stderr is a terminal). */
  progress: boolean;
  /** Default: 1000 ms. */
  slowMs?: number;
  /** Default: a line on stderr. */
  log?: (line: string) => void;
}

let current: StoreTracing = { verbose: false, progress: false };

/** Sets how the remote stores opened from now on report their calls (the CLI sets it from --verbose and the terminal). */
export function setStoreTracing(tracing: StoreTracing): void {
  current = tracing;
}

/** The tracing in effect. */
export function storeTracing(): StoreTracing {
  return current;
}

/**
 * A remote store (S3, GCS) whose calls are reported: with --verbose each call is logged with its
 * duration; on a terminal, a call still running after a second says what it is waiting on, so a slow
 * network or throttling never looks like a hung command.
 */
export class TracedVfs implements Vfs {
  readonly url: string;
  readonly createStore?: () => Promise<string[]>;

  constructor(
    private readonly inner: Vfs,
    private readonly tracing: StoreTracing = current,
  ) {
    this.url = inner.url;
    if (inner.createStore) this.createStore = () => this.trace('create store', '', () => (inner.createStore as () => Promise<string[]>).call(inner));
  }

  read(key: string): Promise<VfsObject | undefined> {
    return this.trace('read', key, () => this.inner.read(key));
  }

  write(key: string, data: Buffer | string, options?: VfsWriteOptions): Promise<string> {
    return this.trace('write', key, () => this.inner.write(key, data, options));
  }

  delete(key: string, options?: VfsDeleteOptions): Promise<void> {
    return this.trace('delete', key, () => this.inner.delete(key, options));
  }

  list(prefix: string): Promise<string[]> {
    return this.trace('list', prefix, () => this.inner.list(prefix));
  }

  private async trace<T>(op: string, key: string, fn: () => Promise<T>): Promise<T> {
    const { verbose, progress } = this.tracing;
    if (!verbose && !progress) return fn();
    const log = this.tracing.log ?? ((line: string) => process.stderr.write(`${line}\n`));
    const base = this.url.replace(/\/+$/, '');
    const target = op === 'list' ? `${base}/${key}*` : key === '' ? this.url : `${base}/${key}`;
    const start = Date.now();
    const slow = progress && !verbose ? setTimeout(() => log(`waiting for ${this.url}: ${op} ${target} ...`), this.tracing.slowMs ?? 1000) : undefined;
    slow?.unref();
    let outcome = 'ok';
    try {
      return await fn();
    } catch (e) {
      outcome = `failed: ${e instanceof Error ? e.message : String(e)}`;
      throw e;
    } finally {
      clearTimeout(slow);
      if (verbose) log(`store: ${op} ${target} ${Date.now() - start} ms ${outcome}`);
    }
  }
}
