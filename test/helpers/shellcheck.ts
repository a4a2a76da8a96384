import { spawnSync } from 'node:child_process';

/** shellcheck's path, installed with apt when missing (the test harness's rule for apt tools). */
export function shellcheck(): string {
  const found = spawnSync('sh', ['-c', 'command -v shellcheck'], { encoding: 'utf8' }).stdout.trim();
  if (found) return found;
  const install = spawnSync('sh', ['-c', 'apt-get install -y --no-install-recommends shellcheck || (apt-get update && apt-get install -y --no-install-recommends shellcheck)'], { encoding: 'utf8' });
  const after = spawnSync('sh', ['-c', 'command -v shellcheck'], { encoding: 'utf8' }).stdout.trim();
  if (!after) throw new Error(`shellcheck is not installed and apt-get could not install it (status ${install.status}):\n${install.stderr.slice(-2000)}`);
  return after;
}
