import { ChildProcess, spawn, SpawnOptions } from 'node:child_process';

let running = 0;

/** Signals that end kforge's wait for a foreground child: passed on to the child, which then ends too. */
const FORWARDED_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** The outcome of a foreground child process. */
export interface ForegroundResult {
  status: number | null;
  /** The signal kforge received (and passed on) while the child ran, or the one that ended the child. */
  signal?: NodeJS.Signals;
  error?: Error;
}

/**
 * Runs a child (the user's editor) attached to the terminal without blocking the event loop, so that
 * timers such as the lock's lease renewal keep running while the user edits. A SIGINT, SIGTERM or SIGHUP
 * sent to kforge is passed on to the child (a Ctrl-C at the terminal reaches both, and an editor such
 * as vi ignores it), and a child still running when kforge exits is killed, so no editor outlives kforge.
 */
export function runInForeground(command: string, args: string[], options: SpawnOptions): Promise<ForegroundResult> {
  running++;
  let child: ChildProcess | undefined;
  let received: NodeJS.Signals | undefined;
  const forward = (signal: NodeJS.Signals) => {
    received = signal;
    child?.kill(signal);
  };
  // process.exit (e.g. from the lock's signal handler) does not wait for the child: end it synchronously.
  const onExit = () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  for (const s of FORWARDED_SIGNALS) process.on(s, forward);
  process.on('exit', onExit);
  return new Promise<ForegroundResult>((resolve) => {
    child = spawn(command, args, { ...options, stdio: 'inherit' });
    child.once('error', (error) => resolve({ status: null, error }));
    child.once('close', (status, signal) => resolve({ status, signal: received ?? signal ?? undefined }));
  }).finally(() => {
    for (const s of FORWARDED_SIGNALS) process.removeListener(s, forward);
    process.removeListener('exit', onExit);
    running--;
  });
}

/** True while a foreground child runs: Ctrl-C then belongs to it (vi uses it), not to kforge. */
export function hasForegroundChild(): boolean {
  return running > 0;
}
