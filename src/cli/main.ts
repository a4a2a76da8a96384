import { KforgeError } from '../errors/kforge-error';
import { oclifOptions } from './oclif-options';

/** Entry point used by bin/run.js: runs the oclif command and turns every error into a short message. */
export async function main(argv: string[]): Promise<void> {
  const verbose = argv.includes('--verbose');
  try {
    const { checkCommandWords } = await import('./command-words');
    const { COMMANDS } = await import('../commands/index');
    const args = checkCommandWords(argv, COMMANDS);
    const oclif = await import('@oclif/core');
    await oclif.run(args, await oclifOptions());
    await oclif.flush();
  } catch (e) {
    process.exitCode = reportError(e, verbose);
  }
}

/** Prints an error the way users should see it and returns the exit code to use. */
export function reportError(e: unknown, verbose: boolean): number {
  const err = e as { oclif?: { exit?: number }; code?: unknown; message?: string; stack?: string };
  if (e instanceof KforgeError) {
    process.stderr.write(`Error: ${e.message}\n`);
    if (verbose) for (const line of e.details) process.stderr.write(`${line}\n`);
    if (verbose && e.stack) process.stderr.write(`${e.stack}\n`);
    return e.exitCode;
  }
  // oclif signals a normal this.exit(n) with an ExitError; its message is not for users.
  if (err?.code === 'EEXIT' && typeof err.oclif?.exit === 'number') return err.oclif.exit;
  if (err?.oclif) {
    // oclif's own errors (unknown flag, missing argument) are usage errors: short message, exit 1.
    process.stderr.write(`Error: ${stripHelpHint(err.message ?? String(e))}\nSee more help with --help\n`);
    if (verbose && err.stack) process.stderr.write(`${err.stack}\n`);
    return 1;
  }
  process.stderr.write(`Error: ${err?.message ?? String(e)}\n`);
  if (verbose && err?.stack) process.stderr.write(`${err.stack}\n`);
  else process.stderr.write('(run with --verbose for details)\n');
  return 1;
}

function stripHelpHint(message: string): string {
  return message.replace(/\n?\s*See more help with --help\s*$/, '');
}
