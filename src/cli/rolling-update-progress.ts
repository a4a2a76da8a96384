import type { RollingUpdateEvent } from '../rolling-update/update-instance-group';

/** One event as a line of text (no newline). */
export function describeRollingUpdateEvent(e: RollingUpdateEvent): string {
  const on = (node?: string): string => (node ? `, node ${node}` : '');
  switch (e.type) {
    case 'group':
      return `Rolling instance group ${e.group}: ${e.replace} to replace, surge ${e.maxSurge}, at most ${e.maxConcurrency} at a time`;
    case 'skip':
      return `Instance group ${e.group}: not replacing: ${e.reason}`;
    case 'taint':
      return `  tainting ${e.nodes.length} node(s) ${e.nodes.join(', ')} with kops.k8s.io/scheduled-for-update (PreferNoSchedule)`;
    case 'detach':
      return `  detaching instance ${e.instance}${on(e.node)} (surge: the group launches its replacement)`;
    case 'cordon':
      return `  cordoning node ${e.node} (instance ${e.instance})`;
    case 'drained':
      return `  drained node ${e.node}`;
    case 'delete-node':
      return `  deleting node ${e.node} from Kubernetes`;
    case 'drain-blocked':
      return `  draining node ${e.blocked.node}: pod ${e.blocked.pod} is protected by PodDisruptionBudget ${e.blocked.pdb ?? '(unknown)'}; retrying`;
    case 'drain-failed-ignored':
      return `  Warning: node ${e.node} was not fully drained; going on (--force-drain): ${e.message}`;
    case 'terminate':
      return `  terminating instance ${e.instance}${on(e.node)}`;
    case 'wait':
      return `  waiting: ${e.what}`;
    case 'validate':
      return e.pass.ok ? `  cluster validated (${e.successes} in a row)` : `  cluster did not validate: ${e.pass.failures.join('; ')}`;
    case 'validation-failed-ignored':
      return `  Warning: ${e.message}; going on (--fail-on-validate-error=false)`;
  }
}

/**
 * Progress of `rolling-update cluster` on stderr: one line per step. On a terminal (not CI), the waits and
 * validation passes that repeat rewrite one status line instead of scrolling; in CI and pipes every event
 * is its own line, so a log reads top to bottom.
 */
export function rollingUpdateProgress(stream: NodeJS.WriteStream = process.stderr, env: NodeJS.ProcessEnv = process.env): { report(e: RollingUpdateEvent): void; stop(): void } {
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0';
  const live = stream.isTTY === true && !ci;
  let status = false;
  const clear = (): void => {
    if (status) stream.write('\r\x1b[K');
    status = false;
  };
  return {
    report: (e) => {
      const line = describeRollingUpdateEvent(e);
      if (live && (e.type === 'wait' || e.type === 'validate')) {
        clear();
        stream.write(line.slice(0, Math.max(20, (stream.columns ?? 80) - 1)));
        status = true;
        return;
      }
      clear();
      stream.write(`${line}\n`);
    },
    stop: clear,
  };
}
