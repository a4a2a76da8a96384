import type { CloudInstanceGroup } from '../cloud/aws/cloud-instance-groups';
import { NotSupportedError } from '../errors/not-supported-error';
import { RollingUpdateError } from '../errors/rolling-update-error';
import type { GroupPlan, PlannedInstance } from './rolling-update-plan';
import type { DrainBlocked, RollingUpdateKube, ValidationPass } from './rolling-update-kube';

/** The cloud calls of a rolling update (AWS: Auto Scaling and EC2). */
export interface RollingUpdateCloud {
  /** The cluster's groups by Auto Scaling group name, read fresh. */
  groups(): Promise<Map<string, CloudInstanceGroup>>;
  /**
   * Detaches the instance without lowering the desired capacity, so the group launches a replacement. Absent
   * where the cloud cannot surge (GCE, as in kops): `rolling-update cluster` then refuses a maxSurge above 0.
   */
  detach?(asgName: string, instanceId: string): Promise<void>;
  /** Terminates the instance (a member is then replaced by its group; a detached one is not). */
  terminate(instanceId: string): Promise<void>;
}

/** What a rolling update reports as it goes, in order; the CLI prints each as a line. */
export type RollingUpdateEvent =
  | { type: 'group'; group: string; replace: number; maxSurge: number; maxConcurrency: number }
  | { type: 'skip'; group: string; reason: string }
  | { type: 'taint'; group: string; nodes: string[] }
  | { type: 'detach'; group: string; instance: string; node?: string }
  | { type: 'cordon' | 'drained' | 'delete-node'; group: string; instance: string; node: string }
  | { type: 'drain-blocked'; group: string; blocked: DrainBlocked }
  | { type: 'drain-failed-ignored'; group: string; node: string; message: string }
  | { type: 'terminate'; group: string; instance: string; node?: string }
  | { type: 'wait'; group: string; what: string }
  | { type: 'validate'; group: string; pass: ValidationPass; successes: number }
  | { type: 'validation-failed-ignored'; group: string; message: string };

/** Timings and switches of a rolling update (kops's flags). */
export interface RollingUpdateTimings {
  /** Wait after each termination (and after a surge's detach), by role: `--bastion-interval`, `--control-plane-interval`, `--node-interval`. */
  intervalMs: (role: string) => number;
  /** `--validation-timeout`: per validation, and per wait for replacements. */
  validationTimeoutMs: number;
  /** `--validate-count`: consecutive successful passes needed; 0 skips validation. */
  validateCount: number;
  /** Between failed passes (kops: 30 s). */
  validateRetryMs: number;
  /** Between successful passes (kops: 10 s), so a flapping cluster is caught. */
  validateSuccessMs: number;
  /** `--drain-timeout`. */
  drainTimeoutMs: number;
  /** Between evictions a PodDisruptionBudget refused (kubectl: 5 s). */
  drainRetryMs: number;
  /** `--post-drain-delay`. */
  postDrainDelayMs: number;
  /** `--fail-on-drain-error` (false: `--force-drain`). */
  failOnDrainError: boolean;
  /** `--fail-on-validate-error`. */
  failOnValidateError: boolean;
  /** Between cloud polls while waiting for replacements. */
  pollMs: number;
}

/** One rolling update's collaborators: the cloud, Kubernetes (absent with `--cloudonly`), timings, events. */
export interface RollingUpdateRun {
  cloud: RollingUpdateCloud;
  kube?: RollingUpdateKube;
  timings: RollingUpdateTimings;
  report: (e: RollingUpdateEvent) => void;
  sleep: (ms: number) => Promise<void>;
}

/**
 * Replaces the group's instances that need it, as kops's rollingUpdateInstanceGroup: validate first; with
 * a surge, detach up to maxSurge old instances (the last ones, so they are drained last) and wait for their
 * replacements to join and be Ready; then drain and terminate up to maxSurge + maxUnavailable at a time,
 * validating after each. When no instance runs the current version yet, one goes first and must validate
 * before more follow, so a broken launch template costs one instance.
 */
