import * as http from 'node:http';
import type * as net from 'node:net';

/** A proxy to moto that lets the first request whose body contains `marker` through, then drops its answer. */
export async function losingProxy(upstream: string, marker: string): Promise<{ endpoint: string; lost: number; stop(): Promise<void> }> {
  const target = new URL(upstream);
  const sockets = new Set<net.Socket>();
  const state = { lost: 0, claimed: false };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      // Claimed when the request arrives, so that of two concurrent matching requests only the first is lost.
      const lose = !state.claimed && body.toString().includes(marker);
      if (lose) state.claimed = true;
      const up = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers, agent: false }, (upRes) => {
        if (lose) {
          state.lost++;
          upRes.resume();
          upRes.on('end', () => req.socket.destroy());
          return;
        }
        res.writeHead(upRes.statusCode ?? 500, upRes.headers);
        upRes.pipe(res);
      });
      up.on('error', () => req.socket.destroy());
      up.end(body);
    });
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    get lost() {
      return state.lost;
    },
    stop: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
