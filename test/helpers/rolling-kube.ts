import { DescribeInstancesCommand, EC2Client } from '@aws-sdk/client-ec2';
import type { Vfs } from '../../src/state/vfs/vfs';
import type { FakeKubeApi } from '../fakes/kube/fake-kube-api-server';
import { startClusterKubeApi } from './cluster-kube-api';
import { kubeNode, kubePod } from '../fakes/kube/kube-objects';
import { controlPlanePods } from './validate-cluster-setup';
import type { MotoServer } from './moto-server';
import { MOTO_CREDENTIALS } from './rolling-cluster';


/** The fake API of a cluster in moto, a kubeconfig for it, and the kubelets a test plays. */
export interface RollingKube {
  api: FakeKubeApi;
  /** A kubeconfig file whose context (named after the cluster) is an admin of the fake. */
  kubeconfig: string;
  /** Registers a Ready Node for every running instance without one, as its kubelet would; returns how many. */
  register(): Promise<number>;
  /** Keeps registering every `ms` until stop(). */
  startKubelets(ms?: number): void;
  /** Ready, schedulable Nodes of an instance group. */
  schedulable(instanceGroup: string): string[];
  stop(): Promise<void>;
}

/**
 * A fake kube-apiserver trusting the cluster's CA (from its state store), with a Node per instance moto
 * runs: named by the instance's private DNS name with its providerID, as a kops node on AWS registers
 * (labels from the instance's `kops.k8s.io/instancegroup` tag), the control plane's static pods, and a
 * CoreDNS pod. New instances (an Auto Scaling group's replacements) get their Node from `register`.
 */
export async function startRollingKube(vfs: Vfs, moto: MotoServer, cluster: string, dir: string): Promise<RollingKube> {
  const { api, kubeconfig } = await startClusterKubeApi(vfs, cluster, dir);
  const ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: MOTO_CREDENTIALS });
  let dnsPlaced = false;
  // A kubelet registers its Node once, at boot: an instance whose Node a drain deleted stays without one.
  const booted = new Set<string>();
  const register = async (): Promise<number> => {
    const out = await ec2.send(new DescribeInstancesCommand({ Filters: [{ Name: 'tag:KubernetesCluster', Values: [cluster] }] }));
    const all = (out.Reservations ?? []).flatMap((r) => r.Instances ?? []);
    // The cloud node controller deletes the Node of an instance that no longer runs.
    const gone = new Set(all.filter((i) => i.State?.Name !== 'running' && i.State?.Name !== 'pending').map((i) => i.InstanceId));
    for (const n of api.store.list('nodes')) if (gone.has(String(n.spec?.providerID ?? '').split('/').pop())) api.store.delete('nodes', n.metadata.name, undefined);
    let added = 0;
    for (const i of all) {
      if (!i.InstanceId || booted.has(i.InstanceId) || i.State?.Name !== 'running') continue;
      booted.add(i.InstanceId);
      const tag = (k: string): string | undefined => i.Tags?.find((t) => t.Key === k)?.Value;
      const role = i.Tags?.some((t) => t.Key === 'k8s.io/role/control-plane') ? ('control-plane' as const) : ('node' as const);
      const name = i.PrivateDnsName || `node-${i.InstanceId}`;
      api.store.put('nodes', kubeNode(name, { role, instanceGroup: tag('kops.k8s.io/instancegroup'), instanceId: i.InstanceId, zone: i.Placement?.AvailabilityZone }));
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
  let busy = false;
  await register();
  return {
    api,
    kubeconfig,
    register,
    startKubelets(ms = 20) {
      timer = setInterval(() => {
        if (busy) return;
        busy = true;
        register().then(
          () => (busy = false),
          () => (busy = false),
        );
      }, ms);
    },
    schedulable: (ig) =>
      api.store
        .list('nodes')
        .filter((n) => n.metadata.labels?.['kops.k8s.io/instancegroup'] === ig && !n.spec?.unschedulable && n.status?.conditions?.some((c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True'))
        .map((n) => n.metadata.name)
        .sort(),
    async stop() {
      if (timer) clearInterval(timer);
      while (busy) await new Promise((r) => setTimeout(r, 10));
      ec2.destroy();
      await api.stop();
    },
  };
}
