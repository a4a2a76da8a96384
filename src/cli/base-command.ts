import { Command, Flags, Interfaces } from '@oclif/core';
import { UsageError } from '../errors/usage-error';
import type { LockOptions } from '../state/lock/cluster-lock';
import { lockTtlSeconds } from '../state/lock/lock-ttl';
import { defaultStateStore } from '../state/vfs/open-vfs';
import { clusterNameProblem, instanceGroupNameProblem, keysetNameProblem, quoteName } from '../validate/check-object-names';
import type { Vfs } from '../state/vfs/vfs';

/** Flags every kforge command accepts. */
export const globalFlags = {
  state: Flags.string({
    description: 'Location of the state store (file:///dir, a directory path, memfs://name). Env: KFORGE_STATE_STORE. Default: ~/.kforge/state',
    env: 'KFORGE_STATE_STORE',
    helpGroup: 'GLOBAL',
  }),
  verbose: Flags.boolean({ description: 'Print stack traces and debugging detail on errors', helpGroup: 'GLOBAL' }),
};

/** The flag of commands that take the cluster lock. */
export const lockFlags = {
  'force-unlock': Flags.boolean({
    description: 'Take the cluster lock even if another command holds it (with a warning). Only when that command is no longer running.',
  }),
};

/** Parsed flags of a command class, global flags included. */
export type ParsedFlags<T extends typeof Command> = Interfaces.InferredFlags<(typeof BaseCommand)['baseFlags'] & T['flags']>;

/** Common behaviour of kforge commands: global flags, state-store resolution and cluster-name lookup. */
export abstract class BaseCommand extends Command {
  static override baseFlags = globalFlags;

  /** The state store URL from --state, KFORGE_STATE_STORE or the embedded default. */
  protected stateUrl(flags: { state?: string }): string {
    return flags.state ?? defaultStateStore();
  }

  /** The cluster name from the positional argument or --name; names the flag when missing. */
  protected clusterName(arg: string | undefined, flagName: string | undefined): string {
    if (arg && flagName && arg !== flagName) throw new UsageError(`cluster name given twice: argument "${arg}" and --name "${flagName}"`);
    const name = arg ?? flagName ?? process.env.KFORGE_CLUSTER_NAME;
    if (!name) throw new UsageError('the cluster name is required: pass it as an argument or with --name (env KFORGE_CLUSTER_NAME)');
    return this.checkName('cluster', name);
  }

  /**
   * Refuses a name that cannot be stored (it becomes a path in the state store) before anything reads
   * the store; returns the name.
   */
  protected checkName(kind: 'cluster' | 'instance group' | 'keyset', name: string): string {
    const problem = kind === 'cluster' ? clusterNameProblem(name) : kind === 'instance group' ? instanceGroupNameProblem(name) : keysetNameProblem(name);
    if (problem) throw new UsageError(`${kind} name ${quoteName(name)} ${problem}`);
    return name;
  }

  /** How this command records itself in the cluster lock. */
  protected lockOptions(flags: { 'force-unlock'?: boolean }): LockOptions {
    const line = ['kforge', ...(this.id ?? '').split(':'), ...this.argv].join(' ');
    return { command: line.length > 200 ? `${line.slice(0, 197)}...` : line, forceUnlock: flags['force-unlock'] ?? false, ttlSeconds: lockTtlSeconds(process.env) };
  }

  /** Runs `fn` holding the lock of `cluster` (mutating commands: edit, replace, delete, ...); by default the cluster must exist. */
  protected async withClusterLock<T>(
    vfs: Vfs,
    cluster: string,
    flags: { 'force-unlock'?: boolean },
    fn: () => Promise<T>,
    options: { mustExist?: boolean } = {},
  ): Promise<T> {
    const { withClusterLocks } = await import('../state/lock/cluster-lock');
    const { ClusterRepository } = await import('../state/cluster-repository');
    // Locking a cluster that does not exist would write a lock object for nothing.
    if ((options.mustExist ?? true) && !(await new ClusterRepository(vfs).exists(cluster))) {
      const { NotFoundError } = await import('../errors/not-found-error');
      throw new NotFoundError(`cluster "${cluster}" not found in state store ${vfs.url}`);
    }
    return withClusterLocks(vfs, [cluster], this.lockOptions(flags), fn);
  }

  /** Writes text to stdout, adding a final newline when missing. */
  protected out(text: string): void {
    process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /** Writes a progress or status line to stderr, so stdout stays machine-readable. */
  protected status(text: string): void {
    process.stderr.write(`${text}\n`);
  }
}
