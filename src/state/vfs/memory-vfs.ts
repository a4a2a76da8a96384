import { ConflictError } from '../../errors/conflict-error';
import { contentVersion } from './content-version';
import { Vfs, VfsDeleteOptions, VfsObject, VfsWriteOptions } from './vfs';

const registries = new Map<string, Map<string, Buffer>>();

/** An in-memory store (`memfs://name`), shared by every MemoryVfs of the same name in one process; for tests. */
export class MemoryVfs implements Vfs {
  readonly url: string;
  private readonly objects: Map<string, Buffer>;

  constructor(name = 'default') {
    this.url = `memfs://${name}`;
    let objects = registries.get(name);
    if (!objects) {
      objects = new Map();
      registries.set(name, objects);
    }
    this.objects = objects;
  }

  async read(key: string): Promise<VfsObject | undefined> {
    const data = this.objects.get(key);
    return data ? { data: Buffer.from(data), version: contentVersion(data) } : undefined;
  }

  async write(key: string, data: Buffer | string, options: VfsWriteOptions = {}): Promise<string> {
    const existing = this.objects.get(key);
    if (options.ifNotExists && existing) throw new ConflictError(`${this.url}/${key} already exists`);
    if (options.ifVersion !== undefined && (!existing || contentVersion(existing) !== options.ifVersion)) {
      throw new ConflictError(`${this.url}/${key} changed since you read it`);
    }
    const buf = Buffer.from(data);
    this.objects.set(key, buf);
    return contentVersion(buf);
  }

  async delete(key: string, options: VfsDeleteOptions = {}): Promise<void> {
    const existing = this.objects.get(key);
    if (options.ifVersion !== undefined && existing && contentVersion(existing) !== options.ifVersion) throw new ConflictError(`${this.url}/${key} changed since you read it`);
    this.objects.delete(key);
  }

  async list(prefix: string): Promise<string[]> {
    return [...this.objects.keys()].filter((k) => k.startsWith(prefix)).sort();
  }
}
