/** What went wrong in an AWS call, as far as kforge needs to know to react or to explain it. */
export type AwsErrorKind =
  | 'not-found'
  | 'not-ready'
  | 'no-such-bucket'
  | 'precondition-failed'
  | 'conditional-conflict'
  | 'already-exists'
  | 'access-denied'
  | 'invalid-credentials'
  | 'no-credentials'
  | 'throttled'
  | 'quota-exceeded'
  | 'dependency-violation'
  | 'resource-in-use'
  | 'concurrent-modification'
  | 'unreachable'
  | 'outcome-unknown'
  | 'unavailable'
  | 'unknown';

// Error names/codes, across services, grouped by the reaction they need. Checked before the HTTP status
// fallbacks because one status covers several kinds (403 is both a denial and a bad key).
const BY_NAME: ReadonlyArray<[AwsErrorKind, ReadonlySet<string>]> = [
  ['no-credentials', new Set(['CredentialsProviderError'])],
  ['no-such-bucket', new Set(['NoSuchBucket'])],
  [
    'not-found',
    new Set([
      'NoSuchKey',
      'NotFound',
      'NoSuchEntity',
      'ResourceNotFoundException',
      'NoSuchVersion',
      // EC2 names the missing resource type; right after a create these mean "not visible yet".
      'InvalidVpcID.NotFound',
      'InvalidSubnetID.NotFound',
      'InvalidGroup.NotFound',
      'InvalidRouteTableID.NotFound',
      'InvalidInternetGatewayID.NotFound',
      'InvalidAssociationID.NotFound',
      'InvalidRoute.NotFound',
      'InvalidAllocationID.NotFound',
      'InvalidNatGatewayID.NotFound',
      // What `delete cluster` meets when a resource went away between listing and deleting.
      'InvalidInstanceID.NotFound',
      'InvalidVolume.NotFound',
      'InvalidKeyPair.NotFound',
      'InvalidGroupId.NotFound',
      'InvalidLaunchTemplateId.NotFound',
      'InvalidLaunchTemplateName.NotFoundException',
      // ELBv2 and Route 53 (the SDK names the exception; the code is the wire name).
      'LoadBalancerNotFound',
      'LoadBalancerNotFoundException',
      'TargetGroupNotFound',
      'TargetGroupNotFoundException',
      'ListenerNotFound',
      'ListenerNotFoundException',
      'NoSuchHostedZone',
      // SQS (JSON and query codes).
      'QueueDoesNotExist',
      'AWS.SimpleQueueService.NonExistentQueue',
      // Detaching an internet gateway that is no longer attached.
      'Gateway.NotAttached',
      // Revoking a rule that is already gone.
      'InvalidPermission.NotFound',
    ]),
  ],
  // kforge's own "not yet": a resource exists but AWS has not finished what it makes for it (a network load
  // balancer's interfaces, load-balancer-interfaces-not-ready-error.ts). Retried like eventual consistency.
  ['not-ready', new Set(['LOAD_BALANCER_NOT_READY'])],
  ['precondition-failed', new Set(['PreconditionFailed'])],
  ['conditional-conflict', new Set(['ConditionalRequestConflict'])],
  [
    'already-exists',
    new Set([
      'BucketAlreadyOwnedByYou',
      'BucketAlreadyExists',
      'EntityAlreadyExists',
      'AlreadyExists',
      'ResourceAlreadyExistsException',
      // EC2: the rule, route, group or association is already there.
      'InvalidPermission.Duplicate',
      'RouteAlreadyExists',
      'InvalidGroup.Duplicate',
      'Resource.AlreadyAssociated',
      'InvalidKeyPair.Duplicate',
      'InvalidLaunchTemplateName.AlreadyExistsException',
      // ELBv2: a load balancer, target group or listener of that name or port is there.
      'DuplicateLoadBalancerName',
      'DuplicateLoadBalancerNameException',
      'DuplicateTargetGroupName',
      'DuplicateTargetGroupNameException',
      'DuplicateListener',
      'DuplicateListenerException',
    ]),
  ],
  [
    'invalid-credentials',
    new Set(['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'ExpiredToken', 'ExpiredTokenException', 'InvalidToken', 'InvalidClientTokenId', 'AuthFailure']),
  ],
  ['access-denied', new Set(['AccessDenied', 'AccessDeniedException', 'AllAccessDisabled', 'UnauthorizedOperation', 'Forbidden'])],
  [
    'throttled',
    new Set(['SlowDown', 'Throttling', 'ThrottlingException', 'RequestLimitExceeded', 'TooManyRequestsException', 'RequestThrottled', 'RequestThrottledException']),
  ],
  // An account quota on a count of resources (vCPUs, instances, volumes, addresses, ASGs, …): retrying does
  // not help, raising the quota or asking for less does. (RequestLimitExceeded, a rate, is throttling above.)
  [
    'quota-exceeded',
    new Set([
      'VcpuLimitExceeded',
      'InstanceLimitExceeded',
      'VolumeLimitExceeded',
      'AddressLimitExceeded',
      'LimitExceeded',
      'LimitExceededException',
      'MaxSpotInstanceCountExceeded',
      'ResourceLimitExceeded',
      'VpcLimitExceeded',
      'RouteLimitExceeded',
      'SecurityGroupLimitExceeded',
      'RulesPerSecurityGroupLimitExceeded',
      'NatGatewayLimitExceeded',
      'InternetGatewayLimitExceeded',
      'KeyPairLimitExceeded',
      'LaunchTemplateLimitExceeded',
    ]),
  ],
  ['dependency-violation', new Set(['DependencyViolation'])],
  // Something else still uses the resource (a volume attached, an address associated, a target group behind a
  // listener, an IAM role in a profile, an Auto Scaling group with an activity running): retry after it lets go.
  [
    'resource-in-use',
    new Set(['VolumeInUse', 'InvalidIPAddress.InUse', 'ResourceInUse', 'ResourceInUseException', 'ResourceInUseFault', 'ScalingActivityInProgress', 'ScalingActivityInProgressFault', 'DeleteConflict', 'DeleteConflictException']),
  ],
  // IAM: another request changed the same entity at the same moment; the next attempt succeeds.
  ['concurrent-modification', new Set(['ConcurrentModification', 'ConcurrentModificationException'])],
  // Raised by kforge's own SDK middleware (unconfirmed-create-middleware.ts) for a create without an
  // idempotency token whose connection failed after sending: it may or may not have been applied.
  ['outcome-unknown', new Set(['RequestOutcomeUnknown'])],
  ['unavailable', new Set(['ServiceUnavailable', 'Unavailable', 'InternalError', 'InternalFailure', 'ServiceFailure'])],
  // The HTTP handler's connect/socket timeouts, and Node's errors for a host that cannot be reached.
  ['unreachable', new Set(['TimeoutError', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH'])],
];

interface SdkErrorShape {
  name?: unknown;
  Code?: unknown;
  message?: unknown;
  $metadata?: { httpStatusCode?: unknown };
}

/**
 * Whether an SDK error is an answer the SDK could not read as AWS's (an HTML error page of a proxy or a
 * load balancer, a captive portal, a server that is not the AWS API): the deserializer leaves the raw
 * `$response` on such an error, while every error AWS itself sends is a service exception with `$fault`.
 */
export function isUnreadableAnswer(e: unknown): boolean {
  if (typeof e !== 'object' || e === null || !('$response' in e)) return false;
  // No `$fault`: the parser threw (EC2's protocol). With one, the SDK may still have made an `Unknown`
  // service error of a body it could not read (the query protocols): AWS answers in XML or JSON only.
  if (!('$fault' in e)) return true;
  // Only when the SDK found no error code in it: an error AWS (or moto, which labels some XML errors text/html)
  // sends with a code is read as such, whatever its content type says.
  const name = (e as { name?: unknown }).name;
  if (name !== 'Unknown' && name !== 'UnknownError') return false;
  const type = contentType(e);
  return type !== undefined && !/xml|json/i.test(type);
}

/** The content type of the raw answer an SDK error carries, if any. */
function contentType(e: unknown): string | undefined {
  const headers = (e as { $response?: { headers?: Record<string, string> } }).$response?.headers ?? {};
  return Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1]?.split(';')[0]?.trim();
}

/**
 * What to say instead of the SDK's parse error ("XML parse error: mismatched tags") for an unreadable
 * answer: the operation, the endpoint, the HTTP status and the kind of body.
 */
export function unreadableAnswerMessage(e: unknown, operation: string, endpoint: string): string {
  const status = (e as { $response?: { statusCode?: number } }).$response?.statusCode ?? httpStatus(e);
  const type = contentType(e);
  return `${operation} to ${endpoint}: the answer (HTTP ${status ?? '?'}${type ? `, ${type}` : ''}) is not an AWS API answer; is AWS_ENDPOINT_URL (or a proxy) pointing at something else?`;
}

/** Classifies an AWS SDK error by name, `Code` and HTTP status; the one place that looks inside SDK errors. */
export function classifyAwsError(e: unknown): AwsErrorKind {
  if (typeof e !== 'object' || e === null) return 'unknown';
  const err = e as SdkErrorShape;
  const ids = [err.name, err.Code, (e as { code?: unknown }).code].filter((v): v is string => typeof v === 'string');
  for (const [kind, names] of BY_NAME) if (ids.some((id) => names.has(id))) return kind;
  // HEAD responses have no body, so the SDK only knows the status (name `NotFound`/`Unknown`).
  switch (httpStatus(e)) {
    case 403:
      return 'access-denied';
    case 404:
      return 'not-found';
    case 412:
      return 'precondition-failed';
    case 429:
      return 'throttled';
    default:
      return 'unknown';
  }
}

// Kinds a task may retry after finding its resource again: the cloud is busy, briefly unreachable, or
// not yet consistent (a VPC made a moment ago is "not found" by CreateSubnet).
const RETRYABLE: ReadonlySet<AwsErrorKind> = new Set(['throttled', 'unreachable', 'outcome-unknown', 'unavailable', 'not-found', 'not-ready', 'dependency-violation', 'resource-in-use', 'concurrent-modification']);

/** Whether a task that failed with this error should be retried with backoff (the SDK's own retries are used up). */
export function isRetryableAwsError(e: unknown): boolean {
  if (RETRYABLE.has(classifyAwsError(e))) return true;
  const status = httpStatus(e);
  return status !== undefined && status >= 500;
}

/**
 * Whether sending the same read again may succeed: the service was busy (throttling, 5xx), did not answer,
 * or its answer was lost. Unlike isRetryableAwsError, a NotFound is an answer, not a transient failure.
 */
export function isTransientAwsError(e: unknown): boolean {
  const kind = classifyAwsError(e);
  return kind === 'unreachable' || kind === 'outcome-unknown' || isBusyAwsError(e);
}

/**
 * Whether the service answered that it is busy (throttling, a 5xx such as S3's 503 SlowDown): it is there
 * and the request is not wrong, so the call may be sent again unchanged, a read or a conditional write
 * included. A service that does not answer at all is `unreachable`, not busy.
 */
export function isBusyAwsError(e: unknown): boolean {
  const kind = classifyAwsError(e);
  if (kind === 'throttled' || kind === 'unavailable') return true;
  const status = httpStatus(e);
  return status !== undefined && status >= 500;
}

/**
 * The error's code as the service named it (`SlowDown`, `RequestLimitExceeded`), or undefined when the
 * answer had none (a HEAD's error has no body, and the SDK then says `Unknown`/`UnknownError`).
 */
export function awsErrorCode(e: unknown): string | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const err = e as SdkErrorShape;
  const id = [err.Code, err.name].find((v): v is string => typeof v === 'string' && !['Error', 'Unknown', 'UnknownError'].includes(v));
  return id;
}

/** The HTTP status of the answer an SDK error came from; undefined when there was none (a dropped connection). */
export function awsHttpStatus(e: unknown): number | undefined {
  return typeof e === 'object' && e !== null ? httpStatus(e) : undefined;
}

/** A short reason for wrapping an SDK error into a kforge error: name and message, never a stack trace. */
export function awsErrorMessage(e: unknown): string {
  if (typeof e !== 'object' || e === null) return String(e);
  const err = e as SdkErrorShape;
  // Its message was made to say everything (unreadable-answer-middleware.ts); the SDK's name (`Unknown`) adds nothing.
  if (isUnreadableAnswer(e) && typeof err.message === 'string') return err.message;
  const name = typeof err.name === 'string' && err.name !== 'Error' ? err.name : undefined;
  const raw = typeof err.message === 'string' ? err.message.trim() : '';
  // The SDK says "UnknownError" for body-less error responses; the status says more.
  const message = raw === 'UnknownError' || raw === name ? '' : raw;
  const status = httpStatus(e);
  const parts = [name && message ? `${name}: ${message}` : (name ?? message)];
  if (status !== undefined && !message) parts.push(`(HTTP ${status})`);
  return parts.filter(Boolean).join(' ') || 'unknown error';
}

function httpStatus(e: unknown): number | undefined {
  const status = (e as SdkErrorShape).$metadata?.httpStatusCode;
  return typeof status === 'number' ? status : undefined;
}
