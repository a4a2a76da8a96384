import { DescribeVolumesCommand, EC2Client } from '@aws-sdk/client-ec2';
import * as http from 'node:http';
import type * as net from 'node:net';

/** The proxy's endpoint and what it did. */
export interface VolumeInUseProxy {
  endpoint: string;
  /** AttachVolume calls answered VolumeInUse, as `<volume> <instance>`. */
  readonly rejected: string[];
  /** AttachVolume calls forwarded to moto, as `<volume> <instance>`. */
  readonly forwarded: string[];
  /** Runs before an AttachVolume is decided: a test makes another machine win at that moment. */
  interfere?: (volume: string, instance: string) => Promise<void>;
  /**
   * How an attach of a volume another instance holds is answered: `VolumeInUse` (AWS), or `moto-says-yes`:
   * a success answer without attaching, what moto 5.2.1 answers, to prove the DescribeVolumes check.
   */
  inUseAnswer: 'VolumeInUse' | 'moto-says-yes';
  stop(): Promise<void>;
}

/**
 * A proxy in front of moto that gives AttachVolume real AWS's answer for a volume that is already
 * attached: HTTP 400 with EC2's `VolumeInUse` error (moto 5.2.1 attaches it again and says yes). AWS
 * decides attaches one at a time, so the proxy does too: each AttachVolume is checked against moto
 * (DescribeVolumes) and forwarded under one lock. `barrier` holds the AttachVolume calls of a volume until
 * that many have arrived, so that racers really race instead of one finishing before the other starts.
 */
export async function startVolumeInUseProxy(upstream: string, barrier = 1): Promise<VolumeInUseProxy> {
  const target = new URL(upstream);
  const ec2 = new EC2Client({ region: 'us-east-1', endpoint: upstream, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  const rejected: string[] = [];
  const forwarded: string[] = [];
  const sockets = new Set<net.Socket>();
  const waiting = new Map<string, Array<() => void>>();
  let lock: Promise<void> = Promise.resolve();

  const forward = (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => {
    const up = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers, agent: false }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 500, upRes.headers);
      upRes.pipe(res);
    });
    up.on('error', () => req.socket.destroy());
    up.end(body);
  };

  const arrive = (volume: string): Promise<void> =>
    new Promise((resolve) => {
      const list = waiting.get(volume) ?? [];
      list.push(resolve);
      waiting.set(volume, list);
      if (list.length >= barrier) for (const r of list.splice(0)) r();
      // Never hold a lone caller for ever: after 3 s it goes on alone.
      else setTimeout(resolve, 3_000).unref();
    });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const params = new URLSearchParams(body.toString());
      if (params.get('Action') !== 'AttachVolume') return forward(req, body, res);
      const volume = params.get('VolumeId') ?? '';
      const instance = params.get('InstanceId') ?? '';
      void arrive(volume).then(() => {
        lock = lock.then(async () => {
          try {
            await decide();
          } catch {
            req.socket.destroy();
          }
        });
        const decide = async () => {
          await proxy.interfere?.(volume, instance);
          const v = (await ec2.send(new DescribeVolumesCommand({ VolumeIds: [volume] }))).Volumes?.[0];
          const holder = (v?.Attachments ?? []).find((a) => a.State !== 'detached');
          if (holder && proxy.inUseAnswer === 'moto-says-yes') {
            res.writeHead(200, { 'content-type': 'text/xml' });
            res.end(
              `<?xml version="1.0" encoding="UTF-8"?>\n<AttachVolumeResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"><requestId>kforge-test</requestId><volumeId>${volume}</volumeId><instanceId>${instance}</instanceId><device>${params.get('Device') ?? ''}</device><status>attaching</status><attachTime>2026-01-01T00:00:00.000Z</attachTime></AttachVolumeResponse>`,
            );
            return;
          }
          if (holder) {
            rejected.push(`${volume} ${instance}`);
            res.writeHead(400, { 'content-type': 'text/xml' });
            res.end(
              `<?xml version="1.0" encoding="UTF-8"?>\n<Response><Errors><Error><Code>VolumeInUse</Code><Message>${volume} is already attached to an instance</Message></Error></Errors><RequestID>kforge-test</RequestID></Response>`,
            );
            return;
          }
          forwarded.push(`${volume} ${instance}`);
          // The next attach is decided only after moto has answered this one.
          await new Promise<void>((done) => {
            res.on('finish', done);
            forward(req, body, res);
          });
        };
      });
    });
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  const proxy: VolumeInUseProxy = {
    endpoint: `http://127.0.0.1:${port}`,
    rejected,
    forwarded,
    inUseAnswer: 'VolumeInUse',
    stop: () =>
      new Promise<void>((r) => {
        ec2.destroy();
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
  return proxy;
}
