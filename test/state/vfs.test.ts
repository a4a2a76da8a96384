import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConflictError } from '../../src/errors/conflict-error';
import { FileVfs } from '../../src/state/vfs/file-vfs';
import { MemoryVfs } from '../../src/state/vfs/memory-vfs';
import { openVfs } from '../../src/state/vfs/open-vfs';
import { StoreTransaction } from '../../src/state/store-transaction';
import type { Vfs } from '../../src/state/vfs/vfs';
import { tempDir, treeDigest } from '../helpers/cli';

const stores: Array<[string, () => Vfs]> = [
  ['file', () => new FileVfs(tempDir())],
  ['memory', () => new MemoryVfs(`t-${Math.random()}`)],
];

describe.each(stores)('%s store', (_name, make) => {
  it('reads what it wrote, lists sorted keys, deletes', async () => {
    const v = make();
    await v.write('c/config', 'a');
    await v.write('c/instancegroup/b', 'b');
    await v.write('c/instancegroup/a', 'a');
    expect((await v.read('c/config'))?.data.toString()).toBe('a');
    expect(await v.list('c/instancegroup/')).toEqual(['c/instancegroup/a', 'c/instancegroup/b']);
    await v.delete('c/instancegroup/a');
    expect(await v.read('c/instancegroup/a')).toBeUndefined();
    await v.delete('c/absent');
  });

  it('create-only writes fail when the object exists', async () => {
    const v = make();
    await v.write('k', '1', { ifNotExists: true });
    await expect(v.write('k', '2', { ifNotExists: true })).rejects.toBeInstanceOf(ConflictError);
    expect((await v.read('k'))?.data.toString()).toBe('1');
  });

  it('compare-and-swap writes fail on a stale version', async () => {
    const v = make();
    await v.write('k', '1');
    const read = await v.read('k');
    await v.write('k', '2', { ifVersion: read?.version });
    await expect(v.write('k', '3', { ifVersion: read?.version })).rejects.toBeInstanceOf(ConflictError);
    expect((await v.read('k'))?.data.toString()).toBe('2');
  });

  it('a failing transaction restores every object it touched', async () => {
    const v = make();
    await v.write('x/a', 'old-a');
    await v.write('x/taken', 'mine');
    const tx = new StoreTransaction(v).put('x/a', 'new-a').put('x/b', 'new-b').remove('x/a').put('x/taken', 'theirs', { ifNotExists: true });
    await expect(tx.commit()).rejects.toBeInstanceOf(ConflictError);
    expect((await v.read('x/a'))?.data.toString()).toBe('old-a');
    expect(await v.read('x/b')).toBeUndefined();
    expect((await v.read('x/taken'))?.data.toString()).toBe('mine');
  });
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
