/** What went wrong in an AWS call, as far as kforge needs to know to react or to explain it. */
export type AwsErrorKind =
  | 'not-found'
  | 'no-such-bucket'
  | 'precondition-failed'
  | 'conditional-conflict'
  | 'already-exists'
  | 'access-denied'
  | 'invalid-credentials'
  | 'no-credentials'
  | 'throttled'
  | 'dependency-violation'
  | 'unreachable'
  | 'unknown';

// Error names/codes, across services, grouped by the reaction they need. Checked before the HTTP status
// fallbacks because one status covers several kinds (403 is both a denial and a bad key).
const BY_NAME: ReadonlyArray<[AwsErrorKind, ReadonlySet<string>]> = [
  ['no-credentials', new Set(['CredentialsProviderError'])],
  ['no-such-bucket', new Set(['NoSuchBucket'])],
  ['not-found', new Set(['NoSuchKey', 'NotFound', 'NoSuchEntity', 'ResourceNotFoundException', 'NoSuchVersion'])],
  ['precondition-failed', new Set(['PreconditionFailed'])],
  ['conditional-conflict', new Set(['ConditionalRequestConflict'])],
  [
    'already-exists',
    new Set(['BucketAlreadyOwnedByYou', 'BucketAlreadyExists', 'EntityAlreadyExists', 'AlreadyExists', 'ResourceAlreadyExistsException']),
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
  ['dependency-violation', new Set(['DependencyViolation'])],
  // The HTTP handler's connect/socket timeouts, and Node's errors for a host that cannot be reached.
  ['unreachable', new Set(['TimeoutError', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH'])],
];

interface SdkErrorShape {
  name?: unknown;
  Code?: unknown;
  message?: unknown;
  $metadata?: { httpStatusCode?: unknown };
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

/** A short reason for wrapping an SDK error into a kforge error: name and message, never a stack trace. */
export function awsErrorMessage(e: unknown): string {
  if (typeof e !== 'object' || e === null) return String(e);
  const err = e as SdkErrorShape;
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
