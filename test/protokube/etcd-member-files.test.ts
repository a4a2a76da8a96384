import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { X509Certificate } from 'node:crypto';
import * as yaml from 'js-yaml';
import { Pod } from 'kubernetes-models/v1/Pod';
import { etcdCommand } from '../../src/flags/etcd-command';
import { etcdMemberFiles, EtcdMemberInput } from '../../src/protokube/etcd-member-files';
import { tempDir } from '../helpers/cli';
import { HaCluster, makeHaCluster } from './ha-cluster-fixture';

// The etcd member's files as protokube writes them: the manifest validates as a Pod and runs exactly
// etcdCommand's argv; the certificates chain to the cluster's etcd CAs (checked with openssl) and carry
// the member's stable name and address; a second render with the files on the node changes nothing.

let work: string;
let ha: HaCluster;

beforeAll(async () => {
  work = tempDir('kforge-protokube-files-');
  ha = await makeHaCluster(path.join(work, 'store'), 'files.example.com');
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function input(etcdName: string, member: string, extra: Partial<EtcdMemberInput> = {}): EtcdMemberInput {
  return {
    clusterName: ha.name,
    spec: ha.completed.spec,
    etcdName,
    memberName: member,
    internalIp: '10.0.1.5',
    mountPath: '/mnt/master-vol-0abc',
    clientsCa: ha.keyset('etcd-clients-ca'),
    peersCa: ha.keyset(`etcd-peers-ca-${etcdName}`),
    ...extra,
  };
}

function byPath(files: { path: string; content: string; mode: number }[]) {
  return new Map(files.map((f) => [f.path, f]));
}

it('writes one manifest per etcd cluster that validates as a Pod and runs exactly etcdCommand’s argv, data on the volume', async () => {
  for (const [etcd, member] of [['main', 'b'], ['events', 'c']]) {
    const files = byPath(await etcdMemberFiles(input(etcd, member)));
    const manifest = files.get(`/etc/kubernetes/manifests/etcd-${etcd}.manifest`);
    expect(manifest?.mode).toBe(0o644);
    const pod = yaml.load(manifest?.content ?? '') as Record<string, unknown>;
    expect(() => new Pod(pod).validate()).not.toThrow();
    const spec = (pod as unknown as { spec: { containers: { command: string[]; volumeMounts: { mountPath: string; name: string }[] }[]; volumes: { name: string; hostPath: { path: string } }[] } }).spec;
    expect(spec.containers[0].command).toEqual(etcdCommand(ha.completed.spec, ha.name, etcd, member).argv);
    // The data dir the argv names is the volume's mount on the host.
    const dataDir = spec.containers[0].command.find((a) => a.startsWith('--data-dir='))?.split('=')[1];
    const mount = spec.containers[0].volumeMounts.find((m) => m.mountPath === dataDir);
    expect(spec.volumes.find((v) => v.name === mount?.name)?.hostPath.path).toBe('/mnt/master-vol-0abc/data');
  }
});

it('issues server and peer certificates from the etcd CAs for the stable name and address, keys 0600', async () => {
  const files = byPath(await etcdMemberFiles(input('events', 'c')));
  const dir = '/etc/kubernetes/pki/etcd-manager-events';
  const host = 'etcd-events-c.internal.files.example.com';
  expect(files.get(`${dir}/server.key`)?.mode).toBe(0o600);
  expect(files.get(`${dir}/peer.key`)?.mode).toBe(0o600);
  const server = new X509Certificate(files.get(`${dir}/server.crt`)?.content ?? '');
  const peer = new X509Certificate(files.get(`${dir}/peer.crt`)?.content ?? '');
  expect(server.subjectAltName?.split(', ').sort()).toEqual([`DNS:${host}`, 'DNS:localhost', 'IP Address:10.0.1.5', 'IP Address:127.0.0.1'].sort());
  expect(peer.subjectAltName?.split(', ').sort()).toEqual([`DNS:${host}`, 'DNS:localhost', 'IP Address:10.0.1.5', 'IP Address:127.0.0.1'].sort());
  // openssl agrees: each chains to the CA file the manifest's flags name, and not to the other CA.
  const disk = tempDir('kforge-protokube-certs-');
  try {
    for (const [p, f] of files) fs.writeFileSync(path.join(disk, path.basename(p)), f.content);
    const verify = (ca: string, cert: string) => spawnSync('openssl', ['verify', '-CAfile', path.join(disk, ca), path.join(disk, cert)], { encoding: 'utf8' });
    expect(verify('etcd-clients-ca.crt', 'server.crt').status).toBe(0);
    expect(verify('etcd-peers-ca-events.crt', 'peer.crt').status).toBe(0);
    expect(verify('etcd-peers-ca-events.crt', 'server.crt').status).not.toBe(0);
    const key = spawnSync('openssl', ['pkey', '-in', path.join(disk, 'server.key'), '-pubout'], { encoding: 'utf8' }).stdout;
    expect(key).toBe(server.publicKey.export({ type: 'spki', format: 'pem' }).toString());
  } finally {
    fs.rmSync(disk, { recursive: true, force: true });
  }
});

it('keeps certificates already on the node for the same names, and reissues them when the address changes', async () => {
  const first = await etcdMemberFiles(input('main', 'a'));
  const existing = new Map(first.filter((f) => /\.(crt|key)$/.test(f.path)).map((f) => [f.path, f.content]));
  const again = await etcdMemberFiles(input('main', 'a', { existing }));
  expect(again).toEqual(first);
  const moved = byPath(await etcdMemberFiles(input('main', 'a', { existing, internalIp: '10.0.1.9' })));
  expect(moved.get('/etc/kubernetes/pki/etcd-manager-main/peer.crt')?.content).not.toBe(existing.get('/etc/kubernetes/pki/etcd-manager-main/peer.crt'));
  expect(new X509Certificate(moved.get('/etc/kubernetes/pki/etcd-manager-main/peer.crt')?.content ?? '').subjectAltName).toContain('IP Address:10.0.1.9');
});
