import { MemoryVfs } from '../../src/state/vfs/memory-vfs';
import { TracedVfs } from '../../src/state/vfs/traced-vfs';
import type { Vfs } from '../../src/state/vfs/vfs';

/** A memory store whose reads of `slow/*` take `ms`. */
function slowStore(ms: number): Vfs {
  const inner = new MemoryVfs(`traced-${Math.random()}`);
  return {
    url: 'memfs://traced',
    read: async (k) => {
      if (k.startsWith('slow/')) await new Promise((r) => setTimeout(r, ms));
      return inner.read(k);
    },
    write: (k, d, o) => inner.write(k, d, o),
    delete: (k, o) => inner.delete(k, o),
    list: (p) => inner.list(p),
  };
}

describe('TracedVfs', () => {
  it('with --verbose logs every call with its duration and outcome', async () => {
    const lines: string[] = [];
    const vfs = new TracedVfs(slowStore(0), { verbose: true, progress: false, log: (l) => lines.push(l) });
    await vfs.write('c/config', 'x');
    await vfs.read('c/config');
    await vfs.list('c/');
    await vfs.delete('c/config');
    await expect(vfs.write('c/config', 'y', { ifVersion: 'nope' })).rejects.toThrow();
    expect(lines.slice(0, 4).map((l) => l.replace(/ \d+ ms /, ' N ms '))).toEqual([
      'store: write memfs://traced/c/config N ms ok',
      'store: read memfs://traced/c/config N ms ok',
      'store: list memfs://traced/c/* N ms ok',
      'store: delete memfs://traced/c/config N ms ok',
    ]);
    expect(lines[4]).toMatch(/^store: write memfs:\/\/traced\/c\/config \d+ ms failed: .* changed since you read it$/);
  });

  it('on a terminal says what a call slower than the threshold waits on, and stays quiet for fast ones', async () => {
    const lines: string[] = [];
    const vfs = new TracedVfs(slowStore(300), { verbose: false, progress: true, slowMs: 100, log: (l) => lines.push(l) });
    await vfs.read('fast/x');
    expect(lines).toEqual([]);
    await vfs.read('slow/x');
    expect(lines).toEqual(['waiting for memfs://traced: read memfs://traced/slow/x ...']);
  });
});