export async function updateInstanceGroup(run: RollingUpdateRun, plan: GroupPlan): Promise<void> {
  const update = plan.needUpdate;
  if (update.length === 0 || !plan.cloud) return;
  const group = plan.name;
  const bastion = plan.role === 'Bastion';
  const kube = bastion ? undefined : run.kube;
  const maxSurge = Math.min(plan.settings.maxSurge, update.length);
  const maxConcurrency = maxSurge + plan.settings.maxUnavailable;
  if (maxConcurrency === 0) return run.report({ type: 'skip', group, reason: 'maxSurge and maxUnavailable are both 0: rolling updates of this group are disabled' });
  run.report({ type: 'group', group, replace: update.length, maxSurge, maxConcurrency });
  if (kube) {
    await validate(run, kube, group, 'before updating the group');
    await taintForUpdate(run, kube, group, update);
  }
  let noneReady = plan.ready.length === 0;
  // kops surges only with the Kubernetes API at hand: --cloudonly replaces in place.
  if (maxSurge > 0 && run.kube) {
    const detach = run.cloud.detach;
    // rolling-update cluster refuses this before changing anything; a guard for other callers.
    if (!detach) throw new NotSupportedError(`instance group "${group}": maxSurge ${maxSurge}, but this cloud cannot surge; set spec.rollingUpdate.maxSurge to 0`);
    for (let n = 1; n <= maxSurge; n++) {
      const u = update[update.length - n];
      if (u.detached) continue;
      run.report({ type: 'detach', group, instance: u.id, node: u.node?.name });
      await detach.call(run.cloud, plan.cloud.asgName, u.id);
      if (n === maxSurge || noneReady) {
        await run.sleep(run.timings.intervalMs(plan.role));
        await waitForReplacements(run, plan, group);
        if (kube) await validate(run, kube, group, 'after detaching');
        noneReady = false;
      }
    }
  }
  if (!plan.settings.drainAndTerminate) return run.report({ type: 'skip', group, reason: 'rollingUpdate.drainAndTerminate is false' });
  // Each replacement in flight, settled as an outcome (never rejected) so one failure can wait for the others.
  const running = new Map<string, Promise<{ id: string; error?: unknown }>>();
  const settle = async (): Promise<void> => {
    const done = await Promise.race(running.values());
    running.delete(done.id);
    if (done.error !== undefined) {
      // Let the drains in flight finish before reporting, as kops does: no instance is left half-done.
      await Promise.all(running.values());
      throw done.error;
    }
  };
  for (const [index, u] of update.entries()) {
    running.set(
      u.id,
      drainTerminate(run, plan, u).then(
        () => ({ id: u.id }),
        (error: unknown) => ({ id: u.id, error }),
      ),
    );
    if (running.size < maxConcurrency && (!noneReady || index > 0)) continue;
    await settle();
    await afterRemoval(run, plan, kube, group);
    noneReady = false;
  }
  if (running.size > 0) {
    while (running.size > 0) await settle();
    await afterRemoval(run, plan, kube, group);
  }
}

/** kops's taintAllNeedUpdate: the soft taint on every schedulable old node; a failure counts as a drain failure. */
async function taintForUpdate(run: RollingUpdateRun, kube: RollingUpdateKube, group: string, update: readonly PlannedInstance[]): Promise<void> {
  const nodes = update.flatMap((u) => (u.node && !u.node.unschedulable ? [u.node.name] : []));
  if (nodes.length === 0) return;
  run.report({ type: 'taint', group, nodes });
  for (const node of nodes) {
    try {
      await kube.taintForUpdate(node);
    } catch (e) {
      if (run.timings.failOnDrainError) throw e;
      run.report({ type: 'drain-failed-ignored', group, node, message: `cannot taint it: ${e instanceof Error ? e.message : String(e)}` });
    }
  }
}

/** After instances went: wait for the group's replacements (cloud, and Nodes unless cloud-only), then validate. */
async function afterRemoval(run: RollingUpdateRun, plan: GroupPlan, kube: RollingUpdateKube | undefined, group: string): Promise<void> {
  await waitForReplacements(run, plan, group);
  if (kube) await validate(run, kube, group, 'after removing a node');
}

