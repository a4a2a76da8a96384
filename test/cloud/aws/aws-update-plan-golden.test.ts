import * as fs from 'node:fs';
import { newCluster, NewClusterOptions } from '../../../src/create/new-cluster';
import { saveCluster } from '../../../src/ops/save-cluster';
import { updateCluster } from '../../../src/ops/update-cluster';
import { openVfs } from '../../../src/state/vfs/open-vfs';
import { renderUpdatePlan, updatePlanReport } from '../../../src/targets/update-plan-report';
import { tempDir } from '../../helpers/cli';
import { expectGolden } from '../../helpers/golden';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer } from '../../helpers/moto-server';

// The plan `update cluster` prints for a new cluster, against an empty account (moto), as golden files:
// every resource the model makes for the minimal, HA (three control-plane zones) and private (NAT,
// calico, a bastion) clusters, the keysets and the managed files. Review a diff of these like code: it is
// the whole of what kforge creates.

const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };
let moto: MotoServer;
let store: string;

beforeAll(async () => {
  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  store = tempDir('kforge-plan-golden-');
});

afterAll(async () => {
  await moto?.stop();
  if (store) fs.rmSync(store, { recursive: true, force: true });
});

const CASES: Array<[string, NewClusterOptions]> = [
  ['minimal', { name: 'minimal.example.com', zones: ['us-east-1a'], cloud: 'aws', dns: 'none' }],
  ['ha', { name: 'ha.example.com', zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'], controlPlaneCount: 3, cloud: 'aws', dns: 'none' }],
  ['private', { name: 'private.example.com', zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'], controlPlaneCount: 3, topology: 'private', networking: 'calico', bastion: true, cloud: 'aws', dns: 'none' }],
];

it.each(CASES)('the plan of a new %s cluster is the golden one, and nothing was created to make it', async (file, options) => {
  const vfs = openVfs(store);
  const planned = newCluster(options);
  await saveCluster(vfs, { cluster: planned.cluster, instanceGroups: planned.instanceGroups });
  const result = await updateCluster(vfs, options.name, { yes: false, lock: { command: 'test', forceUnlock: false, ttlSeconds: 60 }, env: { AWS_ENDPOINT_URL: moto.endpoint }, credentials: CREDENTIALS });
  expect(result.applied).toBe(false);
  expect(result.cloud.calls.mutating).toBe(0);
  const text = renderUpdatePlan(updatePlanReport(options.name, result.cloudPlan, result.managed, result.discovery.files, result.orphans));
  expect(text).not.toMatch(/PRIVATE KEY/);
  expectGolden(`plan/${file}.txt`, text);
});
