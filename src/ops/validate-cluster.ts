import { CloudConnection, loadCloudProvider } from '../cloud/cloud-provider';
import type { Lookup } from '../cluster-validation/api-reachability';
import { resolveKubeAccess } from '../cluster-validation/kube-access';
import { validatePass } from '../cluster-validation/validate-pass';
import type { ValidationResult } from '../cluster-validation/validation-result';
import { NotFoundError } from '../errors/not-found-error';
import { performAssignments } from '../expand/perform-assignments';
import { ClusterRepository } from '../state/cluster-repository';
import type { Vfs } from '../state/vfs/vfs';
import { ChannelAddon, parseAddonChannel } from '../protokube/addons/addon-channel';
import { completeCluster } from './expand-cluster';
import { issueAdminCredential } from './issue-admin-credential';

// Long enough for a --wait of hours; the certificate lives in this process's memory only.
const ADMIN_VALIDITY_MS = 24 * 3600 * 1000;

/** Inputs of `validate cluster`. */
export interface ValidateClusterOptions {
  cluster: string;
  kubeconfig?: string;
  /** Keep validating until valid or this much time has passed (ms); 0: one verdict. */
  waitMs?: number;
  /** Between passes (ms); default 10 s. */
  intervalMs?: number;
  /** Consecutive valid passes required; default 1. */
  count?: number;
  /** The API URL instead of the spec's `https://api.<cluster>` (a tunnel; tests). */
  server?: string;
  env?: NodeJS.ProcessEnv;
  /** Static AWS credentials (tests); default the SDK's chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  lookup?: Lookup;
  /** TCP connect and TLS handshake timeout of the API probe (ms). */
  timeoutMs?: number;
  /** Called after each pass (progress on a terminal). */
  onPass?: (p: { pass: number; result: ValidationResult; successes: number; count: number }) => void;
  /** Default: setTimeout. */
  sleep?: (ms: number) => Promise<void>;
}

/** The verdict of `validate cluster` and what it cost. */
export interface ValidateClusterResult {
  /** The last pass. */
  result: ValidationResult;
  /** Valid `count` times in a row. */
  valid: boolean;
  passes: number;
  /** --wait ran out before the cluster was valid `count` times in a row. */
  timedOut: boolean;
  /** Kubernetes API requests of all passes, by call. */
  kubeCalls: Record<string, number>;
  /** Cloud API calls of all passes (and the one credentials check), by operation. */
  cloudCalls: Record<string, number>;
  credentials: string;
}

/**
 * Validates a cluster (see docs/validate.md): one pass, or with `waitMs` passes every `intervalMs`
 * until `count` consecutive passes are valid (a failure resets the count) or the time is up; as in kops,
 * without a wait the first invalid pass is the verdict.
 */
export async function validateCluster(vfs: Vfs, o: ValidateClusterOptions): Promise<ValidateClusterResult> {
  const repo = new ClusterRepository(vfs);
  if (!(await repo.exists(o.cluster))) throw new NotFoundError(`cluster "${o.cluster}" not found in state store ${vfs.url}`);
  const stored = await repo.get(o.cluster);
  const igs = stored.instanceGroups.map((v) => v.object);
  const completed = completeCluster(performAssignments(stored.cluster.object), igs, vfs.url);
  const server = o.server ?? `https://${completed.spec.masterPublicName ?? `api.${o.cluster}`}`;
  const access = await resolveKubeAccess({
    cluster: o.cluster,
    kubeconfig: o.kubeconfig,
    server,
    env: o.env,
    issueAdmin: () => issueAdminCredential(vfs, o.cluster, ADMIN_VALIDITY_MS),
  });
  const provider = completed.spec.cloudProvider ?? 'aws';
  const clouds = provider === 'aws' || provider === 'gce' ? await loadCloudProvider(provider, 'validate cluster') : undefined;
  const cloud: CloudConnection | undefined = clouds ? await clouds.connect(stored.cluster.object, { env: o.env, credentials: o.credentials, consequence: '; the cluster was not validated' }) : undefined;
  const machines = clouds && cloud ? clouds.machines(cloud) : undefined;
  const etcdClusters = (completed.spec.etcdClusters ?? []).map((e) => e.name).sort();
  const addons = await readChannel(vfs, o.cluster);
  const count = Math.max(1, o.count ?? 1);
  const waitMs = o.waitMs ?? 0;
  const intervalMs = o.intervalMs ?? 10_000;
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const deadline = Date.now() + waitMs;
  const kubeCalls = new Map<string, number>();
  let passes = 0;
  let successes = 0;
  for (;;) {
    const result = await validatePass({ cluster: o.cluster, instanceGroups: igs, etcdClusters, addons, access, cloud: machines, kubeCalls, lookup: o.lookup, timeoutMs: o.timeoutMs });
    passes++;
    successes = result.valid ? successes + 1 : 0;
    o.onPass?.({ pass: passes, result, successes, count });
    const done = successes >= count || (!result.valid && waitMs === 0) || (waitMs > 0 && Date.now() + intervalMs > deadline);
    if (done) {
      const valid = successes >= count;
      return {
        result,
        valid,
        passes,
        timedOut: !valid && waitMs > 0,
        kubeCalls: Object.fromEntries([...kubeCalls].sort(([a], [b]) => a.localeCompare(b))),
        cloudCalls: Object.fromEntries(Object.entries(cloud?.calls.snapshot() ?? {}).sort(([a], [b]) => a.localeCompare(b))),
        credentials: access.source,
      };
    }
    await sleep(intervalMs);
  }
}

/** The bootstrap channel `update` wrote (`<cluster>/addons/bootstrap-channel.yaml`), or undefined before there is one. */
async function readChannel(vfs: Vfs, cluster: string): Promise<ChannelAddon[] | undefined> {
  const key = `${cluster}/addons/bootstrap-channel.yaml`;
  const file = await vfs.read(key);
  return file ? parseAddonChannel(file.data.toString('utf8'), `${vfs.url}/${key}`) : undefined;
}