/** Cordon, drain (unless bastion or cloud-only, or the instance has no Node), delete the Node, terminate, wait the interval. */
async function drainTerminate(run: RollingUpdateRun, plan: GroupPlan, u: PlannedInstance): Promise<void> {
  const group = plan.name;
  const kube = plan.role === 'Bastion' ? undefined : run.kube;
  const node = u.node?.name;
  if (kube && node) {
    run.report({ type: 'cordon', group, instance: u.id, node });
    await kube.cordon(node);
    try {
      await kube.drain(node, { timeoutMs: run.timings.drainTimeoutMs, retryMs: run.timings.drainRetryMs, onBlocked: (blocked) => run.report({ type: 'drain-blocked', group, blocked }) });
      run.report({ type: 'drained', group, instance: u.id, node });
      if (run.timings.postDrainDelayMs > 0) await run.sleep(run.timings.postDrainDelayMs);
    } catch (e) {
      if (run.timings.failOnDrainError) throw e;
      run.report({ type: 'drain-failed-ignored', group, node, message: e instanceof Error ? e.message : String(e) });
    }
    run.report({ type: 'delete-node', group, instance: u.id, node });
    await kube.deleteNode(node);
  }
  run.report({ type: 'terminate', group, instance: u.id, node });
  await run.cloud.terminate(u.id);
  await run.sleep(run.timings.intervalMs(plan.role));
}

/**
 * Waits until the group has its desired number of members in service and, unless cloud-only, each has a
 * Ready Node: the replacements the group launched for detached or terminated instances have joined. AWS
 * replaces a terminated member after its next health check, so this polls; REPLACEMENT_TIMEOUT after
 * `--validation-timeout`.
 */
async function waitForReplacements(run: RollingUpdateRun, plan: GroupPlan, group: string): Promise<void> {
  const asgName = plan.cloud?.asgName;
  if (!asgName) return;
  const kube = plan.role === 'Bastion' ? undefined : run.kube;
  const deadline = Date.now() + run.timings.validationTimeoutMs;
  let reported = '';
  for (;;) {
    const g = (await run.cloud.groups()).get(asgName);
    const members = (g?.instances ?? []).filter((i) => !i.detached && i.state === 'InService');
    let missing = members.length < (g?.desired ?? 0) ? `${(g?.desired ?? 0) - members.length} of ${g?.desired ?? 0} instances not in service` : '';
    if (!missing && kube) {
      const ready = new Set((await kube.nodes()).filter((n) => n.ready && n.instanceId).map((n) => n.instanceId));
      const waiting = members.filter((m) => !ready.has(m.id)).map((m) => m.id);
      if (waiting.length > 0) missing = `instance(s) ${waiting.join(', ')} not yet joined as Ready nodes`;
    }
    if (!missing) return;
    if (missing !== reported) run.report({ type: 'wait', group, what: missing });
    reported = missing;
    if (Date.now() >= deadline) {
      throw new RollingUpdateError('REPLACEMENT_TIMEOUT', `instance group "${group}" (Auto Scaling group ${asgName}): ${missing} after ${Math.round(run.timings.validationTimeoutMs / 1000)}s (--validation-timeout); the rolling update stopped. Re-run it once the group is healthy: it continues with the instances still on old versions`);
    }
    await run.sleep(run.timings.pollMs);
  }
}

/**
 * kops's validateClusterWithDuration: passes until `validateCount` succeed in a row, within
 * `--validation-timeout`. A failure ends the run unless `--fail-on-validate-error=false`.
 */
async function validate(run: RollingUpdateRun, kube: RollingUpdateKube, group: string, when: string): Promise<void> {
  const t = run.timings;
  if (t.validateCount <= 0) return;
  const deadline = Date.now() + t.validationTimeoutMs;
  let successes = 0;
  let last: ValidationPass = { ok: false, failures: [] };
  for (;;) {
    last = await kube.validate();
    successes = last.ok ? successes + 1 : 0;
    run.report({ type: 'validate', group, pass: last, successes });
    if (successes >= t.validateCount) return;
    if (Date.now() >= deadline) break;
    await run.sleep(last.ok ? t.validateSuccessMs : t.validateRetryMs);
  }
  const message = `cluster did not validate ${when} in instance group "${group}" within ${Math.round(t.validationTimeoutMs / 1000)}s (--validation-timeout, ${t.validateCount} successes in a row needed): ${last.failures.join('; ') || 'the last pass had no failures but too few passes succeeded in a row'}`;
  if (t.failOnValidateError) throw new RollingUpdateError('VALIDATION_FAILED', message);
  run.report({ type: 'validation-failed-ignored', group, message });
}
