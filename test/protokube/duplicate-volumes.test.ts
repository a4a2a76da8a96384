import * as fs from 'node:fs';
import * as path from 'node:path';
import { CreateVolumeCommand, DeleteVolumeCommand, DescribeVolumesCommand } from '@aws-sdk/client-ec2';
import { buildEtcdVolumeTasks } from '../../src/model/aws/etcd-volume-model-builder';
import { tagList } from '../../src/cloud/aws/aws-tags';
import { runCliAsync, tempDir } from '../helpers/cli';
import { MotoServer, startMotoServer } from '../helpers/moto-server';
import { HaCluster, makeHaCluster } from './ha-cluster-fixture';
import { makeMotoControlPlane, MotoControlPlane } from './moto-etcd-volumes';
import { releaseMounts } from './release-mounts';

// An etcd member with two volumes (a lost CreateVolume answer on a cloud that ignored the token, or a
// copy made by hand): protokube on that member's zone must not guess which one holds the member's data.
// It claims, formats and mounts none of them, says why in one line, and takes the volume once the extra
// one is gone. Real moto volumes, real blank image files as the devices.

const NAME = 'dups.example.com';
const ZONE = 'us-east-1a';
let moto: MotoServer;
let work: string;
let ha: HaCluster;
let cp: MotoControlPlane;
let env: NodeJS.ProcessEnv;
let member: string;
let ids: string[];

jest.setTimeout(120_000);

beforeAll(async () => {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  moto = await startMotoServer();
  work = tempDir('kforge-protokube-dups-');
  ha = await makeHaCluster(path.join(work, 'store'), NAME);
  cp = await makeMotoControlPlane(moto, ha, { [ZONE]: '127.0.1.31' });
  const main = buildEtcdVolumeTasks(ha.completed, ha.instanceGroups).find((t) => t.desired.zone === ZONE && t.name.includes('.etcd-main.'));
  if (!main) throw new Error(`no etcd main volume in ${ZONE}`);
  const copy = await cp.ec2.send(new CreateVolumeCommand({ AvailabilityZone: ZONE, Size: main.desired.size, VolumeType: main.desired.volumeType as never, TagSpecifications: [{ ResourceType: 'volume', Tags: tagList(main.desired.tags) }] }));
  member = main.name.split('.')[0];
  ids = [cp.volumes.get(main.name) as string, copy.VolumeId as string].sort();
  env = { ...moto.env, AWS_ENDPOINT_URL: moto.endpoint, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
  fs.mkdirSync(path.join(work, 'dev'));
  for (const id of [...cp.volumes.values(), ...ids]) {
    const image = path.join(work, 'dev', `nvme-Amazon_Elastic_Block_Store_${id.replace('-', '')}`);
    fs.writeFileSync(image, '');
    fs.truncateSync(image, 32 * 1024 * 1024);
  }
});

afterAll(async () => {
  cp?.ec2.destroy();
  await moto?.stop();
  if (work) {
    releaseMounts(work);
    fs.rmSync(work, { recursive: true, force: true });
  }
});

function args(): string[] {
  const m = cp.instances.get(ZONE) as { id: string; ip: string };
  return ['protokube', '--conf', ha.bootConfig(work, ZONE), '--root', path.join(work, 'root'), '--device-dir', path.join(work, 'dev'), '--device-timeout', '5', '--instance-id', m.id, '--zone', ZONE, '--internal-ip', m.ip, '--once'];
}

/** The cluster's etcd volumes in `zone` that are attached (the instance's own root volume is not one). */
async function attachedIn(zone: string): Promise<string[]> {
  const r = await cp.ec2.send(new DescribeVolumesCommand({ Filters: [{ Name: 'availability-zone', Values: [zone] }, { Name: 'tag:KubernetesCluster', Values: [NAME] }] }));
  return (r.Volumes ?? []).filter((v) => v.Attachments?.some((a) => a.State !== 'detached')).map((v) => v.VolumeId as string);
}

/** Whether an image file is still all zeros: nothing formatted it. */
function blank(id: string): boolean {
  const data = fs.readFileSync(path.join(work, 'dev', `nvme-Amazon_Elastic_Block_Store_${id.replace('-', '')}`));
  return !data.some((b) => b !== 0);
}

it('waits on a member with two volumes: claims, formats and mounts neither, and says why in one line', async () => {
  const json = await runCliAsync([...args(), '-o', 'json'], env);
  expect({ status: json.status, stderr: json.stderr }).toEqual({ status: 0, stderr: '' });
  const report = JSON.parse(json.stdout) as { members: { etcd: string; member?: string; waiting?: string }[] };
  const main = report.members.find((m) => m.etcd === 'main');
  expect(main?.member).toBeUndefined();
  expect(main?.waiting).toBe(`etcd main member ${member} has 2 volumes (${ids.join(', ')}): none is claimed, formatted or mounted until only one is left (delete the extra ones)`);
  // Without main, the machine claims no other member either.
  expect(report.members.find((m) => m.etcd === 'events')?.member).toBeUndefined();
  expect(await attachedIn(ZONE)).toEqual([]);
  for (const id of ids) expect(blank(id)).toBe(true);
  expect(fs.existsSync(path.join(work, 'root', 'etc', 'kubernetes', 'manifests', 'etcd-main.manifest'))).toBe(false);

  const text = await runCliAsync(args(), env);
  expect(text.status).toBe(0);
  const lines = text.stdout.split('\n').filter((l) => l.includes('etcd main:'));
  expect(lines).toEqual([`  etcd main: no member here: ${main?.waiting}`]);
  expect(await attachedIn(ZONE)).toEqual([]);
});

it('takes the member once the extra volume is deleted', async () => {
  const [, extra] = ids;
  const kept = ids[0];
  await cp.ec2.send(new DeleteVolumeCommand({ VolumeId: extra }));
  const r = await runCliAsync([...args(), '-o', 'json'], env);
  expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
  const main = (JSON.parse(r.stdout) as { members: { etcd: string; member?: string; volume?: string }[] }).members.find((m) => m.etcd === 'main');
  expect(main).toMatchObject({ member, volume: kept });
  expect(await attachedIn(ZONE)).toContain(kept);
});
