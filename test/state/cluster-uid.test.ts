import { ensureClusterUid, readClusterUid } from '../../src/state/cluster-uid';
import { MemoryVfs } from '../../src/state/vfs/memory-vfs';

// The cluster UID's store rules, on the in-memory store (the same Vfs contract as S3, GCS and files).

describe('the cluster UID', () => {
  it('is absent before the first ensure, made once, then kept', async () => {
    const vfs = new MemoryVfs(`uid-${Math.random()}`);
    expect(await readClusterUid(vfs, 'c.example.com')).toBeUndefined();
    const uid = await ensureClusterUid(vfs, 'c.example.com');
    expect(uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await ensureClusterUid(vfs, 'c.example.com')).toBe(uid);
    expect(await readClusterUid(vfs, 'c.example.com')).toBe(uid);
    expect((await vfs.read('c.example.com/cluster-uid'))?.data.toString()).toBe(`${uid}\n`);
    expect(await ensureClusterUid(vfs, 'other.example.com')).not.toBe(uid);
  });

  it('is the same for two first updates that race: the create-only write decides', async () => {
    const vfs = new MemoryVfs(`uid-${Math.random()}`);
    const uids = await Promise.all([1, 2, 3, 4].map(() => ensureClusterUid(vfs, 'c.example.com')));
    expect(new Set(uids).size).toBe(1);
    expect(await readClusterUid(vfs, 'c.example.com')).toBe(uids[0]);
  });

  it('refuses a file that is not one UUID, naming it (STATE_STORE), and does not replace it', async () => {
    const vfs = new MemoryVfs(`uid-${Math.random()}`);
    await vfs.write('c.example.com/cluster-uid', 'edited by hand\n');
    const e = await ensureClusterUid(vfs, 'c.example.com').catch((x: unknown) => x);
    expect((e as { code?: string }).code).toBe('STATE_STORE');
    expect((e as Error).message).toContain('c.example.com/cluster-uid');
    expect((await vfs.read('c.example.com/cluster-uid'))?.data.toString()).toBe('edited by hand\n');
  });
});
