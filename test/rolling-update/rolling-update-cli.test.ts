import { AutoScalingClient } from '@aws-sdk/client-auto-scaling';
import { EC2Client } from '@aws-sdk/client-ec2';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DETACHED_TAG } from '../../src/cloud/aws/cloud-instance-groups';
import { openVfs } from '../../src/state/vfs/open-vfs';
import { startCli, tempDir } from '../helpers/cli';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer } from '../helpers/moto-server';
import { clusterWithOutdatedNodes, describeGroup, liveInstances, MOTO_CREDENTIALS, NODES_IG } from '../helpers/rolling-cluster';
import { RollingKube, startRollingKube } from '../helpers/rolling-kube';

// `kforge rolling-update cluster` as users run it (bin/run.js): the plan table and --detailed-exitcode, and a
// rolling update killed with SIGKILL in the middle of its surge, then run again to the end.

let moto: MotoServer;
let store: string;
let home: string;
let ec2: EC2Client;
let asg: AutoScalingClient;
let kube: RollingKube | undefined;

beforeAll(async () => {
  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  store = tempDir('kforge-rolling-cli-');
  home = tempDir('kforge-rolling-home-');
  const client = { region: 'us-east-1', endpoint: moto.endpoint, credentials: MOTO_CREDENTIALS };
  ec2 = new EC2Client(client);
  asg = new AutoScalingClient(client);
});

afterAll(async () => {
  await kube?.stop();
  ec2?.destroy();
  asg?.destroy();
  await moto?.stop();
  for (const d of [store, home]) if (d) fs.rmSync(d, { recursive: true, force: true });
});

const env = (): NodeJS.ProcessEnv => ({
  ...moto.env,
  HOME: home,
  CI: 'true',
  AWS_EC2_METADATA_DISABLED: 'true',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  AWS_CONFIG_FILE: path.join(home, 'none'),
  AWS_SHARED_CREDENTIALS_FILE: path.join(home, 'none'),
  KUBECONFIG: path.join(home, 'none'),
  KFORGE_ROLLING_UPDATE_TICK: '30ms',
});
const kforge = (args: string[]) => startCli([...args, '--state', store], env()).done;

test('the plan is kops\'s table; --detailed-exitcode exits 2 while something needs an update, 0 after', async () => {
  const name = 'table.example.com';
  const vfs = openVfs(store);
  await clusterWithOutdatedNodes(vfs, moto, name, { nodes: 2, launchable: true });
  const plan = await kforge(['rolling-update', 'cluster', name, '--cloudonly']);
  expect(plan.status).toBe(0);
  expect(plan.stdout).toBe(
    [
      'NAME                       STATUS        NEEDUPDATE   READY   MIN   TARGET   MAX   NODES',
      'control-plane-us-east-1a   Ready         0            1       1     1        1     0',
      'nodes-us-east-1a           NeedsUpdate   2            0       2     2        2     0',
      '',
      'Must specify --yes to rolling-update.',
      '',
    ].join('\n'),
  );
  expect((await kforge(['rolling-update', 'cluster', name, '--cloudonly', '--detailed-exitcode'])).status).toBe(2);
  const bad = await kforge(['rolling-update', 'cluster', name, '--cloudonly', '--instance-group-roles', 'Worker']);
  expect(bad.status).toBe(1);
  expect(bad.stderr).toContain('--instance-group-roles: unknown role "Worker"');
  // An API that cannot be used is an error that says so, and how to do without it.
  const closed = path.join(home, 'closed.kubeconfig');
  fs.writeFileSync(closed, `apiVersion: v1\nkind: Config\ncurrent-context: ${name}\nclusters:\n- name: ${name}\n  cluster:\n    server: https://127.0.0.1:9\ncontexts:\n- name: ${name}\n  context:\n    cluster: ${name}\n    user: u\nusers:\n- name: u\n  user:\n    token: t\n`);
  const noApi = await kforge(['rolling-update', 'cluster', name, '--kubeconfig', closed]);
  expect(noApi.status).toBe(1);
  expect(noApi.stderr).toContain(`cannot list the Nodes of cluster "${name}" at https://127.0.0.1:9`);
  expect(noApi.stderr).toContain('pass --cloudonly');
  const applied = await kforge(['rolling-update', 'cluster', name, '--cloudonly', '--yes', '--node-interval', '0s', '--validation-timeout', '30s']);
  expect(applied.stderr).toContain('terminating instance');
  expect(applied.status).toBe(0);
  const done = await kforge(['rolling-update', 'cluster', name, '--cloudonly', '--detailed-exitcode']);
  expect(done.status).toBe(0);
  expect(done.stdout).toContain('No rolling-update required.');
});

test('killed with SIGKILL in its surge and run again, it finishes: each old instance replaced once, none detached twice', async () => {
  const name = 'killed.example.com';
  const vfs = openVfs(store);
  await clusterWithOutdatedNodes(vfs, moto, name, { nodes: 4, maxSurge: 2, launchable: true });
  kube = await startRollingKube(vfs, moto, name, home);
  kube.startKubelets();
  const old = (await describeGroup(asg, `${NODES_IG}.${name}`)).members.map((m) => m.id);
  const args = ['rolling-update', 'cluster', name, '--yes', '--kubeconfig', kube.kubeconfig, '--node-interval', '0s', '--post-drain-delay', '0s', '--validate-count', '1', '--validation-timeout', '60s'];
  const first = startCli([...args, '--state', store], env());
  // Kill it as soon as its first surge instance is detached (tagged and out of the group).
  let detached: string[] = [];
  // Tagged but still a member is the run between its tag and its DetachInstances, which a second run
  // finishes by detaching that instance (aws-rolling-update-cloud.ts): not the kill point this test wants.
  while (!first.finished() && detached.length === 0) {
    const tagged = (await liveInstances(ec2, name)).filter((i) => i.Tags?.some((t) => t.Key === DETACHED_TAG)).map((i) => i.InstanceId as string);
    const members = tagged.length > 0 ? (await describeGroup(asg, `${NODES_IG}.${name}`)).members.map((m) => m.id) : [];
    detached = tagged.filter((id) => !members.includes(id));
    if (detached.length === 0) await new Promise((r) => setTimeout(r, 10));
  }
  process.kill(first.pid, 'SIGKILL');
  const killed = await first.done;
  expect(killed.status).toBe(-1);
  expect(detached.length).toBeGreaterThan(0);
  const second = await kforge(args);
  expect(second.status).toBe(0);
  // The lock of the killed run was taken over, not fought over.
  expect(second.stderr).toContain('no longer running');
  // What the first run detached was not detached again.
  for (const id of detached) expect(second.stderr).not.toContain(`detaching instance ${id}`);
  const after = await describeGroup(asg, `${NODES_IG}.${name}`);
  expect(after.desired).toBe(4);
  expect(after.members.filter((m) => old.includes(m.id))).toEqual([]);
  const live = await liveInstances(ec2, name);
  expect(live.filter((i) => old.includes(i.InstanceId as string) || i.Tags?.some((t) => t.Key === DETACHED_TAG))).toEqual([]);
  expect(live).toHaveLength(5);
  await kube.register();
  expect(kube.schedulable(NODES_IG)).toHaveLength(4);
});
