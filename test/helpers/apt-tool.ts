import { spawnSync } from 'node:child_process';

let updated = false;

/** The path of `command`, installing Debian package `pkg` when it is missing (apt-get update once first); throws a clear error when that is impossible. */
export function ensureAptTool(command: string, pkg: string): string {
  const which = () => spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).stdout.trim();
  const found = which();
  if (found) return found;
  const log: string[] = [];
  if (!updated) {
    const u = spawnSync('apt-get', ['update'], { encoding: 'utf8' });
    log.push(`apt-get update: status ${u.status}\n${(u.stderr ?? '').slice(-1000)}`);
    updated = u.status === 0;
  }
  const i = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', pkg], { encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  log.push(`apt-get install ${pkg}: status ${i.status}\n${(i.stderr ?? '').slice(-2000)}`);
  const after = which();
  if (!after) throw new Error(`${command} is not installed and apt-get could not install package ${pkg}:\n${log.join('\n')}`);
  return after;
}
