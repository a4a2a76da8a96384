import * as fs from 'node:fs';
import * as http from 'node:http';
import type * as net from 'node:net';
import * as path from 'node:path';
import { resolveNodeIdentity } from '../../src/protokube/node-identity';
import { withHostsBlock, writeHostsFile } from '../../src/protokube/publish-names';
import { tempDir } from '../helpers/cli';

// The hosts-file block keeps the rest of the file; the identity comes from flags, or from EC2 instance
// metadata (IMDSv2) for what is missing. No IMDS exists off EC2, so a small local server plays it here,
// answering only with a session token, as IMDSv2 does.

it('replaces only its own block in a hosts file, sorted, and leaves the rest as it was', () => {
  const base = '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost\n';
  const once = withHostsBlock(base, [
    { name: 'etcd-b.internal.c', addresses: ['10.0.2.5'] },
    { name: 'api.internal.c', addresses: ['10.0.1.5', '10.0.2.5'] },
  ]);
  expect(once).toBe(
    [
      '127.0.0.1\tlocalhost',
      '::1\tlocalhost ip6-localhost',
      '# Begin host entries managed by kforge protokube',
      '10.0.1.5\tapi.internal.c',
      '10.0.2.5\tapi.internal.c',
      '10.0.2.5\tetcd-b.internal.c',
      '# End host entries managed by kforge protokube',
      '',
    ].join('\n'),
  );
  const twice = withHostsBlock(`${once}10.9.9.9\tadded.later\n`, [{ name: 'etcd-b.internal.c', addresses: ['10.0.2.6'] }]);
  // Replaced in place: the line someone added after the block stays where it was.
  expect(twice).toMatch(/^127\.0\.0\.1\tlocalhost\n::1\tlocalhost ip6-localhost\n# Begin [^\n]*\n10\.0\.2\.6\tetcd-b\.internal\.c\n# End [^\n]*\n10\.9\.9\.9\tadded\.later\n$/);
  expect(twice).not.toContain('10.0.2.5');
  const root = tempDir('kforge-protokube-hosts-');
  try {
    expect(writeHostsFile(root, [{ name: 'a', addresses: ['10.0.0.1'] }])).toBe(true);
    expect(writeHostsFile(root, [{ name: 'a', addresses: ['10.0.0.1'] }])).toBe(false);
    expect(fs.readFileSync(path.join(root, 'etc', 'hosts'), 'utf8')).toContain('10.0.0.1\ta\n');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

it('asks instance metadata (IMDSv2, with a session token) only for what the flags leave out', async () => {
  const TOKEN = 'session-token-1';
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (req.method === 'PUT' && req.url === '/latest/api/token' && req.headers['x-aws-ec2-metadata-token-ttl-seconds']) return res.end(TOKEN);
    if (req.headers['x-aws-ec2-metadata-token'] !== TOKEN) return res.writeHead(401).end();
    const values: Record<string, string> = { '/latest/meta-data/instance-id': 'i-0abc', '/latest/meta-data/placement/availability-zone': 'eu-west-1b', '/latest/meta-data/local-ipv4': '10.1.2.3' };
    if (values[req.url ?? '']) return res.end(values[req.url ?? '']);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const env = { AWS_EC2_METADATA_SERVICE_ENDPOINT: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}` };
  try {
    expect(await resolveNodeIdentity({ internalIp: '127.0.1.11' }, env)).toEqual({ instanceId: 'i-0abc', zone: 'eu-west-1b', internalIp: '127.0.1.11' });
    expect(seen).toEqual(['PUT /latest/api/token', 'GET /latest/meta-data/instance-id', 'GET /latest/meta-data/placement/availability-zone']);
    seen.length = 0;
    expect(await resolveNodeIdentity({ instanceId: 'i-1', zone: 'us-east-1a', internalIp: '10.0.0.1' }, env)).toEqual({ instanceId: 'i-1', zone: 'us-east-1a', internalIp: '10.0.0.1' });
    expect(seen).toEqual([]);
  } finally {
    await new Promise((r) => server.close(r));
  }
  // Off EC2 and without flags: a clear error that says which flags to pass.
  await expect(resolveNodeIdentity({}, { AWS_EC2_METADATA_SERVICE_ENDPOINT: 'http://127.0.0.1:9' })).rejects.toThrow(/pass --instance-id, --zone and --internal-ip/);
});
