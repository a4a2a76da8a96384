import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHash } from 'node:crypto';

/** Root of the repository. */
export const ROOT = path.join(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'run.js');

/** What a CLI run printed and how it exited. */
export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** A fresh temporary directory, removed by the caller via cleanup(). */
export function tempDir(prefix = 'kforge-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Runs the built CLI as a child process, as users run it, without the caller's KFORGE_* settings. */
export function runCli(args: string[], opts: { env?: NodeJS.ProcessEnv; input?: string; cwd?: string } = {}): CliResult {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', KFORGE_STATE_STORE: undefined, KFORGE_CLUSTER_NAME: undefined, KOPS_STATE_STORE: undefined, KOPS_CLUSTER_NAME: undefined, ...opts.env };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  const r = spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8', input: opts.input ?? '', cwd: opts.cwd ?? ROOT });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** A CLI process started without waiting: its pid (what a lock lease records), whether it ended, and its result. */
export interface StartedCli {
  pid: number;
  finished: () => boolean;
  done: Promise<CliResult>;
}

/** Starts the built CLI as a child process and returns at once. */
export function startCli(args: string[], env: NodeJS.ProcessEnv = {}): StartedCli {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1', ...env }, cwd: ROOT });
  let stdout = '';
  let stderr = '';
  let finished = false;
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliResult>((resolve) =>
    child.on('close', (code) => {
      finished = true;
      resolve({ status: code ?? -1, stdout, stderr });
    }),
  );
  return { pid: child.pid ?? -1, finished: () => finished, done };
}

/** Like runCli, but asynchronous, so several runs can race. */
export function runCliAsync(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return startCli(args, env).done;
}

/** A digest of every file (path, mode, content) below `dir`, to prove a failed command changed nothing. */
export function treeDigest(dir: string): string {
  const h = createHash('sha256');
  const walk = (d: string) => {
    if (!fs.existsSync(d)) return;
    for (const name of fs.readdirSync(d).sort()) {
      const full = path.join(d, name);
      const st = fs.statSync(full);
      h.update(`${path.relative(dir, full)}\0${st.mode}\0`);
      if (st.isDirectory()) walk(full);
      else h.update(fs.readFileSync(full));
    }
  };
  walk(dir);
  return h.digest('hex');
}

/** Every file below `dir`, relative and sorted. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const ent of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, ent.name);
      if (ent.isDirectory()) walk(full);
      else out.push(path.relative(dir, full));
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out.sort();
}

/** A user-facing failure: exit 1, "Error: ..." first, no stack frames, not an unclassified error. */
export function expectCleanFailure(r: CliResult): void {
  expect(r.status).toBe(1);
  expect(r.stderr).toMatch(/^Error: \S/);
  expect(r.stderr).not.toContain('    at ');
  expect(r.stderr).not.toContain('--verbose');
}
