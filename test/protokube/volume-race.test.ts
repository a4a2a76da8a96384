import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CreateHostedZoneCommand, ListHostedZonesByNameCommand, ListResourceRecordSetsCommand, Route53Client } from '@aws-sdk/client-route-53';
import { AttachVolumeCommand, DescribeVolumesCommand, DetachVolumeCommand, RunInstancesCommand, TerminateInstancesCommand } from '@aws-sdk/client-ec2';
import { ROOT, runCliAsync, tempDir } from '../helpers/cli';
import { MotoServer, startMotoServer } from '../helpers/moto-server';
import { HaCluster, makeHaCluster } from './ha-cluster-fixture';
import { makeMotoControlPlane, MotoControlPlane } from './moto-etcd-volumes';
import { releaseMounts } from './release-mounts';
import { startVolumeInUseProxy, VolumeInUseProxy } from './volume-in-use-proxy';

// Two control-plane machines in one zone race for that zone's etcd volumes, through a proxy in front of
// moto that answers AttachVolume of an attached volume with real AWS's VolumeInUse (moto 5.2.1 would
// attach it again and say yes; see volume-in-use-proxy.ts). The proxy holds each volume's attaches until
// both machines have asked, so the race is real. Exactly one machine gets each volume; the other reports
// the lost claim and writes no member. Then the winner goes away (its volumes detached, the instance
// terminated) and the loser, looping, takes the volumes on its next pass and publishes its names in
// Route 53 (a public zone the test creates on moto). Last, the second safety net: an attach answered
// "yes" while another instance holds the volume (moto's answer) is found out by DescribeVolumes.

const NAME = 'race.example.com';
const ZONE = 'us-east-1a';
let moto: MotoServer;
let proxy: VolumeInUseProxy;
let work: string;
let ha: HaCluster;
let cp: MotoControlPlane;
let machines: { id: string; ip: string }[];
let env: NodeJS.ProcessEnv;

jest.setTimeout(120_000);

beforeAll(async () => {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  moto = await startMotoServer();
  proxy = await startVolumeInUseProxy(moto.endpoint, 2);
  work = tempDir('kforge-protokube-race-');
  ha = await makeHaCluster(path.join(work, 'store'), NAME, 'public', 'example.com');
  cp = await makeMotoControlPlane(moto, ha, { [ZONE]: '127.0.1.21' });
  const second = await cp.ec2.send(new RunInstancesCommand({ ImageId: cp.image, MinCount: 1, MaxCount: 1, InstanceType: 't3.medium', SubnetId: cp.subnets.get(ZONE), PrivateIpAddress: '127.0.1.22' }));
  machines = [cp.instances.get(ZONE) as { id: string; ip: string }, { id: second.Instances?.[0]?.InstanceId as string, ip: '127.0.1.22' }];
  const r53 = new Route53Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  await r53.send(new CreateHostedZoneCommand({ Name: 'example.com', CallerReference: 'kforge-protokube-race' }));
  r53.destroy();
  env = { ...moto.env, AWS_ENDPOINT_URL: proxy.endpoint, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
  fs.mkdirSync(path.join(work, 'dev'));
  for (const id of cp.volumes.values()) {
    const image = path.join(work, 'dev', `nvme-Amazon_Elastic_Block_Store_${id.replace('-', '')}`);
    fs.writeFileSync(image, '');
    fs.truncateSync(image, 32 * 1024 * 1024);
  }
});

afterAll(async () => {
  cp?.ec2.destroy();
  await proxy?.stop();
  await moto?.stop();
  if (work) {
    releaseMounts(work);
    fs.rmSync(work, { recursive: true, force: true });
  }
});

function args(i: number): string[] {
  const m = machines[i];
  return ['protokube', '--conf', ha.bootConfig(work, ZONE), '--root', path.join(work, `root-${i}`), '--device-dir', path.join(work, 'dev'), '--device-timeout', '5', '--instance-id', m.id, '--zone', ZONE, '--internal-ip', m.ip];
}

interface Report {
  members: { etcd: string; member?: string; volume?: string; waiting?: string }[];
}

async function attachments(): Promise<Map<string, string | undefined>> {
  const r = await cp.ec2.send(new DescribeVolumesCommand({ VolumeIds: [...cp.volumes.values()] }));
  return new Map((r.Volumes ?? []).map((v) => [v.VolumeId as string, v.Attachments?.find((a) => a.State !== 'detached')?.InstanceId]));
}

let winnerOf: Record<string, number>;

function winnerIndex(reports: Report[]): number {
  return reports.findIndex((r) => r.members.some((m) => m.etcd === 'main' && m.member));
}

it('two machines racing for one volume: exactly one attaches it, the other reports the lost claim', async () => {
  const results = await Promise.all([0, 1].map((i) => runCliAsync([...args(i), '--once', '-o', 'json'], env)));
  for (const r of results) expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
  const reports = results.map((r) => JSON.parse(r.stdout) as Report);
  // Both asked for the main volume: the proxy forwarded one attach and refused the other. The loser of
  // main claims nothing else, so the events volume had a single attach.
  expect(proxy.rejected).toEqual([`${cp.volumes.get(`a.etcd-main.${NAME}`)} ${machines[1 - winnerIndex(reports)].id}`]);
  expect(proxy.forwarded).toHaveLength(2);
  const held = await attachments();
  winnerOf = {};
  for (const etcd of ['main', 'events']) {
    const volume = cp.volumes.get(`a.etcd-${etcd}.${NAME}`) as string;
    const claims = reports.map((r) => r.members.find((m) => m.etcd === etcd));
    const winners = claims.flatMap((c, i) => (c?.member ? [i] : []));
    expect(winners).toHaveLength(1);
    winnerOf[etcd] = winners[0];
    expect(claims[winners[0]]).toMatchObject({ member: 'a', volume });
    expect(claims[1 - winners[0]]?.waiting).toMatch(etcd === 'main' ? /VolumeInUse/ : /holds no member of the first etcd cluster/);
    // The cloud agrees: the volume is attached to the winner's instance, and only the winner wrote the member.
    expect(held.get(volume)).toBe(machines[winners[0]].id);
    expect(fs.existsSync(path.join(work, `root-${winners[0]}`, `etc/kubernetes/manifests/etcd-${etcd}.manifest`))).toBe(true);
    expect(fs.existsSync(path.join(work, `root-${1 - winners[0]}`, `etc/kubernetes/manifests/etcd-${etcd}.manifest`))).toBe(false);
  }
});

it('a looping protokube takes the volumes back once their machine is gone, and publishes its names in Route 53', async () => {
  // The winners' machines go away: volumes detached, instances terminated, their mounts gone with them.
  for (const [etcd, i] of Object.entries(winnerOf)) {
    await cp.ec2.send(new DetachVolumeCommand({ VolumeId: cp.volumes.get(`a.etcd-${etcd}.${NAME}`), InstanceId: machines[i].id }));
    releaseMounts(path.join(work, `root-${i}`));
  }
  const gone = [...new Set(Object.values(winnerOf))];
  await cp.ec2.send(new TerminateInstancesCommand({ InstanceIds: gone.map((i) => machines[i].id) }));
  expect(gone).toEqual([winnerOf.main]);
  const survivor = 1 - winnerOf.main;
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'run.js'), ...args(survivor), '--interval', '1'], { env: { ...process.env, ...env, NO_COLOR: '1' } });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 60_000;
  while (!(/etcd main: member a/.test(out) && /etcd events: member a/.test(out)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  expect(out).toMatch(/etcd main: member a, volume vol-/);
  expect(out).toMatch(/etcd events: member a, volume vol-/);
  const held = await attachments();
  for (const etcd of ['main', 'events']) expect(held.get(cp.volumes.get(`a.etcd-${etcd}.${NAME}`) as string)).toBe(machines[survivor].id);
  // Names: the members held by the survivor, api.internal and kops-controller.internal, at its address (through moto's Route 53).
  const r53 = new Route53Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  const zones = await r53.send(new ListHostedZonesByNameCommand({ DNSName: 'example.com.' }));
  const records = await r53.send(new ListResourceRecordSetsCommand({ HostedZoneId: zones.HostedZones?.[0]?.Id }));
  r53.destroy();
  const a = new Map((records.ResourceRecordSets ?? []).filter((r) => r.Type === 'A').map((r) => [r.Name, (r.ResourceRecords ?? []).map((x) => x.Value)]));
  expect(a.get(`etcd-a.internal.${NAME}.`)).toEqual([machines[survivor].ip]);
  expect(a.get(`etcd-events-a.internal.${NAME}.`)).toEqual([machines[survivor].ip]);
  expect(a.get(`api.internal.${NAME}.`)).toEqual([machines[survivor].ip]);
  expect(a.get(`kops-controller.internal.${NAME}.`)).toEqual([machines[survivor].ip]);
});

