import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';

/** Unmounts everything mounted below `dir` (deepest first; lazily, so a busy mount cannot block cleanup). */
export function releaseMounts(dir: string): void {
  const base = fs.realpathSync(dir);
  const points = fs
    .readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((l) => (l.split(' ')[4] ?? '').replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8))))
    .filter((p) => p.startsWith(`${base}/`))
    .sort((a, b) => b.length - a.length);
  for (const p of points) spawnSync('umount', ['-l', p]);
}
