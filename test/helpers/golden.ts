import * as fs from 'node:fs';
import * as path from 'node:path';

/** Directory of golden files. */
export const GOLDEN_DIR = path.join(__dirname, '..', 'golden');

/**
 * Compares `actual` with the golden file `name` (relative to test/golden). With UPDATE_GOLDEN=1 the
 * file is rewritten instead; review the resulting git diff like code.
 */
export function expectGolden(name: string, actual: string): void {
  const file = path.join(GOLDEN_DIR, name);
  if (process.env.UPDATE_GOLDEN === '1') {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, actual);
    return;
  }
  if (!fs.existsSync(file)) throw new Error(`golden file ${name} is missing; run UPDATE_GOLDEN=1 npx jest to create it, then review it`);
  expect(actual).toBe(fs.readFileSync(file, 'utf8'));
}
