import type { KubeConfig, V1LabelSelector, V1Pod, V1PodDisruptionBudget } from '@kubernetes/client-node';
import { RollingUpdateError } from '../errors/rolling-update-error';
import type { DrainBlocked, RollingUpdateKube, RollingUpdateNode, ValidationPass } from './rolling-update-kube';

/** kops's annotation that asks a rolling update to replace the node whatever its version. */
export const NEEDS_UPDATE_ANNOTATION = 'kops.k8s.io/needs-update';

/** kops's taint on the nodes a rolling update will replace. */
export const SCHEDULED_FOR_UPDATE_TAINT = 'kops.k8s.io/scheduled-for-update';

/** The HTTP status of a client-node error (`ApiException.code`), if it is one. */
function statusOf(e: unknown): number | undefined {
  const code = (e as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' ? code : undefined;
}

/** `aws:///us-east-1a/i-0123` → `i-0123`; on GCE `gce://<project>/<zone>/<name>` → the instance's name, kops's id there. */
export function instanceIdOfProviderId(providerId: string | undefined): string | undefined {
  const m = /^aws:\/\/\/[^/]*\/(i-[0-9a-f]+)$/.exec(providerId ?? '') ?? /^gce:\/\/[^/]+\/[^/]+\/([a-z0-9-]+)$/.exec(providerId ?? '');
  return m?.[1];
}

/** Whether a label selector (matchLabels and matchExpressions) selects these labels, as the API server decides. */
export function selects(selector: V1LabelSelector | undefined, labels: Record<string, string> = {}): boolean {
  // An empty (or missing) selector of a policy/v1 PDB selects every pod of its namespace.
  for (const [k, v] of Object.entries(selector?.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector?.matchExpressions ?? []) {
    const has = e.key in labels;
    const inValues = has && (e.values ?? []).includes(labels[e.key]);
    if (e.operator === 'In' && !inValues) return false;
    if (e.operator === 'NotIn' && inValues) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

/** Pods a drain leaves alone, as kops's drain (IgnoreAllDaemonSets, Force): DaemonSet pods and static pods' mirrors. */
function skipped(pod: V1Pod): boolean {
  if (pod.metadata?.annotations?.['kubernetes.io/config.mirror'] !== undefined) return true;
  return (pod.metadata?.ownerReferences ?? []).some((o) => o.controller === true && o.kind === 'DaemonSet');
}

const podKey = (p: V1Pod): string => `${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}`;

/**
 * The Kubernetes side of a rolling update through @kubernetes/client-node: Nodes, cordon (a merge patch of
 * `spec.unschedulable`), drain through the Eviction API (policy/v1), Node deletion, and the cluster's
 * validation pass, which the caller supplies (the one `kforge validate cluster` runs).
 */
export async function clientNodeRollingUpdateKube(kc: KubeConfig, validate: () => Promise<ValidationPass>): Promise<RollingUpdateKube> {
  const k8s = await import('@kubernetes/client-node');
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const policy = kc.makeApiClient(k8s.PolicyV1Api);
  const mergePatch = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

  const budgetOf = async (pod: V1Pod): Promise<string | undefined> => {
    const ns = pod.metadata?.namespace ?? 'default';
    const pdbs: V1PodDisruptionBudget[] = (await policy.listNamespacedPodDisruptionBudget({ namespace: ns })).items;
    const match = pdbs.filter((b) => selects(b.spec?.selector, pod.metadata?.labels)).map((b) => `${ns}/${b.metadata?.name ?? ''}`);
    return match.sort()[0];
  };

  const drain = async (node: string, o: { timeoutMs: number; retryMs: number; onBlocked?: (b: DrainBlocked) => void }): Promise<void> => {
    const deadline = Date.now() + o.timeoutMs;
    let blocked: DrainBlocked[] = [];
    for (;;) {
      const pods = (await core.listPodForAllNamespaces({ fieldSelector: `spec.nodeName=${node}` })).items.filter((p) => !skipped(p));
      if (pods.length === 0) return;
      blocked = [];
      for (const pod of pods) {
        if (pod.metadata?.deletionTimestamp) continue; // evicted, waiting for its kubelet to stop it
        const name = pod.metadata?.name ?? '';
        const namespace = pod.metadata?.namespace ?? 'default';
        try {
          await core.createNamespacedPodEviction({ name, namespace, body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace } } });
        } catch (e) {
          const status = statusOf(e);
          if (status === 404) continue; // gone already
          if (status !== 429) throw e;
          // 429: a PodDisruptionBudget allows no disruption now; kubectl retries, and so do we until --drain-timeout.
          const b: DrainBlocked = { node, pod: podKey(pod), pdb: await budgetOf(pod), message: 'evicting it would violate its PodDisruptionBudget' };
          blocked.push(b);
          o.onBlocked?.(b);
        }
      }
      if (Date.now() >= deadline) {
        const what = blocked.length > 0 ? blocked.map((b) => `pod ${b.pod} is protected by PodDisruptionBudget ${b.pdb ?? '(unknown)'}`).join('; ') : `pod(s) ${pods.map(podKey).join(', ')} did not terminate`;
        throw new RollingUpdateError('DRAIN_FAILED', `node "${node}" was not drained within ${Math.round(o.timeoutMs / 1000)}s (--drain-timeout): ${what}. Free the budget, or pass --force-drain to go on without a complete drain`);
      }
      await sleep(Math.min(o.retryMs, Math.max(0, deadline - Date.now())));
    }
  };

  return {
    nodes: async (): Promise<RollingUpdateNode[]> =>
      (await core.listNode()).items
        .map((n) => ({
          name: n.metadata?.name ?? '',
          instanceId: instanceIdOfProviderId(n.spec?.providerID),
          ready: (n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
          unschedulable: n.spec?.unschedulable === true,
          needsUpdate: n.metadata?.annotations?.[NEEDS_UPDATE_ANNOTATION] !== undefined,
        }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    taintForUpdate: async (node) => {
      try {
        const taints = (await core.readNode({ name: node })).spec?.taints ?? [];
        if (taints.some((t) => t.key === SCHEDULED_FOR_UPDATE_TAINT)) return;
        // A merge patch replaces the whole list: the node's own taints are sent back with ours.
        await core.patchNode({ name: node, body: { spec: { taints: [...taints, { key: SCHEDULED_FOR_UPDATE_TAINT, effect: 'PreferNoSchedule' }] } } }, mergePatch);
      } catch (e) {
        if (statusOf(e) !== 404) throw e;
      }
    },
    cordon: async (node) => {
      try {
        await core.patchNode({ name: node, body: { spec: { unschedulable: true } } }, mergePatch);
      } catch (e) {
        if (statusOf(e) !== 404) throw e;
      }
    },
    drain,
    deleteNode: async (node) => {
      try {
        await core.deleteNode({ name: node });
      } catch (e) {
        if (statusOf(e) !== 404) throw e;
      }
    },
    validate,
  };
}
