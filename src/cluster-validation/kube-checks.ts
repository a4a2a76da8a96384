import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { instanceIdOf } from './cloud-checks';
import type { ValidatedNode, ValidationFailure } from './validation-result';

const CONTROL_PLANE_LABELS = ['node-role.kubernetes.io/control-plane', 'node-role.kubernetes.io/master'];
const CRITICAL = new Set(['system-cluster-critical', 'system-node-critical']);

/** A node's role from its labels (kops labels control-plane nodes `node-role.kubernetes.io/control-plane`). */
export function nodeRole(node: V1Node): 'control-plane' | 'node' {
  const labels = node.metadata?.labels ?? {};
  return CONTROL_PLANE_LABELS.some((l) => l in labels) ? 'control-plane' : 'node';
}

/** The nodes as validate reports them, control plane first, then by name. */
export function validatedNodes(nodes: V1Node[]): ValidatedNode[] {
  return nodes
    .map((n) => {
      const ready = (n.status?.conditions ?? []).find((c) => c.type === 'Ready');
      const labels = n.metadata?.labels ?? {};
      return {
        name: n.metadata?.name ?? '',
        role: nodeRole(n),
        instanceGroup: labels['kops.k8s.io/instancegroup'],
        instanceId: instanceIdOf(n.spec?.providerID),
        zone: labels['topology.kubernetes.io/zone'],
        ready: ready?.status === 'True',
        status: ready?.status ?? 'Unknown',
        ...(ready?.reason ? { reason: ready.reason } : {}),
        ...(ready?.message ? { message: ready.message } : {}),
      };
    })
    .sort((a, b) => (a.role === b.role ? a.name.localeCompare(b.name) : a.role === 'control-plane' ? -1 : 1));
}

/** Check 4: every node is Ready; a node that is not shows its Ready condition's reason and message. */
export function checkNodesReady(nodes: ValidatedNode[]): ValidationFailure[] {
  return nodes
    .filter((n) => !n.ready)
    .map((n) => ({
      kind: 'Node' as const,
      name: n.name,
      ...(n.instanceGroup ? { instanceGroup: n.instanceGroup } : {}),
      message: `${n.role === 'control-plane' ? 'control-plane node' : 'node'} "${n.name}" is not Ready${n.message ? `: ${n.message}` : ''}`,
      cause: n.reason ?? `Ready=${n.status}`,
    }));
}

/** The static pods each control-plane node runs: the three components and one etcd per etcd cluster. */
export function controlPlaneComponents(etcdClusters: string[]): string[] {
  return ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', ...etcdClusters.map((e) => `etcd-${e}`)];
}

/** Check 5: each control-plane node has a pod (its static pod's mirror) of each component, found by `k8s-app` label and node. */
export function checkControlPlanePods(nodes: ValidatedNode[], pods: V1Pod[], components: string[]): ValidationFailure[] {
  const out: ValidationFailure[] = [];
  for (const n of nodes.filter((x) => x.role === 'control-plane')) {
    const here = pods.filter((p) => p.metadata?.namespace === 'kube-system' && p.spec?.nodeName === n.name);
    for (const c of components) {
      if (here.some((p) => p.metadata?.labels?.['k8s-app'] === c)) continue;
      out.push({ kind: 'ControlPlanePod', name: `kube-system/${c}-${n.name}`, ...(n.instanceGroup ? { instanceGroup: n.instanceGroup } : {}), message: `control-plane node "${n.name}" is not running ${c}`, cause: 'no pod' });
    }
  }
  return out;
}

function podReady(p: V1Pod): boolean {
  return (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** Why a pod is not ready: unschedulable with the scheduler's message, a waiting container's reason and restarts, or its phase. */
export function podWaitingReason(p: V1Pod): { cause: string; detail?: string } {
  const scheduled = (p.status?.conditions ?? []).find((c) => c.type === 'PodScheduled');
  if (scheduled?.status === 'False') return { cause: scheduled.reason ?? 'Unschedulable', detail: scheduled.message };
  const statuses = [...(p.status?.initContainerStatuses ?? []), ...(p.status?.containerStatuses ?? [])];
  const waiting = statuses.find((s) => s.state?.waiting?.reason);
  if (waiting) {
    const restarts = waiting.restartCount > 0 ? ` (restarted ${waiting.restartCount} times)` : '';
    return { cause: waiting.state?.waiting?.reason as string, detail: `container ${waiting.name}${restarts}${waiting.state?.waiting?.message ? `: ${waiting.state.waiting.message}` : ''}` };
  }
  const terminated = statuses.find((s) => s.state?.terminated);
  if (terminated) return { cause: terminated.state?.terminated?.reason ?? 'Terminated', detail: `container ${terminated.name} exited ${terminated.state?.terminated?.exitCode}` };
  const phase = p.status?.phase ?? 'Pending';
  return { cause: phase, detail: phase === 'Running' ? 'not ready' : undefined };
}

/** Check 6: system-critical pods (priority class system-cluster-critical or system-node-critical) are ready, or say why not. */
export function checkCriticalPods(pods: V1Pod[]): ValidationFailure[] {
  return pods
    .filter((p) => CRITICAL.has(p.spec?.priorityClassName ?? '') && p.status?.phase !== 'Succeeded' && !podReady(p))
    .map((p) => {
      const name = `${p.metadata?.namespace}/${p.metadata?.name}`;
      const why = podWaitingReason(p);
      const where = p.spec?.nodeName ? ` on node "${p.spec.nodeName}"` : '';
      return { kind: 'Pod' as const, name, message: `system-critical pod "${name}"${where} is not ready: ${why.cause}${why.detail ? `: ${why.detail}` : ''}`, cause: why.cause };
    });
}
