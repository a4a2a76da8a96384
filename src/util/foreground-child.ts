import { spawn, SpawnOptions } from 'node:child_process';

let running = 0;

/** The outcome of a foreground child process. */
export interface ForegroundResult {
  status: number | null;
  error?: Error;
}

/**
 * Runs a child (the user's editor) attached to the terminal without blocking the event loop, so that
 * timers such as the lock's lease renewal keep running while the user edits.
 */
export function runInForeground(command: string, args: string[], options: SpawnOptions): Promise<ForegroundResult> {
  running++;
  return new Promise<ForegroundResult>((resolve) => {
    const child = spawn(command, args, { ...options, stdio: 'inherit' });
    child.once('error', (error) => resolve({ status: null, error }));
    child.once('close', (status) => resolve({ status }));
  }).finally(() => {
    running--;
  });
}

/** True while a foreground child runs: Ctrl-C then belongs to it (vi uses it), not to kforge. */
export function hasForegroundChild(): boolean {
  return running > 0;
}
