import { Command, Flags, Interfaces } from '@oclif/core';
import { UsageError } from '../errors/usage-error';
import type { LockOptions } from '../state/lock/cluster-lock';
import type { LockFence } from '../state/lock/lock-fence';
import { lockTtlSeconds } from '../state/lock/lock-ttl';
import { defaultStateStore } from '../state/vfs/open-vfs';
import { setStoreTracing } from '../state/vfs/traced-vfs';
import { clusterNameProblem, instanceGroupNameProblem, keysetNameProblem, quoteName } from '../validate/check-object-names';
import type { Vfs } from '../state/vfs/vfs';

/** Flags every kforge command accepts. */
export const globalFlags = {
  // No oclif `env`: stateUrl() reads the variables itself, to name the one a bad value came from.
  state: Flags.string({
    description: 'State store: s3://bucket/prefix, gs://bucket/prefix, file:///dir or a directory path. Default: $KFORGE_STATE_STORE (else $KOPS_STATE_STORE), else ~/.kforge/state',
    helpGroup: 'GLOBAL',
  }),
  verbose: Flags.boolean({ description: 'Log each state-store call (remote stores), and print stack traces on errors', helpGroup: 'GLOBAL' }),
};

const announced = new Set<string>();

/**
 * A setting from KFORGE_<suffix>, else from kops's KOPS_<suffix> (so a kops user's environment works);
 * using the kops variable is said once on stderr. Empty values count as unset.
 */
export function settingFromEnv(suffix: 'STATE_STORE' | 'CLUSTER_NAME'): { variable: string; value: string } | undefined {
  const own = process.env[`KFORGE_${suffix}`];
  if (own) return { variable: `KFORGE_${suffix}`, value: own };
  const kops = process.env[`KOPS_${suffix}`];
  if (!kops) return undefined;
  if (!announced.has(suffix)) {
    announced.add(suffix);
    process.stderr.write(`Using KOPS_${suffix}=${kops} (KFORGE_${suffix} is not set)\n`);
  }
  return { variable: `KOPS_${suffix}`, value: kops };
}

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

  /** Where the state store location came from: the flag or an environment variable; undefined for the default. */
  private stateSource: string | undefined;

  /** The state store URL from --state, KFORGE_STATE_STORE, KOPS_STATE_STORE or the default directory. */
  protected stateUrl(flags: { state?: string; verbose?: boolean }): string {
    // Every command that opens a store comes here first: remote calls are logged with --verbose, and on a
    // terminal a call slower than a second says what it waits on.
    setStoreTracing({ verbose: flags.verbose ?? false, progress: process.stderr.isTTY === true });
    if (flags.state !== undefined) {
      this.stateSource = '--state';
      return flags.state;
    }
    const env = settingFromEnv('STATE_STORE');
    this.stateSource = env?.variable;
    return env?.value ?? defaultStateStore();
  }

  /** Whether stateUrl() fell back to the default directory (no flag, no variable). */
  protected stateIsDefault(): boolean {
    return this.stateSource === undefined;
  }

  /** The cluster name from the positional argument or --name; names the flag when missing. */
  protected clusterName(arg: string | undefined, flagName: string | undefined): string {
    if (arg && flagName && arg !== flagName) throw new UsageError(`cluster name given twice: argument "${arg}" and --name "${flagName}"`);
    const name = arg ?? flagName ?? settingFromEnv('CLUSTER_NAME')?.value;
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

  /**
   * The cluster of a command whose arguments name something else (instance groups, keysets): --name or
   * the environment. kops users pass the cluster as the argument; the error says where it goes instead.
   */
  protected clusterFromFlag(flagName: string | undefined, argumentsName: string, args: string[] = []): string {
    const name = flagName ?? settingFromEnv('CLUSTER_NAME')?.value;
    if (name) return this.checkName('cluster', name);
    const command = `kforge ${(this.id ?? '').replaceAll(':', ' ')}`;
    const hint = args.length > 0 ? `; if "${args[0]}" is the cluster: ${command} --name ${args[0]}` : '';
    throw new UsageError(`the cluster name is required: pass it with --name (env KFORGE_CLUSTER_NAME); the arguments of "${command}" name ${argumentsName}${hint}`);
  }

  /** A bad store location from the environment is reported as coming from its variable, not from --state. */
  protected override async catch(err: Error & { exitCode?: number }): Promise<unknown> {
    if (err instanceof UsageError && this.stateSource !== undefined && this.stateSource !== '--state' && err.message.startsWith('--state: ')) {
      return super.catch(new UsageError(`${this.stateSource} (environment variable): ${err.message.slice('--state: '.length)}`));
    }
    return super.catch(err);
  }

  /** How this command records itself in the cluster lock. */
  protected lockOptions(flags: { 'force-unlock'?: boolean }): LockOptions {
    const line = ['kforge', ...(this.id ?? '').split(':'), ...this.argv].join(' ');
    return { command: line.length > 200 ? `${line.slice(0, 197)}...` : line, forceUnlock: flags['force-unlock'] ?? false, ttlSeconds: lockTtlSeconds(process.env) };
  }

  /**
   * Runs `fn` holding the lock of `cluster` (mutating commands: edit, replace, delete, ...); by default the
   * cluster must exist. `fn` gets `vfs` fenced by the lock (each write and delete verifies it still holds
   * it) and the fence itself, for the other changes it makes: a lost lock fails them with LockLostError.
   */
  protected async withClusterLock<T>(
    vfs: Vfs,
    cluster: string,
    flags: { 'force-unlock'?: boolean },
    fn: (store: Vfs, fence: LockFence) => Promise<T>,
    options: { mustExist?: boolean } = {},
  ): Promise<T> {
    const { withClusterLocks } = await import('../state/lock/cluster-lock');
    const { ClusterRepository } = await import('../state/cluster-repository');
    // Locking a cluster that does not exist would write a lock object for nothing.
    if ((options.mustExist ?? true) && !(await new ClusterRepository(vfs).exists(cluster))) {
      const { NotFoundError } = await import('../errors/not-found-error');
      throw new NotFoundError(`cluster "${cluster}" not found in state store ${vfs.url}`);
    }
    return withClusterLocks(vfs, [cluster], this.lockOptions(flags), (fence) => fn(fence.vfs(vfs), fence));
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
