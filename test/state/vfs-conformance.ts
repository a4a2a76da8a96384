import { ConflictError } from '../../src/errors/conflict-error';
import { StoreTransaction } from '../../src/state/store-transaction';
import type { Vfs } from '../../src/state/vfs/vfs';

/**
 * The behaviour every state store must have, registered as tests inside the caller's describe block.
 * `make` returns an empty store (a fresh directory, bucket or prefix) for each test.
 */
export function itBehavesLikeAStateStore(make: () => Vfs | Promise<Vfs>): void {
  it('reads what it wrote with the version the write returned, lists sorted keys, deletes', async () => {
    const v = await make();
    const version = await v.write('c/config', 'a');
    await v.write('c/instancegroup/b', 'b');
    await v.write('c/instancegroup/a', 'a');
    expect(await v.read('c/config')).toEqual({ data: Buffer.from('a'), version });
    expect(await v.list('c/instancegroup/')).toEqual(['c/instancegroup/a', 'c/instancegroup/b']);
    expect(await v.list('')).toEqual(['c/config', 'c/instancegroup/a', 'c/instancegroup/b']);
    await v.delete('c/instancegroup/a');
    expect(await v.read('c/instancegroup/a')).toBeUndefined();
    await v.delete('c/absent');
    expect(await v.list('c/')).toEqual(['c/config', 'c/instancegroup/b']);
  });

  it('create-only writes fail when the object exists and keep its content', async () => {
    const v = await make();
    await v.write('k', '1', { ifNotExists: true });
    const e = await v.write('k', '2', { ifNotExists: true }).then(() => undefined, (err: unknown) => err);
    expect(e).toBeInstanceOf(ConflictError);
    expect((e as Error).message).toMatch(/\/k already exists$/);
    expect((await v.read('k'))?.data.toString()).toBe('1');
  });

  it('compare-and-swap writes and deletes fail on a stale version and succeed on the current one', async () => {
    const v = await make();
    await v.write('k', '1');
    const stale = (await v.read('k'))?.version;
    const current = await v.write('k', '2', { ifVersion: stale });
    const e = await v.write('k', '3', { ifVersion: stale }).then(() => undefined, (err: unknown) => err);
    expect(e).toBeInstanceOf(ConflictError);
    expect((e as Error).message).toMatch(/\/k changed since you read it/);
    await expect(v.delete('k', { ifVersion: stale })).rejects.toBeInstanceOf(ConflictError);
    expect((await v.read('k'))?.data.toString()).toBe('2');
    await v.delete('k', { ifVersion: current });
    expect(await v.read('k')).toBeUndefined();
    await v.delete('k', { ifVersion: current });
  });

  it('a failing transaction restores every object it touched', async () => {
    const v = await make();
    await v.write('x/a', 'old-a');
    await v.write('x/taken', 'mine');
    const tx = new StoreTransaction(v).put('x/a', 'new-a').put('x/b', 'new-b').remove('x/a').put('x/c', 'new-c', { ifNotExists: true }).put('x/taken', 'theirs', { ifNotExists: true });
    await expect(tx.commit()).rejects.toBeInstanceOf(ConflictError);
    expect((await v.read('x/a'))?.data.toString()).toBe('old-a');
    expect(await v.read('x/b')).toBeUndefined();
    expect(await v.read('x/c')).toBeUndefined();
    expect((await v.read('x/taken'))?.data.toString()).toBe('mine');
    expect(await v.list('x/')).toEqual(['x/a', 'x/taken']);
  });
}
