import { ApiCallCounter } from '../../../src/cloud/aws/api-call-counter';
import { classifyAwsError, isRetryableAwsError } from '../../../src/cloud/aws/aws-errors';
import type { ClusterResource, DeleteOutcome } from '../../../src/cloud/aws/cluster-resources/cluster-resource';
import { deleteInRounds, RoundReport } from '../../../src/cloud/aws/cluster-resources/delete-in-rounds';
import { formatCallSummary } from '../../../src/cloud/format-call-summary';
import { DeleteBlockedError } from '../../../src/errors/delete-blocked-error';

/** An SDK-shaped error: name and HTTP status, as aws-errors.ts classifies them. */
function sdkError(name: string, status = 400): Error {
  return Object.assign(new Error(`${name} happened`), { name, $metadata: { httpStatusCode: status } });
}

/** A fake resource whose delete() runs the given steps in turn (the last one repeats), recording the calls. */
function fake(log: string[], id: string, dependsOn: string[], steps: Array<DeleteOutcome | Error>): ClusterResource {
  let n = 0;
  return {
    type: id.split('-')[0],
    name: `${id}.example.com`,
    id,
    dependsOn,
    delete: async () => {
      log.push(id);
      const step = steps[Math.min(n++, steps.length - 1)];
      if (step instanceof Error) throw step;
      return step;
    },
  };
}

const fast = { backoffMs: 1, maxBackoffMs: 4, sleep: async () => {} };

