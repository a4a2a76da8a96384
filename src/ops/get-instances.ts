import { loadCloudProvider } from '../cloud/cloud-provider';
import { apiCallProblem, Lookup, probeApi } from '../cluster-validation/api-reachability';
import { instanceIdOf } from '../cluster-validation/cloud-checks';
import { loadClientNode, resolveKubeAccess } from '../cluster-validation/kube-access';
import { NotFoundError } from '../errors/not-found-error';
import { NotSupportedError } from '../errors/not-supported-error';
import { performAssignments } from '../expand/perform-assignments';
import { ClusterRepository } from '../state/cluster-repository';
import type { Vfs } from '../state/vfs/vfs';
import { completeCluster } from './expand-cluster';
import { issueAdminCredential } from './issue-admin-credential';

/** One row of `get instances`. */
export interface InstanceRow {
  id: string;
  instanceGroup?: string;
  role: string;
  /** EC2 state: pending, running, stopping, stopped, shutting-down (GCE's status in these words). */
  state: string;
  /** The Node registered for it; absent when none (or the API could not be read). */
  nodeName?: string;
  /** The Node's Ready condition is True; absent without a Node. */
  ready?: boolean;
  /** Launched from an older launch-template version than its group's (GCE: another instance template than its MIG's), or its Node is annotated kops.k8s.io/needs-update. */
  needsUpdate: boolean;
  /** Why it needs an update. */
  updateReasons: string[];
}

/** Inputs of `get instances`. */
export interface GetInstancesOptions {
  cluster: string;
  kubeconfig?: string;
  server?: string;
  env?: NodeJS.ProcessEnv;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  lookup?: Lookup;
  timeoutMs?: number;
}

/** The instances and, when the API answers, why nodes could not be read (`apiProblem`). */
export interface GetInstancesResult {
  rows: InstanceRow[];
  apiProblem?: string;
}

const NEEDS_UPDATE = 'kops.k8s.io/needs-update';

/**
 * Every instance of the cluster with its group, role, state, node and whether it needs an update: three
 * Describe calls on AWS (two aggregated lists on GCE) and one node list, however many instances there are. Nodes are matched by the
 * providerID's instance id, else by the instance's private DNS name.
 */
export async function getInstances(vfs: Vfs, o: GetInstancesOptions): Promise<GetInstancesResult> {
  const repo = new ClusterRepository(vfs);
  if (!(await repo.exists(o.cluster))) throw new NotFoundError(`cluster "${o.cluster}" not found in state store ${vfs.url}`);
  const stored = await repo.get(o.cluster);
  const completed = completeCluster(performAssignments(stored.cluster.object), stored.instanceGroups.map((v) => v.object), vfs.url);
  const provider = completed.spec.cloudProvider ?? 'aws';
  if (provider !== 'aws' && provider !== 'gce') throw new NotSupportedError(`get instances reads AWS and GCE only; cluster "${o.cluster}" is on ${provider}`);
  const clouds = await loadCloudProvider(provider, 'get instances');
  const cloud = await clouds.connect(stored.cluster.object, { env: o.env, credentials: o.credentials });
  const state = await clouds.machines(cloud).instances();

  const access = await resolveKubeAccess({
    cluster: o.cluster,
    kubeconfig: o.kubeconfig,
    server: o.server ?? `https://${completed.spec.masterPublicName ?? `api.${o.cluster}`}`,
    env: o.env,
    issueAdmin: () => issueAdminCredential(vfs, o.cluster, 3600 * 1000),
  });
  let nodes: Array<{ name: string; instanceId?: string; ready: boolean; needsUpdate: boolean }> = [];
  let apiProblem: string | undefined;
  const problem = await probeApi(access, o);
  if (problem) apiProblem = problem.message;
  else {
    try {
      const k8s = await loadClientNode();
      const list = await access.kc.makeApiClient(k8s.CoreV1Api).listNode();
      nodes = list.items.map((n) => ({
        name: n.metadata?.name ?? '',
        instanceId: instanceIdOf(n.spec?.providerID),
        ready: (n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
        needsUpdate: n.metadata?.annotations?.[NEEDS_UPDATE] !== undefined,
      }));
    } catch (e) {
      apiProblem = apiCallProblem(e, access.source).message;
    }
  }

  const rows = state.instances.map((i): InstanceRow => {
    const group = state.groups.find((g) => g.name === i.group);
    const member = group?.members.find((m) => m.instanceId === i.instanceId);
    const node = nodes.find((n) => n.instanceId === i.instanceId) ?? nodes.find((n) => i.privateDnsName !== undefined && n.name === i.privateDnsName);
    const reasons: string[] = [];
    if (member?.launchTemplateVersion && group?.currentTemplateVersion && member.launchTemplateVersion !== group.currentTemplateVersion) {
      // AWS: a launch template's versions; GCE: the instance template itself (a new one per change).
      reasons.push(state.groupKind === 'managed instance group' ? `instance template ${member.launchTemplateVersion}, its MIG's is ${group.currentTemplateVersion}` : `launch template version ${member.launchTemplateVersion}, group's is ${group.currentTemplateVersion}`);
    }
    if (node?.needsUpdate) reasons.push(`node annotated ${NEEDS_UPDATE}`);
    return {
      id: i.instanceId,
      ...(i.instanceGroup ?? group?.instanceGroup ? { instanceGroup: i.instanceGroup ?? group?.instanceGroup } : {}),
      role: group?.role ?? 'unknown',
      state: i.state,
      ...(node ? { nodeName: node.name, ready: node.ready } : {}),
      needsUpdate: reasons.length > 0,
      updateReasons: reasons,
    };
  });
  rows.sort((a, b) => (a.instanceGroup ?? '').localeCompare(b.instanceGroup ?? '') || a.id.localeCompare(b.id));
  return { rows, apiProblem };
}
