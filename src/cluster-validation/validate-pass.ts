import type { V1Namespace, V1Node, V1Pod } from '@kubernetes/client-node';
import type { InstanceGroup } from '../api/types';
import type { CloudMachines } from '../cloud/cloud-provider';
import type { ChannelAddon } from '../protokube/addons/addon-channel';
import { checkAddons } from './addon-checks';
import { apiCallProblem, probeApi, ProbeOptions } from './api-reachability';
import { checkInstanceGroups, unregisteredMachines, UnregisteredMachine } from './cloud-checks';
import { describeStage, parseConsoleStage } from './console-stage';
import { loadClientNode, KubeAccess } from './kube-access';
import { checkControlPlanePods, checkCriticalPods, checkNodesReady, controlPlaneComponents, validatedNodes } from './kube-checks';
import { sortFailures, ValidationFailure, ValidationResult } from './validation-result';

/** What one validation pass needs. */
export interface PassInputs extends ProbeOptions {
  cluster: string;
  instanceGroups: InstanceGroup[];
  /** The spec's etcd cluster names (`main`, `events`): one etcd pod each per control-plane node. */
  etcdClusters: string[];
  access: KubeAccess;
  /** The cluster's cloud; undefined skips the cloud checks (a cloud kforge does not read yet). */
  cloud?: CloudMachines;
  /** The bootstrap channel's addons (from the state store), checked against the versions protokube recorded; none: no check. */
  addons?: Pick<ChannelAddon, 'name' | 'namespace' | 'id' | 'manifestHash'>[];
  /** Counts the Kubernetes API requests made (for the bench and `--verbose`). */
  kubeCalls?: Map<string, number>;
}

async function machineCause(cloud: CloudMachines, m: UnregisteredMachine): Promise<string> {
  const i = m.instance;
  if (i.state !== 'running') return `instance is ${i.state}${i.stateReason ? ` (${i.stateReason})` : ''}`;
  const stage = parseConsoleStage(await cloud.consoleOutput(i.instanceId));
  return stage ? describeStage(stage) : 'no nodeup stage on the console yet (still booting, or user-data did not run nodeup)';
}

/**
 * One validation pass, every check in order, collecting every failure: (1) the API is reachable, (2)
 * each instance group matches its cloud group, (3) machines without a Node and why, (4) nodes Ready, (5)
 * control-plane pods, (6) system-critical pods, (7) with a bootstrap channel, each addon applied at its
 * version. The Kubernetes side is two list calls (nodes, pods), three with a channel (namespaces); the
 * cloud side three Describe calls, plus one GetConsoleOutput per machine that has not registered.
 */
export async function validatePass(i: PassInputs): Promise<ValidationResult> {
  const failures: ValidationFailure[] = [];
  const cloudState = i.cloud ? await i.cloud.instances() : undefined;
  if (cloudState) failures.push(...checkInstanceGroups(i.instanceGroups, cloudState));

  let lists: { nodes: V1Node[]; pods: V1Pod[]; namespaces?: V1Namespace[] } | undefined;
  let problem = await probeApi(i.access, i);
  if (!problem) {
    const k8s = await loadClientNode();
    const core = i.access.kc.makeApiClient(k8s.CoreV1Api);
    const count = (what: string): void => void i.kubeCalls?.set(what, (i.kubeCalls.get(what) ?? 0) + 1);
    try {
      count('list nodes');
      const nodes = await core.listNode();
      count('list pods');
      const pods = await core.listPodForAllNamespaces();
      lists = { nodes: nodes.items, pods: pods.items };
      if (i.addons && i.addons.length > 0) {
        count('list namespaces');
        lists.namespaces = (await core.listNamespace()).items;
      }
    } catch (e) {
      problem = apiCallProblem(e, i.access.source);
    }
  }
  if (problem) failures.push({ kind: 'API', name: i.access.server, message: `the API at ${i.access.server} cannot be used: ${problem.message}`, cause: problem.step });

  const nodes = lists ? validatedNodes(lists.nodes) : [];
  // Without the API every machine would look unregistered: the check needs the node list.
  if (lists && cloudState && i.cloud) {
    const cloud = i.cloud;
    const missing = unregisteredMachines(cloudState, nodes);
    const causes = await Promise.all(missing.map((m) => machineCause(cloud, m)));
    missing.forEach((m, n) => {
      const ig = m.instance.instanceGroup ?? m.group?.instanceGroup;
      failures.push({ kind: 'Machine', name: m.instance.instanceId, ...(ig ? { instanceGroup: ig } : {}), message: `machine ${m.instance.instanceId}${ig ? ` of instance group "${ig}"` : ''} has not registered as a node`, cause: causes[n] });
    });
  }
  if (lists) {
    failures.push(...checkNodesReady(nodes));
    failures.push(...checkControlPlanePods(nodes, lists.pods, controlPlaneComponents(i.etcdClusters)));
    failures.push(...checkCriticalPods(lists.pods));
    if (i.addons && lists.namespaces) failures.push(...checkAddons(i.addons, lists.namespaces));
  }
  const sorted = sortFailures(failures);
  return { cluster: i.cluster, valid: sorted.length === 0, failures: sorted, nodes };
}
