import * as fs from 'node:fs';
import * as path from 'node:path';
import { KforgeError } from '../../src/errors/kforge-error';
import { runProtokube } from '../../src/protokube/run-protokube';
import { tempDir } from '../helpers/cli';
import { MotoServer, startMotoServer } from '../helpers/moto-server';
import { HaCluster, makeHaCluster } from './ha-cluster-fixture';
import { makeMotoControlPlane, MotoControlPlane } from './moto-etcd-volumes';
import { releaseMounts } from './release-mounts';

// protokube runs with nodeup's --root and writes under it: the etcd member files, its /etc/hosts block, and
// the mount points of the etcd volumes. As for nodeup (test/nodeup/root-symlinks.test.ts), the directories
// to attack come from a clean pass (one control-plane machine against moto, sparse image files as the
// volumes' devices), not from a hand list; each is then planted, in a fresh root, as a symlink to a
// directory outside, and the pass must fail with NODE_ROOT_ESCAPE naming it, with nothing written or
// mounted outside.

const NAME = 'symlinks.example.com';
const ZONE = 'us-east-1a';
const IP = '127.0.1.11';
let moto: MotoServer;
let work: string;
let ha: HaCluster;
let cp: MotoControlPlane;
let conf: string;
/** Every directory the clean pass wrote into, relative to its root (not what is inside the mounted volumes). */
let written: string[] = [];
const saved = new Map<string, string | undefined>();

jest.setTimeout(300_000);

function pass(root: string): Promise<unknown> {
  return runProtokube({
    conf,
    root,
    identity: { instanceId: cp.instances.get(ZONE)?.id, zone: ZONE, internalIp: IP },
    deviceDir: path.join(work, 'dev'),
    deviceTimeoutMs: 5000,
    dns: 'none',
    env: { ...moto.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  });
}

/** The directories below `root`, relative, not descending into mount points (the volumes' own content). */
function directories(root: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const ent of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      if (!ent.isDirectory()) continue;
      const r = path.posix.join(rel, ent.name);
      out.push(r);
      if (!/^mnt\/master-/.test(r)) walk(r);
    }
  };
  walk('');
  return out.sort();
}

beforeAll(async () => {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  moto = await startMotoServer();
  // The pass runs in this process: the SDK's credentials and endpoint come from its environment.
  for (const [k, v] of Object.entries(moto.env)) {
    saved.set(k, process.env[k]);
    process.env[k] = v;
  }
  work = tempDir('kforge-protokube-symlinks-');
  ha = await makeHaCluster(path.join(work, 'store'), NAME);
  cp = await makeMotoControlPlane(moto, ha, { [ZONE]: IP });
  conf = ha.bootConfig(work, ZONE);
  fs.mkdirSync(path.join(work, 'dev'));
  for (const id of cp.volumes.values()) {
    const image = path.join(work, 'dev', `nvme-Amazon_Elastic_Block_Store_${id.replace('-', '')}`);
    fs.writeFileSync(image, '');
    fs.truncateSync(image, 16 * 1024 * 1024);
  }
  const clean = path.join(work, 'clean');
  await pass(clean);
  written = directories(clean);
  releaseMounts(clean);
});

afterAll(async () => {
  for (const [k, v] of saved) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  cp?.ec2.destroy();
  await moto?.stop();
  if (work) {
    releaseMounts(work);
    fs.rmSync(work, { recursive: true, force: true });
  }
});

it('the clean pass writes member files, the hosts block and the mount points', () => {
  for (const d of ['etc', 'etc/kubernetes/manifests', 'etc/kubernetes/pki/etcd-manager-main', 'etc/kubernetes/pki/etcd-manager-events', 'mnt']) expect(written).toContain(d);
  expect(written.filter((d) => /^mnt\/master-vol-/.test(d))).toHaveLength(2);
});

it('every directory protokube writes into, planted as a symlink out of the root: NODE_ROOT_ESCAPE naming it, nothing written or mounted outside', async () => {
  const problems: string[] = [];
  for (const [i, d] of written.entries()) {
    const caseDir = path.join(work, `case-${i}`);
    const root = path.join(caseDir, 'root');
    const outside = path.join(caseDir, 'outside');
    fs.mkdirSync(outside, { recursive: true });
    const link = path.join(root, d);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(outside, link);
    let error: unknown;
    try {
      await pass(root);
    } catch (e) {
      error = e;
    } finally {
      releaseMounts(caseDir);
    }
    const left = fs.readdirSync(outside);
    if (left.length > 0) problems.push(`${d}: wrote outside the root: ${left.join(', ')}`);
    else if (!(error instanceof KforgeError) || error.code !== 'NODE_ROOT_ESCAPE') problems.push(`${d}: not NODE_ROOT_ESCAPE: ${String(error)}`);
    else if (!error.message.startsWith(`${link}:`)) problems.push(`${d}: the error does not name ${link}: ${error.message}`);
  }
  expect(problems).toEqual([]);
});
