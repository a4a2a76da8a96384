import { spawn } from 'node:child_process';
import * as path from 'node:path';

/** A `kforge kops-controller` process of a test, listening on a loopback port the OS picked. */
export interface KopsControllerProcess {
  port: number;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Ends it (SIGTERM). */
  stop(): void;
}

/**
 * Starts `kforge kops-controller --conf <boot> --listen 127.0.0.1:0 <extra>` from the built CLI and resolves
 * once it says which port it listens on; rejects with what it printed if it exits or is silent for 60 s.
 */
export async function startKopsController(boot: string, extra: string[], env: NodeJS.ProcessEnv): Promise<KopsControllerProcess> {
  const child = spawn(process.execPath, [path.join(__dirname, '../../bin/run.js'), 'kops-controller', '--conf', boot, '--listen', '127.0.0.1:0', ...extra], { env: { ...process.env, ...env } });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const listening = /listening on 127\.0\.0\.1:(\d+)/;
  const deadline = Date.now() + 60_000;
  while (!listening.test(out) && child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const m = listening.exec(out);
  if (!m) {
    child.kill('SIGTERM');
    throw new Error(`kops-controller did not start: ${out}`);
  }
  return { port: Number(m[1]), output: () => out, stop: () => void child.kill('SIGTERM') };
}
