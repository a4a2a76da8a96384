import * as fs from 'node:fs';
import * as path from 'node:path';
import { FileVfs } from '../../src/state/vfs/file-vfs';
import { MemoryVfs } from '../../src/state/vfs/memory-vfs';
import { openVfs } from '../../src/state/vfs/open-vfs';
import { StoreTransaction } from '../../src/state/store-transaction';
import type { Vfs } from '../../src/state/vfs/vfs';
import { itBehavesLikeAStateStore } from './vfs-conformance';
import { tempDir, treeDigest } from '../helpers/cli';

const stores: Array<[string, () => Vfs]> = [
  ['file', () => new FileVfs(tempDir())],
  ['memory', () => new MemoryVfs(`t-${Math.random()}`)],
];

describe.each(stores)('%s store', (_name, make) => {
  itBehavesLikeAStateStore(make);
});

describe('file store', () => {
  it('writes secrets 0600 in 0700 directories and leaves no temp files', async () => {
    const dir = tempDir();
    const v = new FileVfs(dir);
    await v.write('c/pki/private/ca/keyset.yaml', 'secret', { secret: true });
    const st = fs.statSync(path.join(dir, 'c/pki/private/ca/keyset.yaml'));
    expect(st.mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(dir, 'c/pki/private/ca')).mode & 0o777).toBe(0o700);
    expect(fs.readdirSync(path.join(dir, 'c/pki/private/ca'))).toEqual(['keyset.yaml']);
  });

  it('a failed transaction leaves the directory byte-for-byte unchanged', async () => {
    const dir = tempDir();
    const v = new FileVfs(dir);
    await v.write('c/config', 'cfg');
    const before = treeDigest(dir);
    await expect(new StoreTransaction(v).put('c/new/deep/file', 'x').put('c/config', 'y', { ifNotExists: true }).commit()).rejects.toThrow();
    expect(treeDigest(dir)).toBe(before);
  });

  it('refuses keys that escape the store', async () => {
    const v = new FileVfs(tempDir());
    await expect(v.write('../escape', 'x')).rejects.toThrow(/escapes the state store/);
  });

  it('opens plain paths and file:// URLs, and refuses unknown schemes', () => {
    const dir = tempDir();
    expect(openVfs(dir).url).toBe(`file://${dir}`);
    expect(openVfs(`file://${dir}`).url).toBe(`file://${dir}`);
    expect(() => openVfs('ftp://x/y')).toThrow(/unsupported state store scheme "ftp:\/\/"/);
  });
});
