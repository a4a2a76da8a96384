import * as http from 'node:http';
import type * as net from 'node:net';

/**
 * What the proxy does to one request:
 * - `lose-response`: forwards it, lets the server apply it, then closes the client's connection
 *   without an answer (the case that turns a successful conditional write into a 412 on retry);
 * - `drop-before`: closes the connection without forwarding;
 * - `unavailable`: answers 503 (S3's `ServiceUnavailable`) without forwarding;
 * - `slow-down`: answers 503 as S3 does when it throttles (`SlowDown`, S3's XML; a HEAD gets no body, as from S3);
 * - `invalid-parameter`: answers without forwarding as EC2 does to a request it refuses (`InvalidParameterValue`,
 *   HTTP 400, EC2's XML): a hard error, not retried;
 * - `delay`: forwards it after `delayMs`;
 * - `throttle`: answers without forwarding as AWS does when it throttles: EC2's `RequestLimitExceeded`
 *   (HTTP 503, EC2's XML) for EC2 requests, `Throttling` (HTTP 400, the query protocol's XML) for the others.
 */
export type Fault = 'lose-response' | 'drop-before' | 'unavailable' | 'slow-down' | 'invalid-parameter' | 'delay' | 'throttle';

/** A request as the fault rule sees it. */
export interface ProxiedRequest {
  method: string;
  /** Path and query, e.g. `/bucket/prefix/c/config?x-id=PutObject`. */
  url: string;
  /** 1-based count of the requests with this method seen since the last `setRule`. */
  nthOfMethod: number;
  headers: http.IncomingHttpHeaders;
  /** The request body (an AWS query-protocol call's `Action=…&Version=…`). */
  body: string;
}

/** Decides the fault for a request; undefined forwards it untouched. */
export type FaultRule = (req: ProxiedRequest) => Fault | undefined;

/** A fault-injecting HTTP proxy in front of one upstream server (moto), on a free loopback port. */
export interface FaultProxy {
  /** Base URL clients use instead of the upstream's. */
  endpoint: string;
  /** Replaces the rule and restarts the per-method counters; undefined: no faults. */
  setRule(rule: FaultRule | undefined): void;
  /** Faults applied since the last `setRule`, e.g. `PUT /b/k lose-response`. */
  readonly applied: string[];
  stop(): Promise<void>;
}

/** Starts a fault proxy forwarding to `upstream` (e.g. `http://127.0.0.1:40123`). */
export async function startFaultProxy(upstream: string, delayMs = 300): Promise<FaultProxy> {
  const target = new URL(upstream);
  let rule: FaultRule | undefined;
  let counts = new Map<string, number>();
  const applied: string[] = [];
  const sockets = new Set<net.Socket>();
  const agent = new http.Agent({ keepAlive: false });

  const forward = (req: http.IncomingMessage, body: Buffer): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const out = http.request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        },
      );
      out.on('error', reject);
      out.end(body);
    });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const method = req.method ?? 'GET';
        const n = (counts.get(method) ?? 0) + 1;
        counts.set(method, n);
        const body = Buffer.concat(chunks).toString('utf8');
        const fault = rule?.({ method, url: req.url ?? '/', nthOfMethod: n, headers: req.headers, body });
        if (fault) applied.push(`${method} ${req.url ?? ''} ${fault}`);
        if (fault === 'drop-before') {
          req.socket.destroy();
          return;
        }
        if (fault === 'unavailable') {
          res.writeHead(503, { 'content-type': 'application/xml' });
          res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>ServiceUnavailable</Code><Message>Please reduce your request rate.</Message></Error>');
          return;
        }
        if (fault === 'slow-down') {
          res.writeHead(503, { 'content-type': 'application/xml' });
          res.end(method === 'HEAD' ? undefined : '<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message><RequestId>fault-proxy</RequestId></Error>');
          return;
        }
        if (fault === 'invalid-parameter') {
          res.writeHead(400, { 'content-type': 'text/xml' });
          res.end(
            '<?xml version="1.0" encoding="UTF-8"?><Response><Errors><Error><Code>InvalidParameterValue</Code><Message>Value is not valid (fault proxy).</Message></Error></Errors><RequestID>fault-proxy</RequestID></Response>',
          );
          return;
        }
        if (fault === 'throttle') {
          // EC2's API version; every other query-protocol service (IAM, STS, Auto Scaling, ELBv2) uses ErrorResponse.
          const ec2 = body.includes('Version=2016-11-15');
          res.writeHead(ec2 ? 503 : 400, { 'content-type': 'text/xml' });
          res.end(
            ec2
              ? '<?xml version="1.0" encoding="UTF-8"?><Response><Errors><Error><Code>RequestLimitExceeded</Code><Message>Request limit exceeded.</Message></Error></Errors><RequestID>fault-proxy</RequestID></Response>'
              : '<ErrorResponse><Error><Type>Sender</Type><Code>Throttling</Code><Message>Rate exceeded</Message></Error><RequestId>fault-proxy</RequestId></ErrorResponse>',
          );
          return;
        }
        if (fault === 'delay') await new Promise((r) => setTimeout(r, delayMs));
        let answer;
        try {
          answer = await forward(req, Buffer.concat(chunks));
        } catch {
          req.socket.destroy();
          return;
        }
        if (fault === 'lose-response') {
          // Applied upstream; the client never learns it.
          req.socket.destroy();
          return;
        }
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body);
      })();
    });
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    setRule(r) {
      rule = r;
      counts = new Map();
      applied.length = 0;
    },
    applied,
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
