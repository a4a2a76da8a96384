import { spawn } from 'node:child_process';
import * as net from 'node:net';

/** A loopback TCP port that answers no new connection: how a security group that drops packets looks to a client. */
export interface BlackHole {
  port: number;
  stop(): Promise<void>;
}

// A Python listener that never accepts, with a backlog of 0: once one connection fills the queue, the
// kernel drops further SYNs, so connects time out (Node's own servers always accept, so cannot do this).
const SCRIPT = "import socket,sys,time\ns=socket.socket();s.bind(('127.0.0.1',0));s.listen(0)\nprint(s.getsockname()[1],flush=True)\nsys.stdin.read()\n";

/** Starts a black-hole listener (needs python3, which moto_server already needs). */
export async function startBlackHole(): Promise<BlackHole> {
  const child = spawn('python3', ['-c', SCRIPT], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
    child.once('error', reject);
  });
  // The filler: the one connection the queue holds.
  const filler = net.connect({ host: '127.0.0.1', port });
  await new Promise<void>((resolve) => filler.once('connect', () => resolve()));
  return {
    port,
    stop: async () => {
      filler.destroy();
      child.stdin.end();
      await new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
    },
  };
}
