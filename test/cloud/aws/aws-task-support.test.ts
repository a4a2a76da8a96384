import { AwsCloud } from '../../../src/cloud/aws/aws-cloud';
import { classifyAwsError, isRetryableAwsError } from '../../../src/cloud/aws/aws-errors';
import { clusterTags } from '../../../src/cloud/aws/aws-tags';
import { installUnconfirmedCreateGuard } from '../../../src/cloud/aws/unconfirmed-create-middleware';

const sdkError = (name: string, status?: number) => Object.assign(new Error('some text that is never parsed'), { name, $metadata: { httpStatusCode: status } });

describe('EC2 error classification', () => {
  it('classifies EC2 codes by name, and says which a task may retry', () => {
    expect(classifyAwsError(sdkError('InvalidVpcID.NotFound', 400))).toBe('not-found');
    expect(classifyAwsError(sdkError('InvalidPermission.Duplicate', 400))).toBe('already-exists');
    expect(classifyAwsError(sdkError('RequestLimitExceeded', 503))).toBe('throttled');
    expect(classifyAwsError(sdkError('RequestOutcomeUnknown'))).toBe('outcome-unknown');
    expect(isRetryableAwsError(sdkError('RequestLimitExceeded', 503))).toBe(true);
    expect(isRetryableAwsError(sdkError('InvalidSubnetID.NotFound', 400))).toBe(true);
    expect(isRetryableAwsError(sdkError('SomethingNew', 500))).toBe(true);
    expect(isRetryableAwsError(sdkError('InvalidParameterValue', 400))).toBe(false);
    expect(isRetryableAwsError(sdkError('UnauthorizedOperation', 403))).toBe(false);
    // IAM: a missing entity, a name taken, a concurrent change (retryable), its 500 and a bad document.
    expect(classifyAwsError(sdkError('NoSuchEntity', 404))).toBe('not-found');
    expect(classifyAwsError(sdkError('EntityAlreadyExists', 409))).toBe('already-exists');
    expect(isRetryableAwsError(sdkError('ConcurrentModification', 409))).toBe(true);
    expect(classifyAwsError(sdkError('ServiceFailure', 500))).toBe('unavailable');
    expect(isRetryableAwsError(sdkError('MalformedPolicyDocument', 400))).toBe(false);
  });
});

describe('idempotency tokens and tags', () => {
  it('derive the same token for the same cluster life and task, another for another cluster, life or task, within EC2’s 64 characters', () => {
    const uid = '11111111-1111-4111-8111-111111111111';
    const a = new AwsCloud({ clusterName: 'a.example.com', region: 'us-east-1', clusterUid: uid });
    const b = new AwsCloud({ clusterName: 'b.example.com', region: 'us-east-1', clusterUid: uid });
    const aAgain = new AwsCloud({ clusterName: 'a.example.com', region: 'us-east-1', clusterUid: '22222222-2222-4222-8222-222222222222' });
    expect(a.clientToken('RouteTable/x')).toBe(new AwsCloud({ clusterName: 'a.example.com', region: 'eu-west-1', clusterUid: uid }).clientToken('RouteTable/x'));
    expect(a.clientToken('RouteTable/x')).not.toBe(b.clientToken('RouteTable/x'));
    expect(a.clientToken('RouteTable/x')).not.toBe(aAgain.clientToken('RouteTable/x'));
    expect(a.clientToken('RouteTable/x')).not.toBe(a.clientToken('RouteTable/y'));
    expect(a.clientToken('RouteTable/x')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('are never made from the name alone: without a cluster UID there is no token', () => {
    const e = (() => {
      try {
        return new AwsCloud({ clusterName: 'a.example.com', region: 'us-east-1' }).clientToken('RouteTable/x');
      } catch (x) {
        return x;
      }
    })();
    expect((e as { code?: string }).code).toBe('MISSING_MODEL_INPUT');
  });

  it('put the cluster tags last, so cloudLabels cannot override them', () => {
    expect(clusterTags('c.example.com', 'n', { Name: 'evil', KubernetesCluster: 'other', team: 'x' })).toEqual({
      team: 'x',
      KubernetesCluster: 'c.example.com',
      'kubernetes.io/cluster/c.example.com': 'owned',
      Name: 'n',
    });
  });
});

describe('the unconfirmed-create guard', () => {
  type Handler = (args: { input?: Record<string, unknown> }) => Promise<unknown>;
  function guarded(commandName: string, failure: unknown): Handler {
    let factory: ((next: Handler, context: { commandName: string }) => Handler) | undefined;
    installUnconfirmedCreateGuard({ middlewareStack: { add: (m: typeof factory) => (factory = m) } });
    return (factory as NonNullable<typeof factory>)(() => Promise.reject(failure), { commandName });
  }
  const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

  it('turns a connection failure of a create without a token into RequestOutcomeUnknown, which the SDK does not resend', async () => {
    const e = await guarded('CreateVpcCommand', reset)({ input: { CidrBlock: '10.0.0.0/16' } }).catch((x: unknown) => x);
    expect((e as Error).name).toBe('RequestOutcomeUnknown');
    expect((e as { cause?: unknown }).cause).toBeUndefined();
    expect(classifyAwsError(e)).toBe('outcome-unknown');
  });

  it('leaves alone answered errors, creates with a ClientToken, and reads', async () => {
    const answered = sdkError('InvalidParameterValue', 400);
    await expect(guarded('CreateVpcCommand', answered)({ input: {} })).rejects.toBe(answered);
    await expect(guarded('CreateRouteTableCommand', reset)({ input: { ClientToken: 't' } })).rejects.toBe(reset);
    await expect(guarded('DescribeVpcsCommand', reset)({ input: {} })).rejects.toBe(reset);
  });
});
