/** What went wrong in a Google Cloud call, in the terms kforge reacts to. */
export type GceErrorKind =
  | 'not-found'
  | 'precondition-failed'
  | 'already-exists'
  | 'in-use'
  | 'access-denied'
  | 'unauthenticated'
  | 'no-credentials'
  | 'throttled'
  | 'unavailable'
  | 'unreachable'
  | 'unknown';

/** Google's error detail: `{"error":{"code":…,"message":…,"errors":[{"reason":…}]}}`. */
interface GoogleErrorBody {
  code?: number;
  message?: string;
  errors?: Array<{ reason?: string; message?: string }>;
}

/**
 * Application Default Credentials could not be loaded. The auth library reports that with a plain Error
 * (no code), and the storage client then even sends the request unauthenticated, so callers resolve
 * credentials up front through requireGceCredentials and get this distinguishable class instead.
 */
export class GceCredentialsError extends Error {
  constructor(cause: unknown) {
    super(firstLine(cause instanceof Error ? cause.message : String(cause)), { cause });
    this.name = 'GceCredentialsError';
  }
}

/** Resolves credentials once, turning any failure into GceCredentialsError. */
export async function requireGceCredentials(auth: { getClient(): Promise<unknown> }): Promise<void> {
  try {
    await auth.getClient();
  } catch (e) {
    throw new GceCredentialsError(e);
  }
}

// Node's socket errors, and undici's (Node's fetch, which the auth library's gaxios may use) for a connection closed before the answer.
const NETWORK_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_CONNECT_TIMEOUT']);

/** Whether the error or one of its causes (gaxios wraps fetch's, which wraps the socket's) has a network error code. */
function networkFailure(e: unknown, depth = 0): boolean {
  if (typeof e !== 'object' || e === null || depth > 4) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  return networkFailure((e as { cause?: unknown }).cause, depth + 1);
}
const THROTTLE_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded', 'quotaExceeded']);

/** Classifies an error thrown by a Google Cloud client by HTTP status, `errors[].reason` and class, never by message text. */
export function classifyGceError(e: unknown): GceErrorKind {
  if (e instanceof GceCredentialsError) return 'no-credentials';
  if (typeof e !== 'object' || e === null) return 'unknown';
  const status = httpStatus(e);
  const reasons = new Set((errorBody(e)?.errors ?? []).map((x) => x.reason));
  if (status === 412 || reasons.has('conditionNotMet')) return 'precondition-failed';
  if (status === 404 || reasons.has('notFound')) return 'not-found';
  // Compute refuses to delete what another resource still references (a subnetwork its instances use).
  if (reasons.has('resourceInUseByAnotherResource')) return 'in-use';
  if (status === 409 || reasons.has('conflict')) return 'already-exists';
  if (status === 429 || [...reasons].some((r) => r !== undefined && THROTTLE_REASONS.has(r))) return 'throttled';
  if (status === 401) return 'unauthenticated';
  // Token refresh failures (revoked or expired user credentials) come from the auth library's GaxiosError.
  if (status === 400 && errorName(e) === 'GaxiosError') return 'unauthenticated';
  if (status === 403) return 'access-denied';
  if (status !== undefined && status >= 500) return 'unavailable';
  if (networkFailure(e)) return 'unreachable';
  // node-fetch's (and so gaxios's) error when a request's timeout ran out before any answer.
  const timedOut = (x: unknown) => typeof x === 'object' && x !== null && (x as { type?: unknown }).type === 'request-timeout';
  if (timedOut(e) || timedOut((e as { error?: unknown }).error) || timedOut((e as { cause?: unknown }).cause)) return 'unreachable';
  return 'unknown';
}

/** A short, single-line reason for an error from a Google Cloud client, without stack or request dump. */
export function gceErrorMessage(e: unknown): string {
  const body = errorBody(e);
  const details = [...new Set((body?.errors ?? []).map((x) => x.message).filter((m): m is string => !!m))];
  if (details.length > 0) return truncate(details.join('; '));
  if (body?.message) return truncate(body.message);
  if (e instanceof Error) return truncate(firstLine(e.message) || e.name);
  return truncate(String(e));
}

function httpStatus(e: object): number | undefined {
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'number') return code;
  const response = (e as { response?: { status?: unknown; statusCode?: unknown } }).response;
  const status = response?.status ?? response?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

/**
 * The structured error detail. The storage client's ApiError carries `errors`; on media downloads it
 * only has the status and puts the raw JSON response body into `message`, so that is parsed as JSON.
 */
function errorBody(e: unknown): GoogleErrorBody | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const errors = (e as { errors?: unknown }).errors;
  if (Array.isArray(errors) && errors.length > 0) return { errors: errors as GoogleErrorBody['errors'] };
  const message = (e as { message?: unknown }).message;
  if (typeof message !== 'string' || !message.trimStart().startsWith('{')) return undefined;
  try {
    const parsed = JSON.parse(message) as { error?: GoogleErrorBody };
    return typeof parsed.error === 'object' && parsed.error !== null ? parsed.error : undefined;
  } catch {
    return undefined;
  }
}

function errorName(e: object): string | undefined {
  return (e as { constructor?: { name?: string } }).constructor?.name;
}

function firstLine(s: string): string {
  return s.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';
}

function truncate(s: string): string {
  return s.length > 300 ? `${s.slice(0, 297)}...` : s;
}
