import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { unifiedDiff } from '../../src/util/unified-diff';
import { tempDir } from '../helpers/cli';

/** `diff -u`'s hunks (its two header lines left out), the reference for unifiedDiff. */
function gnuDiff(a: string, b: string): string {
  const dir = tempDir('kforge-diff-');
  fs.writeFileSync(path.join(dir, 'a'), a);
  fs.writeFileSync(path.join(dir, 'b'), b);
  const out = spawnSync('diff', ['-u', path.join(dir, 'a'), path.join(dir, 'b')], { encoding: 'utf8' }).stdout;
  fs.rmSync(dir, { recursive: true, force: true });
  return out.split('\n').slice(2).join('\n');
}

const lines = (n: number, f: (i: number) => string = (i) => `line ${i}`) => Array.from({ length: n }, (_, i) => `${f(i)}\n`).join('');

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\nb\n', 'a\nb\n')).toBe('');
  });

  it.each([
    ['one changed line in the middle', lines(20), lines(20, (i) => (i === 10 ? 'changed' : `line ${i}`))],
    ['two changes far apart: two hunks', lines(40), lines(40, (i) => (i === 5 || i === 30 ? `new ${i}` : `line ${i}`))],
    ['two changes close together: one hunk', lines(40), lines(40, (i) => (i === 5 || i === 9 ? `new ${i}` : `line ${i}`))],
    ['lines added at the end', lines(5), lines(8)],
    ['lines removed at the start', lines(10), lines(10).split('\n').slice(4).join('\n')],
    ['lines inserted', lines(10), lines(10).replace('line 4\n', 'line 4\ninserted a\ninserted b\n')],
    ['from empty', '', lines(3)],
  ])('matches diff -u: %s', (_name, a, b) => {
    expect(unifiedDiff(a, b)).toBe(gnuDiff(a, b));
  });
});
