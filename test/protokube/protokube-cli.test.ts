import * as fs from 'node:fs';
import * as path from 'node:path';
import { expectCleanFailure, runCli, tempDir } from '../helpers/cli';
import { ensureMounted, filesystemType } from '../../src/protokube/volume-mount';
import { makeHaCluster } from './ha-cluster-fixture';
import { releaseMounts } from './release-mounts';

// `kforge protokube` as users meet it: its help, and bad inputs that fail with one clear line, exit 1,
// no stack trace, before any cloud call. And the format/mount layer on real image files: blkid decides,
// mkfs.ext4 formats only a blank device, mount mounts it, and data on a volume is never formatted away.

let work: string;
beforeAll(() => (work = tempDir('kforge-protokube-cli-')));
afterAll(() => {
  releaseMounts(work);
  fs.rmSync(work, { recursive: true, force: true });
});

it('--help names every flag', () => {
  const r = runCli(['protokube', '--help']);
  expect(r.status).toBe(0);
  for (const flag of ['--conf', '--root', '--once', '--interval', '--instance-id', '--zone', '--internal-ip', '--device-dir', '--dns']) expect(r.stdout).toContain(flag);
});

function conf(name: string, text: string): string {
  const file = path.join(work, name);
  fs.writeFileSync(file, text);
  return file;
}

const BOOT = ['CloudProvider: aws', 'ClusterName: c.example.com', 'ConfigBase: /nonexistent/c.example.com', 'InstanceGroupName: control-plane-us-east-1a', 'NodeupConfigHash: 00'];
const IDENTITY = ['--instance-id', 'i-0123', '--zone', 'us-east-1a', '--internal-ip', '10.0.0.5', '--once'];

it.each([
  { name: 'a missing --conf file', args: ['--conf', '/nonexistent/kube_env.yaml', ...IDENTITY], expect: '--conf /nonexistent/kube_env.yaml: cannot read it (ENOENT)' },
  { name: 'a --conf that is not a boot config', args: ['--conf', 'notboot.yaml', ...IDENTITY], file: 'hello: world\n', expect: 'not a boot config' },
  {
    name: 'a node group’s boot config',
    args: ['--conf', 'node.yaml', ...IDENTITY],
    file: [...BOOT, 'InstanceGroupRole: Node', ''].join('\n'),
    expect: 'InstanceGroupRole is Node; protokube runs on control-plane machines only',
  },
  { name: 'a bad --internal-ip', args: ['--conf', 'x.yaml', '--internal-ip', '10.0.0.300', '--once'], expect: '--internal-ip: "10.0.0.300" is not an IP address' },
  { name: 'a bad --zone', args: ['--conf', 'x.yaml', '--zone', 'mars', '--once'], expect: '--zone: "mars" is not an AWS availability zone' },
  {
    name: 'a state store without the cluster',
    args: ['--conf', 'cp.yaml', ...IDENTITY],
    file: [...BOOT, 'InstanceGroupRole: ControlPlane', ''].join('\n'),
    expect: '/nonexistent/c.example.com/cluster-completed.spec does not exist; has "kforge update cluster c.example.com --yes" run?',
  },
])('$name fails with one clear line', ({ args, file, expect: message }) => {
  const full = args.map((a) => (a.endsWith('.yaml') && !a.startsWith('/') ? path.join(work, a) : a));
  if (file) conf(path.basename(full[1]), file);
  const r = runCli(['protokube', ...full]);
  expectCleanFailure(r);
  expect(r.stderr).toContain(message);
});

it('an unreachable AWS fails the pass with one line naming the cluster and the call, and writes nothing', async () => {
  const ha = await makeHaCluster(path.join(work, 'store'), 'offline.example.com');
  const root = path.join(work, 'offline-root');
  const env = { AWS_ENDPOINT_URL: 'http://127.0.0.1:9', AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test', AWS_MAX_ATTEMPTS: '1', AWS_EC2_METADATA_DISABLED: 'true', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
  const r = runCli(['protokube', '--conf', ha.bootConfig(work, 'us-east-1a'), '--root', root, ...IDENTITY], { env });
  expectCleanFailure(r);
  expect(r.stderr).toContain('listing the etcd volumes of cluster offline.example.com: ');
  expect(r.stderr).toContain('ECONNREFUSED');
  expect(fs.existsSync(root)).toBe(false);
}, 60_000);

it('formats a blank device once, mounts it, and never formats a device that has a filesystem', () => {
  const blank = path.join(work, 'blank.img');
  fs.writeFileSync(blank, '');
  fs.truncateSync(blank, 16 * 1024 * 1024);
  expect(filesystemType(blank)).toBeUndefined();
  const first = ensureMounted(blank, path.join(work, 'mnt-blank'));
  expect(first).toMatchObject({ formatted: true, mounted: true });
  expect(filesystemType(blank)).toBe('ext4');
  fs.writeFileSync(path.join(work, 'mnt-blank', 'member-data'), 'keep me');
  // Mounted already: nothing happens.
  expect(ensureMounted(blank, path.join(work, 'mnt-blank'))).toMatchObject({ formatted: false, mounted: false });
  releaseMounts(path.join(work, 'mnt-blank', '..'));
  // Unmounted (the machine restarted): the filesystem and its data are mounted as they are.
  const again = ensureMounted(blank, path.join(work, 'mnt-again'));
  expect(again).toMatchObject({ formatted: false, mounted: true });
  expect(fs.readFileSync(path.join(work, 'mnt-again', 'member-data'), 'utf8')).toBe('keep me');
  // Something blkid recognises that is not a filesystem (a partition table) is not formatted either.
  const parted = path.join(work, 'parted.img');
  fs.writeFileSync(parted, '');
  fs.truncateSync(parted, 16 * 1024 * 1024);
  // An MBR with one partition entry, written by hand (no fdisk on minimal machines).
  const mbr = Buffer.alloc(512);
  mbr.set([0x00, 0x20, 0x21, 0x00, 0x83, 0x00, 0x00, 0x00], 446);
  mbr.writeUInt32LE(2048, 446 + 8);
  mbr.writeUInt32LE(16 * 2048 - 2048, 446 + 12);
  mbr.set([0x55, 0xaa], 510);
  const fd = fs.openSync(parted, 'r+');
  fs.writeSync(fd, mbr, 0, 512, 0);
  fs.closeSync(fd);
  expect(filesystemType(parted)).toBe('partition table dos');
  expect(() => ensureMounted(parted, path.join(work, 'mnt-parted'))).toThrow('holds a partition table dos, not a filesystem; not formatting or mounting it');
  expect(filesystemType(parted)).toBe('partition table dos');
});