it('an attach the cloud answers "yes" while another instance holds the volume is a lost claim (the DescribeVolumes check)', async () => {
  // Two new machines in zone b; when the first asks for b's main volume, the second gets it at that
  // moment, and the first's attach is answered as moto answers it: yes.
  const launch = async () =>
    (await cp.ec2.send(new RunInstancesCommand({ ImageId: cp.image, MinCount: 1, MaxCount: 1, InstanceType: 't3.medium', Placement: { AvailabilityZone: 'us-east-1b' } }))).Instances?.[0]?.InstanceId as string;
  const [asker, thief] = [await launch(), await launch()];
  const volume = cp.volumes.get(`b.etcd-main.${NAME}`) as string;
  proxy.inUseAnswer = 'moto-says-yes';
  proxy.interfere = async (v) => {
    if (v === volume) await cp.ec2.send(new AttachVolumeCommand({ VolumeId: v, InstanceId: thief, Device: '/dev/xvdu' }));
  };
  try {
    const root = path.join(work, 'root-asker');
    const argv = ['protokube', '--conf', ha.bootConfig(work, 'us-east-1b'), '--root', root, '--device-dir', path.join(work, 'dev'), '--device-timeout', '5'];
    const r = await runCliAsync([...argv, '--instance-id', asker, '--zone', 'us-east-1b', '--internal-ip', '127.0.1.31', '--once', '-o', 'json'], env);
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
    const report = JSON.parse(r.stdout) as Report;
    expect(report.members.find((m) => m.etcd === 'main')?.waiting).toContain(`${volume} is attached to ${thief} after the attach`);
    expect(report.members.find((m) => m.etcd === 'events')?.member).toBeUndefined();
    expect((await attachments()).get(volume)).toBe(thief);
    expect(fs.existsSync(path.join(root, 'etc/kubernetes/manifests/etcd-main.manifest'))).toBe(false);
  } finally {
    proxy.inUseAnswer = 'VolumeInUse';
    proxy.interfere = undefined;
  }
});
