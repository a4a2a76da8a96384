import { InstanceGroupManagersClient, InstanceTemplatesClient, NetworksClient, GlobalOperationsClient, ZoneOperationsClient, DisksClient, InstancesClient } from '@google-cloud/compute';
import { FakeCompute, startFakeCompute } from './compute-fake';
import { fakeComputeClientOptions } from './fake-compute-client-options';

let fake: FakeCompute;

function clientOptions() {
  return fakeComputeClientOptions(fake.port) as ConstructorParameters<typeof NetworksClient>[0];
}

/** The GCE status code of a rejected call. */
async function statusOf(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    return (e as { code?: unknown }).code;
  }
}

beforeEach(async () => {
  fake = await startFakeCompute();
});
afterEach(async () => {
  await fake.stop();
});

describe('fake Compute API through @google-cloud/compute', () => {
  test('an insert takes effect only once its operation is polled; a duplicate is 409; a missing one 404', async () => {
    const networks = new NetworksClient(clientOptions());
    const ops = new GlobalOperationsClient(clientOptions());
    const [op] = await networks.insert({ project: 'p', networkResource: { name: 'net', autoCreateSubnetworks: false } });
    expect(await statusOf(networks.get({ project: 'p', network: 'net' }))).toBe(404);
    expect(await statusOf(networks.insert({ project: 'p', networkResource: { name: 'net' } }))).toBe(409);
    const [done] = await ops.wait({ project: 'p', operation: op.name! });
    expect(done.status).toBe('DONE');
    const [net] = await networks.get({ project: 'p', network: 'net' });
    expect(net.selfLink).toBe('https://www.googleapis.com/compute/v1/projects/p/global/networks/net');
    expect(net.autoCreateSubnetworks).toBe(false);
    expect(await statusOf(networks.insert({ project: 'p', networkResource: { name: 'net' } }))).toBe(409);
  });

  test('a field compute v1 does not have is refused with 400', async () => {
    // The client's serializer drops fields its protos lack, so a raw request shows what a hand-written call would get.
    const res = await fetch(`${fake.endpoint}/compute/v1/projects/p/global/networks`, { method: 'POST', body: JSON.stringify({ name: 'net', autoCreateSubnetwork: false }) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { errors: { reason: string }[] } }).error.errors[0].reason).toBe('invalid');
    const nested = await fetch(`${fake.endpoint}/compute/v1/projects/p/global/instanceTemplates`, { method: 'POST', body: JSON.stringify({ name: 't', properties: { networkInterfaces: [{ acessConfigs: [] }] } }) });
    expect(nested.status).toBe(400);
    const query = await fetch(`${fake.endpoint}/compute/v1/projects/p/global/networks?requestID=x`);
    expect(query.status).toBe(400);
    expect(fake.inventory()).toEqual([]);
  });

  test('a repeated requestId returns the first operation; a malformed one is 400', async () => {
    const networks = new NetworksClient(clientOptions());
    const requestId = '6f1c2a3b-0000-4000-8000-000000000001';
    const [a] = await networks.insert({ project: 'p', requestId, networkResource: { name: 'net' } });
    const [b] = await networks.insert({ project: 'p', requestId, networkResource: { name: 'net' } });
    expect(b.name).toBe(a.name);
    expect(await statusOf(networks.insert({ project: 'p', requestId: 'not-a-uuid', networkResource: { name: 'other' } }))).toBe(400);
  });

  test('a MIG runs its target size, keeps its template in use, and a stale fingerprint is 412', async () => {
    const templates = new InstanceTemplatesClient(clientOptions());
    const migs = new InstanceGroupManagersClient(clientOptions());
    const global = new GlobalOperationsClient(clientOptions());
    const zone = new ZoneOperationsClient(clientOptions());
    const [t] = await templates.insert({ project: 'p', instanceTemplateResource: { name: 'tpl', properties: { machineType: 'e2-medium', labels: { a: 'b' } } } });
    await global.wait({ project: 'p', operation: t.name! });
    const [m] = await migs.insert({ project: 'p', zone: 'us-central1-a', instanceGroupManagerResource: { name: 'nodes', baseInstanceName: 'nodes', targetSize: 2, instanceTemplate: 'global/instanceTemplates/tpl' } });
    await zone.wait({ project: 'p', zone: 'us-central1-a', operation: m.name! });
    const [mig] = await migs.get({ project: 'p', zone: 'us-central1-a', instanceGroupManager: 'nodes' });
    expect(mig.instanceTemplate).toBe('https://www.googleapis.com/compute/v1/projects/p/global/instanceTemplates/tpl');
    expect(fake.inventory().filter((r) => r.includes('/instances/'))).toHaveLength(2);
    expect(await statusOf(templates.delete({ project: 'p', instanceTemplate: 'tpl' }))).toBe(400);
    expect(await statusOf(migs.patch({ project: 'p', zone: 'us-central1-a', instanceGroupManager: 'nodes', instanceGroupManagerResource: { fingerprint: 'stale', targetSize: 3 } }))).toBe(412);
    const [p] = await migs.patch({ project: 'p', zone: 'us-central1-a', instanceGroupManager: 'nodes', instanceGroupManagerResource: { fingerprint: mig.fingerprint, targetSize: 1 } });
    await zone.wait({ project: 'p', zone: 'us-central1-a', operation: p.name! });
    expect(fake.inventory().filter((r) => r.includes('/instances/'))).toHaveLength(1);
  });

  test('a disk attaches to one instance only; 429 on the configured share of calls', async () => {
    const migs = new InstanceGroupManagersClient(clientOptions());
    const disks = new DisksClient(clientOptions());
    const instances = new InstancesClient(clientOptions());
    const zone = new ZoneOperationsClient(clientOptions());
    const z = { project: 'p', zone: 'us-central1-a' };
    expect(await statusOf(migs.insert({ ...z, instanceGroupManagerResource: { name: 'cp', baseInstanceName: 'cp', targetSize: 2, instanceTemplate: 'global/instanceTemplates/none' } }))).toBe(400);
    await new GlobalOperationsClient(clientOptions()).wait({ project: 'p', operation: (await new InstanceTemplatesClient(clientOptions()).insert({ project: 'p', instanceTemplateResource: { name: 'none', properties: { machineType: 'e2-medium' } } }))[0].name! });
    await zone.wait({ ...z, operation: (await migs.insert({ ...z, instanceGroupManagerResource: { name: 'cp', baseInstanceName: 'cp', targetSize: 2, instanceTemplate: 'global/instanceTemplates/none' } }))[0].name! });
    await zone.wait({ ...z, operation: (await disks.insert({ ...z, diskResource: { name: 'a-etcd-main', sizeGb: '20', labels: { 'k8s-io-etcd-main': 'a-2fa' } } }))[0].name! });
    const [list] = await instances.list(z);
    expect(list).toHaveLength(2);
    const [first] = await instances.attachDisk({ ...z, instance: list[0].name!, attachedDiskResource: { source: 'zones/us-central1-a/disks/a-etcd-main', deviceName: 'etcd' } });
    expect((await zone.wait({ ...z, operation: first.name! }))[0].error).toBeFalsy();
    const [second] = await instances.attachDisk({ ...z, instance: list[1].name!, attachedDiskResource: { source: 'zones/us-central1-a/disks/a-etcd-main', deviceName: 'etcd' } });
    expect((await zone.wait({ ...z, operation: second.name! }))[0].error?.errors?.[0]?.code).toBe('RESOURCE_IN_USE_BY_ANOTHER_RESOURCE');
    const [disk] = await disks.get({ ...z, disk: 'a-etcd-main' });
    expect(disk.users).toEqual([list[0].selfLink]);
    fake.setThrottleShare(1);
    expect(await statusOf(disks.get({ ...z, disk: 'a-etcd-main' }))).toBe(429);
  });

  test('a MIG\'s managed instances: listed, aggregated, recreated on the current template, deleted; serial console', async () => {
    const templates = new InstanceTemplatesClient(clientOptions());
    const migs = new InstanceGroupManagersClient(clientOptions());
    const instances = new InstancesClient(clientOptions());
    const global = new GlobalOperationsClient(clientOptions());
    const zone = new ZoneOperationsClient(clientOptions());
    const z = { project: 'p', zone: 'us-central1-a' };
    for (const name of ['t1', 't2']) {
      await global.wait({ project: 'p', operation: (await templates.insert({ project: 'p', instanceTemplateResource: { name, properties: { machineType: 'e2-medium', labels: { c: 'x' }, networkInterfaces: [{ accessConfigs: [{ name: 'external-nat', type: 'ONE_TO_ONE_NAT' }] }] } } }))[0].name! });
    }
    await zone.wait({ ...z, operation: (await migs.insert({ ...z, instanceGroupManagerResource: { name: 'nodes', baseInstanceName: 'nodes', targetSize: 2, instanceTemplate: 'global/instanceTemplates/t1' } }))[0].name! });
    const [managed] = await migs.listManagedInstances({ ...z, instanceGroupManager: 'nodes' }, { autoPaginate: false });
    expect(managed.map((m) => [m.currentAction, m.instanceStatus, m.version?.instanceTemplate?.split('/').pop()])).toEqual([['NONE', 'RUNNING', 't1'], ['NONE', 'RUNNING', 't1']]);
    const [first] = await instances.get({ ...z, instance: managed[0].name! });
    expect(first.name).toMatch(/^nodes-[a-z0-9]{4}$/);
    expect(first.networkInterfaces?.[0].networkIP).toMatch(/^10\./);
    expect(first.networkInterfaces?.[0].accessConfigs?.[0].natIP).toMatch(/^35\./);
    expect(first.metadata?.items?.find((i) => i.key === 'instance-template')?.value).toBe('projects/p/global/instanceTemplates/t1');
    const agg: string[] = [];
    for await (const [scope, list] of instances.aggregatedListAsync({ project: 'p', filter: 'labels.c = "x"' })) for (const i of list.instances ?? []) agg.push(`${scope}/${i.name}`);
    expect(agg.sort()).toEqual(managed.map((m) => `zones/us-central1-a/${m.name}`).sort());

    await zone.wait({ ...z, operation: (await migs.setInstanceTemplate({ ...z, instanceGroupManager: 'nodes', instanceGroupManagersSetInstanceTemplateRequestResource: { instanceTemplate: 'global/instanceTemplates/t2' } }))[0].name! });
    const [stale] = await migs.get({ ...z, instanceGroupManager: 'nodes' });
    expect([stale.status?.isStable, stale.status?.versionTarget?.isReached]).toEqual([true, false]);
    const [op] = await migs.recreateInstances({ ...z, instanceGroupManager: 'nodes', instanceGroupManagersRecreateInstancesRequestResource: { instances: [`zones/us-central1-a/instances/${first.name}`] } });
    await zone.wait({ ...z, operation: op.name! });
    const [flagged] = await migs.get({ ...z, instanceGroupManager: 'nodes' });
    expect([flagged.status?.isStable, flagged.currentActions?.recreating]).toEqual([false, 1]);
    // The action completes a few requests later: the same name, a new id, the MIG's current template.
    await migs.get({ ...z, instanceGroupManager: 'nodes' });
    const [again] = await instances.get({ ...z, instance: first.name! });
    expect([again.name, again.id === first.id, again.metadata?.items?.find((i) => i.key === 'instance-template')?.value]).toEqual([first.name, false, 'projects/p/global/instanceTemplates/t2']);
    expect(await statusOf(migs.recreateInstances({ ...z, instanceGroupManager: 'nodes', instanceGroupManagersRecreateInstancesRequestResource: { instances: ['zones/us-central1-a/instances/nodes-none'] } }))).toBe(404);

    const [del] = await migs.deleteInstances({ ...z, instanceGroupManager: 'nodes', instanceGroupManagersDeleteInstancesRequestResource: { instances: [`zones/us-central1-a/instances/${managed[1].name}`] } });
    await zone.wait({ ...z, operation: del.name! });
    await migs.get({ ...z, instanceGroupManager: 'nodes' });
    const [after] = await migs.get({ ...z, instanceGroupManager: 'nodes' });
    expect([after.targetSize, after.status?.isStable]).toEqual([1, true]);
    expect(fake.inventory().filter((r) => r.includes('/instances/'))).toEqual([`projects/p/zones/us-central1-a/instances/${first.name}`]);

    fake.setSerialPortOutput(`projects/p/zones/us-central1-a/instances/${first.name}`, 'boot\nkforge-nodeup-stage: done\n');
    const [serial] = await instances.getSerialPortOutput({ ...z, instance: first.name!, port: 1 });
    expect(serial.contents).toContain('kforge-nodeup-stage: done');
    expect(await statusOf(instances.getSerialPortOutput({ ...z, instance: 'gone', port: 1 }))).toBe(404);
  });
});
