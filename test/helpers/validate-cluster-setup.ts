import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AwsCloud } from '../../src/cloud/aws/aws-cloud';
import { describeClusterInstances } from '../../src/cloud/aws/cluster-instances';
import { newCluster } from '../../src/create/new-cluster';
import { saveCluster } from '../../src/ops/save-cluster';
import { updateCluster } from '../../src/ops/update-cluster';
import { KUBERNETES_CA } from '../../src/pki/cluster-pki';
import { parseAddonChannel } from '../../src/protokube/addons/addon-channel';
import { ChannelVersion } from '../../src/protokube/addons/channel-version';
import { issueKeypair } from '../../src/pki/issue-keypair';
import type { Keypair } from '../../src/pki/keypair';
import { Keystore } from '../../src/state/keystore';
import { openVfs } from '../../src/state/vfs/open-vfs';
import type { Vfs } from '../../src/state/vfs/vfs';
import { FakeKubeApi, startFakeKubeApi } from '../fakes/kube/fake-kube-api-server';
import { kubeNode, kubePod } from '../fakes/kube/kube-objects';

/** Dummy credentials moto accepts. */
export const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };

/** A cluster made by `update cluster --yes` against moto, and a fake API server that trusts its CA. */
export interface ValidateFixture {
  name: string;
  vfs: Vfs;
  store: string;
  env: NodeJS.ProcessEnv;
  api: FakeKubeApi;
  ca: Keypair;
  /** The instances moto launched, with their group and role. */
  instances: Array<{ id: string; instanceGroup: string; role: 'control-plane' | 'node'; zone: string }>;
  /** Puts every instance's Node (Ready) and each control-plane node's static pods into the fake. */
  healthy(): void;
  stop(): Promise<void>;
}

/** The control-plane static pods a healthy node runs (mirror pods, labelled k8s-app as nodeup and protokube write them). */
export function controlPlanePods(node: string): ReturnType<typeof kubePod>[] {
  return ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'etcd-main', 'etcd-events'].map((c) =>
    kubePod(`${c}-${node}`, { namespace: 'kube-system', nodeName: node, labels: { 'k8s-app': c }, priorityClassName: c.startsWith('etcd') || c === 'kube-apiserver' ? 'system-node-critical' : 'system-cluster-critical', mirror: true, ownerKind: 'Node' }),
  );
}

/** Creates the cluster (`nodes` node instances, one control plane) in moto and starts a fake API with the cluster's CA. */
export async function setUpValidateFixture(endpoint: string, name: string, nodes: number): Promise<ValidateFixture> {
  const store = fs.mkdtempSync(path.join(os.tmpdir(), 'kforge-validate-'));
  const vfs = openVfs(store);
  const planned = newCluster({ name, zones: ['us-east-1a'], cloud: 'aws', nodeCount: nodes });
  await saveCluster(vfs, { cluster: planned.cluster, instanceGroups: planned.instanceGroups });
  const env = { ...process.env, AWS_ENDPOINT_URL: endpoint, AWS_EC2_METADATA_DISABLED: 'true' };
  await updateCluster(vfs, name, { yes: true, lock: { command: 'test', forceUnlock: false, ttlSeconds: 300 }, env, credentials: CREDENTIALS });
  const ca = (await new Keystore(vfs, name).getPrivate(KUBERNETES_CA)).keyset.primary();
  const serving = await issueKeypair({ subject: { commonName: 'kubernetes-master' }, usage: 'server', validityMs: 24 * 3600 * 1000, dnsNames: ['localhost', `api.${name}`], ipAddresses: ['127.0.0.1'] }, ca);
  const api = await startFakeKubeApi({ ca, serving });
  const cloud = new AwsCloud({ clusterName: name, region: 'us-east-1', env, credentials: CREDENTIALS });
  const state = await describeClusterInstances(cloud);
  const instances = state.instances.map((i) => {
    const group = state.groups.find((g) => g.name === i.group);
    return { id: i.instanceId, instanceGroup: i.instanceGroup ?? '', role: group?.role === 'control-plane' ? ('control-plane' as const) : ('node' as const), zone: i.zone ?? 'us-east-1a' };
  });
  const nodeName = (id: string): string => `node-${id}`;
  return {
    name,
    vfs,
    store,
    env,
    api,
    ca,
    instances,
    healthy() {
      for (const o of api.store.list('nodes')) api.store.delete('nodes', o.metadata.name, undefined);
      for (const o of api.store.list('pods')) api.store.delete('pods', o.metadata.name, o.metadata.namespace);
      for (const i of instances) {
        api.store.put('nodes', kubeNode(nodeName(i.id), { role: i.role, instanceGroup: i.instanceGroup, instanceId: i.id, zone: i.zone }));
        if (i.role === 'control-plane') for (const p of controlPlanePods(nodeName(i.id))) api.store.put('pods', p);
      }
      // The bootstrap channel, when the store has one, as protokube records it once applied.
      const channel = path.join(store, name, 'addons', 'bootstrap-channel.yaml');
      if (fs.existsSync(channel)) {
        const ns = api.store.get('namespaces', 'kube-system');
        const annotations = { ...(ns.metadata.annotations ?? {}) };
        for (const a of parseAddonChannel(fs.readFileSync(channel, 'utf8'), channel)) annotations[ChannelVersion.annotation(a.name)] = new ChannelVersion(`${store}/${name}/addons/bootstrap-channel.yaml`, a.id, a.manifestHash).encode();
        api.store.put('namespaces', { ...ns, metadata: { ...ns.metadata, annotations } });
      }
      api.store.put('pods', kubePod('coredns-abc', { namespace: 'kube-system', nodeName: nodeName(instances[instances.length - 1].id), priorityClassName: 'system-cluster-critical', labels: { 'k8s-app': 'kube-dns' }, ownerKind: 'ReplicaSet' }));
    },
    async stop() {
      await api.stop();
      fs.rmSync(store, { recursive: true, force: true });
    },
  };
}
