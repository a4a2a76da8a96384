import type { CliResult } from '../helpers/cli';

/** A nodeup run's result with its `kforge-nodeup-stage: …` lines taken out of stderr, and those stages in order. */
export function splitStages(r: CliResult): CliResult & { stages: string[] } {
  const lines = r.stderr.split('\n');
  const stages = lines.filter((l) => l.startsWith('kforge-nodeup-stage: ')).map((l) => l.slice('kforge-nodeup-stage: '.length));
  return { ...r, stderr: lines.filter((l) => !l.startsWith('kforge-nodeup-stage: ')).join('\n'), stages };
}

/** Files a failed run may leave under the root: only the status file that records the failure. */
export const STATUS_FILE = 'var/lib/kforge/nodeup-status.json';
