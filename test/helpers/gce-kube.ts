import * as fs from 'node:fs';
import * as path from 'node:path';
import { ChannelVersion } from '../../src/protokube/addons/channel-version';
import { parseAddonChannel } from '../../src/protokube/addons/addon-channel';
import type { Vfs } from '../../src/state/vfs/vfs';
import type { FakeCompute } from '../fakes/gce/compute-fake';
import type { FakeKubeApi } from '../fakes/kube/fake-kube-api-server';
import { startClusterKubeApi } from './cluster-kube-api';
import { kubeNode, kubePod } from '../fakes/kube/kube-objects';
import { controlPlanePods } from './validate-cluster-setup';


/** The fake API of a GCE cluster in the fake Compute API, a kubeconfig for it, and the kubelets a test plays. */
export interface GceKube {
  api: FakeKubeApi;
  /** A kubeconfig file whose context (named after the cluster) is an admin of the fake. */
  kubeconfig: string;
  /** Registers a Ready Node for every RUNNING instance of the cluster that has not booted yet; returns how many. */
  register(): number;
  /** The instance's kubelet starts again (a reboot): it registers its Node anew. */
  restart(instance: string): void;
  /** Keeps registering every `ms` until stop(). */
  startKubelets(ms?: number): void;
  stop(): Promise<void>;
}

/**
 * A fake kube-apiserver trusting the cluster's CA, whose Nodes are the fake Compute API's instances as a kops
 * node on GCE registers: named after the instance, `providerID: gce://<project>/<zone>/<name>`, labelled with
 * its instance group; the control plane's static pods, a CoreDNS pod, and the bootstrap channel's addons
 * recorded on kube-system as protokube records them. A kubelet registers once per boot: an instance recreated
 * under the same name (a new id) registers again; the Node of an instance that is gone is deleted (the cloud
 * node controller's job).
 */
export async function startGceKube(vfs: Vfs, storeDir: string, fake: FakeCompute, cluster: string, project: string, dir: string): Promise<GceKube> {
  const { api, kubeconfig } = await startClusterKubeApi(vfs, cluster, dir);
  const channel = path.join(storeDir, cluster, 'addons', 'bootstrap-channel.yaml');
  if (fs.existsSync(channel)) {
    const ns = api.store.get('namespaces', 'kube-system');
    const annotations = { ...(ns.metadata.annotations ?? {}) };
    for (const a of parseAddonChannel(fs.readFileSync(channel, 'utf8'), channel)) annotations[ChannelVersion.annotation(a.name)] = new ChannelVersion(undefined, a.id, a.manifestHash).encode();
    api.store.put('namespaces', { ...ns, metadata: { ...ns.metadata, annotations } });
  }
  const booted = new Set<string>();
  let dnsPlaced = false;
  const register = (): number => {
    const instances = [...fake.store.collections].filter(([c]) => c.startsWith(`projects/${project}/zones/`) && c.endsWith('/instances')).flatMap(([, items]) => [...items.values()]);
    const names = new Set(instances.map((i) => String(i.name)));
    for (const n of api.store.list('nodes')) if (!names.has(n.metadata.name)) api.store.delete('nodes', n.metadata.name, undefined);
    let added = 0;
    for (const i of instances) {
      const id = String(i.id);
      if (booted.has(id) || i.status !== 'RUNNING') continue;
      booted.add(id);
      const labels = (i.labels ?? {}) as Record<string, string>;
      const role = labels['k8s-io-role-control-plane'] !== undefined ? ('control-plane' as const) : ('node' as const);
      const zone = String(i.zone).split('/').pop();
      const name = String(i.name);
      const node = kubeNode(name, { role, instanceGroup: labels['k8s-io-instance-group'], zone });
      node.spec = { ...(node.spec ?? {}), providerID: `gce://${project}/${zone}/${name}` };
      api.store.put('nodes', node);
      if (role === 'control-plane') for (const p of controlPlanePods(name)) api.store.put('pods', p);
      else if (!dnsPlaced) {
        api.store.put('pods', kubePod('coredns-abc', { namespace: 'kube-system', nodeName: name, priorityClassName: 'system-cluster-critical', labels: { 'k8s-app': 'kube-dns' }, ownerKind: 'ReplicaSet' }));
        dnsPlaced = true;
      }
      added++;
    }
    return added;
  };
  let timer: NodeJS.Timeout | undefined;
  return {
    api,
    kubeconfig,
    register,
    restart(instance) {
      const i = [...fake.store.collections].filter(([c]) => c.endsWith('/instances')).flatMap(([, items]) => [...items.values()]).find((x) => x.name === instance);
      booted.delete(String(i?.id));
      register();
    },
    startKubelets(ms = 20) {
      timer = setInterval(register, ms);
    },
    async stop() {
      if (timer) clearInterval(timer);
      await api.stop();
    },
  };
}
