import * as fs from 'node:fs';
import * as path from 'node:path';

let cached: string | undefined;

/** The directory holding kforge's package.json, found from this file's location (works built or bundled). */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = __dirname;
  for (;;) {
    const candidate = path.join(dir, 'package.json');
    if (fs.existsSync(candidate) && fs.existsSync(path.join(dir, 'schemas'))) return (cached = dir);
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the kforge package root above ${__dirname}`);
    dir = parent;
  }
}