describe('deleteInRounds', () => {
  it('deletes in dependency order, retries dependency violations and in-use errors, waits for pending deletions, counts not-found as done', async () => {
    const log: string[] = [];
    const rounds: RoundReport[] = [];
    const resources = [
      fake(log, 'vpc-1', ['sg-1', 'sg-2', 'subnet-1'], ['deleted']),
      // Its peer still references it in round 1 (real AWS; moto never refuses).
      fake(log, 'sg-1', ['instance-1'], [sdkError('DependencyViolation'), 'deleted']),
      fake(log, 'sg-2', ['instance-1'], ['deleted']),
      fake(log, 'subnet-1', ['nat-1'], [sdkError('InvalidSubnetID.NotFound')]),
      fake(log, 'instance-1', [], ['pending', 'pending', 'deleted']),
      fake(log, 'nat-1', [], ['pending', 'deleted']),
      fake(log, 'volume-1', ['instance-1'], [sdkError('VolumeInUse'), 'deleted']),
    ];
    const n = await deleteInRounds(resources, { ...fast, onRound: (r) => rounds.push(r) });
    expect(rounds.map((r) => `${r.round}: ${r.deleted.map((d) => d.id).join(',')} / ${r.waiting}`)).toEqual([
      '1:  / 7',
      '2: nat-1 / 6',
      '3: subnet-1,instance-1 / 4',
      '4: sg-2 / 3',
      '5: sg-1,volume-1 / 1',
      '6: vpc-1 / 0',
    ]);
    expect(n).toBe(6);
    // Nothing was tried before its dependencies were gone.
    expect(log.indexOf('sg-1')).toBeGreaterThan(log.lastIndexOf('instance-1'));
    expect(log.filter((x) => x === 'vpc-1')).toHaveLength(1);
  });

  it('stops with DELETE_BLOCKED when rounds make no progress, naming each resource left with its last error', async () => {
    const log: string[] = [];
    // A security group an untagged group still references: DependencyViolation every time.
    const resources = [fake(log, 'sg-1', [], [sdkError('DependencyViolation')]), fake(log, 'vpc-1', ['sg-1'], ['deleted']), fake(log, 'keypair-1', [], ['deleted'])];
    const err = await deleteInRounds(resources, { ...fast, maxStalledRounds: 3 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeleteBlockedError);
    const blocked = err as DeleteBlockedError;
    expect(blocked.code).toBe('DELETE_BLOCKED');
    expect(blocked.remaining.map((r) => `${r.id}: ${r.lastError}`)).toEqual(['sg-1: DependencyViolation: DependencyViolation happened', 'vpc-1: waits for sg-1']);
    expect(blocked.message).toMatch(/^no progress deleting the cluster's cloud resources in 3 rounds; 2 resources remain/);
    expect(blocked.message).toContain('\n  sg sg-1.example.com sg-1: DependencyViolation: DependencyViolation happened');
    expect(log.filter((x) => x === 'sg-1')).toHaveLength(4);
    expect(log).not.toContain('vpc-1');
  });

  it('does not retry a hard error (access denied): stops once nothing else can go', async () => {
    const log: string[] = [];
    const resources = [fake(log, 'role-1', [], [sdkError('AccessDenied', 403)]), fake(log, 'profile-1', [], ['deleted'])];
    const err = (await deleteInRounds(resources, fast).catch((e: unknown) => e)) as DeleteBlockedError;
    expect(err.code).toBe('DELETE_BLOCKED');
    expect(err.remaining.map((r) => r.id)).toEqual(['role-1']);
    expect(log).toEqual(['role-1', 'profile-1']);
  });

  it('gives up at the round limit even while deletions are pending, and backs off between waiting rounds', async () => {
    const waits: number[] = [];
    const resources = [fake([], 'nat-1', [], ['pending'])];
    const err = (await deleteInRounds(resources, { backoffMs: 10, maxBackoffMs: 40, maxRounds: 5, sleep: async (ms) => void waits.push(ms) }).catch((e: unknown) => e)) as DeleteBlockedError;
    expect(err.message).toMatch(/not all deleted in 5 rounds/);
    expect(err.remaining[0].lastError).toBe('deletion in progress');
    expect(waits).toEqual([10, 20, 40, 40]);
  });

  it('refuses resources with the same id (one would wait for itself)', async () => {
    await expect(deleteInRounds([fake([], 'a-1', [], ['deleted']), fake([], 'a-1', [], ['deleted'])], fast)).rejects.toThrow(/not unique/);
  });
});

describe('what deletion errors mean (aws-errors.ts, by code, never by message)', () => {
  it('classifies in-use answers of each service as retryable resource-in-use, and gone resources as not-found', () => {
    for (const code of ['VolumeInUse', 'InvalidIPAddress.InUse', 'ResourceInUse', 'ResourceInUseFault', 'ScalingActivityInProgressFault', 'DeleteConflict']) {
      expect([code, classifyAwsError(sdkError(code))]).toEqual([code, 'resource-in-use']);
      expect(isRetryableAwsError(sdkError(code))).toBe(true);
    }
    for (const code of ['InvalidInstanceID.NotFound', 'InvalidVolume.NotFound', 'LoadBalancerNotFound', 'TargetGroupNotFound', 'NoSuchHostedZone', 'Gateway.NotAttached', 'InvalidPermission.NotFound']) {
      expect([code, classifyAwsError(sdkError(code))]).toEqual([code, 'not-found']);
    }
    expect(classifyAwsError(sdkError('DependencyViolation'))).toBe('dependency-violation');
    expect(classifyAwsError(Object.assign(new Error('Could not load credentials from any providers'), { name: 'CredentialsProviderError' }))).toBe('no-credentials');
  });
});

describe('formatCallSummary', () => {
  it('gives one line, and with byOperation one more per operation, sorted', () => {
    const calls = new ApiCallCounter();
    calls.calls = 42;
    calls.attempts = 43;
    calls.throttled = 3;
    calls.byOperation.set('DescribeVpcs', 2).set('DeleteVpc', 1);
    expect(formatCallSummary(calls, 4210)).toBe('AWS API: 42 calls (3 throttled, 1 retried) in 4.2 s');
    expect(formatCallSummary(calls, 60, true)).toBe('AWS API: 42 calls (3 throttled, 1 retried) in 0.1 s\n  DeleteVpc 1\n  DescribeVpcs 2');
  });
});

describe('deleteInRounds with a lock fence', () => {
  it('deletes nothing more once the fence rejects: the deletions under way finish, then its error is thrown', async () => {
    const { LockLostError } = await import('../../../src/errors/lock-lost-error');
    const log: string[] = [];
    const lost = new LockLostError('lost the cluster lock of "c" to someone');
    // Two workers: instance-1 and instance-2 start together; the lock is lost while they run.
    let held = true;
    const slow = (id: string): ClusterResource => ({ ...fake(log, id, [], ['deleted']), delete: async () => (log.push(id), (held = false), await new Promise((r) => setTimeout(r, 20)), 'deleted') });
    const resources = [slow('instance-1'), slow('instance-2'), fake(log, 'instance-3', [], ['deleted']), fake(log, 'sg-1', ['instance-1'], ['deleted'])];
    const err = await deleteInRounds(resources, {
      ...fast,
      concurrency: 2,
      fence: async () => {
        if (!held) throw lost;
      },
    }).then(() => undefined, (e: unknown) => e);
    expect(err).toBe(lost);
    expect(log).toEqual(['instance-1', 'instance-2']);
  });

  it('a deletion whose call the fence refused stops the rounds with the fence error, not DELETE_BLOCKED', async () => {
    const { LockLostError } = await import('../../../src/errors/lock-lost-error');
    const log: string[] = [];
    const lost = new LockLostError('lost');
    const err = await deleteInRounds([fake(log, 'instance-1', [], [lost]), fake(log, 'sg-1', ['instance-1'], ['deleted'])], fast).then(() => undefined, (e: unknown) => e);
    expect(err).toBe(lost);
    expect(log).toEqual(['instance-1']);
  });
});
