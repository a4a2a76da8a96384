import type { KubeObject } from './kube-store';

/** What a test says about a node; the rest is what a kops-style node registers with. */
export interface NodeOptions {
  /** `control-plane` or `node` (default). */
  role?: 'control-plane' | 'node';
  instanceGroup?: string;
  /** The EC2 instance id in the providerID (`aws:///<zone>/<id>`). */
  instanceId?: string;
  zone?: string;
  /** Ready condition; default True. */
  ready?: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  unschedulable?: boolean;
  annotations?: Record<string, string>;
}

/** A Node as kubelet registers it on a kops-style cluster (labels, providerID, the four pressure conditions and Ready). */
export function kubeNode(name: string, o: NodeOptions = {}): KubeObject {
  const role = o.role ?? 'node';
  const ready = o.ready ?? 'True';
  const t = '2026-01-01T00:00:00Z';
  const cond = (type: string, status: string, reason: string, message: string): Record<string, string> => ({ type, status, reason, message, lastHeartbeatTime: t, lastTransitionTime: t });
  return {
    metadata: {
      name,
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        [`node-role.kubernetes.io/${role}`]: '',
        ...(role === 'control-plane' ? { 'node.kubernetes.io/exclude-from-external-load-balancers': '' } : {}),
        ...(o.instanceGroup ? { 'kops.k8s.io/instancegroup': o.instanceGroup } : {}),
        ...(o.zone ? { 'topology.kubernetes.io/zone': o.zone } : {}),
      },
      ...(o.annotations ? { annotations: o.annotations } : {}),
    },
    spec: {
      ...(o.instanceId ? { providerID: `aws:///${o.zone ?? 'us-east-1a'}/${o.instanceId}` } : {}),
      ...(o.unschedulable ? { unschedulable: true } : {}),
      ...(role === 'control-plane' ? { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] } : {}),
    },
    status: {
      conditions: [
        cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        cond('Ready', ready, o.reason ?? (ready === 'True' ? 'KubeletReady' : 'KubeletNotReady'), o.message ?? (ready === 'True' ? 'kubelet is posting ready status' : '')),
      ],
      nodeInfo: { kubeletVersion: 'v1.31.4', containerRuntimeVersion: 'containerd://1.7.24', osImage: 'Ubuntu 24.04 LTS', kernelVersion: '6.8.0', architecture: 'amd64', operatingSystem: 'linux' },
    },
  };
}

/** What a test says about a pod. */
export interface PodOptions {
  namespace?: string;
  nodeName?: string;
  labels?: Record<string, string>;
  priorityClassName?: string;
  /** Default Running. */
  phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed';
  /** Default true when Running. */
  ready?: boolean;
  /** A waiting container: its reason and message (CrashLoopBackOff, ImagePullBackOff) and restarts. */
  waiting?: { reason: string; message?: string; restartCount?: number };
  /** A PodScheduled=False condition (Unschedulable) with the scheduler's message. */
  unschedulable?: string;
  /** The controller that owns it (`DaemonSet`, `ReplicaSet`, `Node` for a mirror pod). */
  ownerKind?: string;
  /** A static pod's mirror (annotation kubernetes.io/config.mirror). */
  mirror?: boolean;
}

/** A Pod with the status fields kubelet and the scheduler set. */
export function kubePod(name: string, o: PodOptions = {}): KubeObject {
  const phase = o.phase ?? (o.unschedulable !== undefined ? 'Pending' : 'Running');
  const ready = o.ready ?? (phase === 'Running' && !o.waiting);
  const t = '2026-01-01T00:00:00Z';
  const conditions: Record<string, string>[] = [];
  if (o.unschedulable !== undefined) conditions.push({ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: o.unschedulable, lastTransitionTime: t });
  else conditions.push({ type: 'PodScheduled', status: 'True', lastTransitionTime: t }, { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: t, ...(ready ? {} : { reason: 'ContainersNotReady' }) });
  return {
    metadata: {
      name,
      namespace: o.namespace ?? 'default',
      labels: o.labels ?? {},
      ...(o.mirror ? { annotations: { 'kubernetes.io/config.mirror': 'mirror', 'kubernetes.io/config.source': 'file' } } : {}),
      ...(o.ownerKind ? { ownerReferences: [{ apiVersion: o.ownerKind === 'Node' ? 'v1' : 'apps/v1', kind: o.ownerKind, name: o.ownerKind === 'Node' ? (o.nodeName ?? '') : `${name}-owner`, uid: `uid-${name}-owner`, controller: true }] } : {}),
    },
    spec: {
      ...(o.nodeName && o.unschedulable === undefined ? { nodeName: o.nodeName } : {}),
      ...(o.priorityClassName ? { priorityClassName: o.priorityClassName, priority: o.priorityClassName === 'system-node-critical' ? 2000001000 : 2000000000 } : {}),
      containers: [{ name: 'main', image: 'registry.k8s.io/pause:3.10' }],
      terminationGracePeriodSeconds: 30,
    },
    status: {
      phase,
      conditions,
      ...(phase === 'Running' || o.waiting
        ? { containerStatuses: [{ name: 'main', ready, restartCount: o.waiting?.restartCount ?? 0, image: 'registry.k8s.io/pause:3.10', state: o.waiting ? { waiting: { reason: o.waiting.reason, ...(o.waiting.message ? { message: o.waiting.message } : {}) } } : { running: { startedAt: t } } }] }
        : {}),
    },
  };
}
