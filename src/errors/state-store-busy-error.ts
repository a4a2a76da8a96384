import { KforgeError } from './kforge-error';

/** What the store's service answered to the last attempt of an operation it kept refusing as busy. */
export interface StoreBusyAnswer {
  /** The operation, as its permission is named, e.g. `s3:GetObject`. */
  operation: string;
  /** What the operation was on, e.g. `s3://bucket/prefix/name/config`. */
  target: string;
  /** The service's error code, e.g. `SlowDown`; undefined when the answer had no body (a HEAD). */
  errorCode: string | undefined;
  /** The HTTP status, e.g. 503. */
  httpStatus: number | undefined;
  attempts: number;
  elapsedMs: number;
}

/**
 * The state store kept answering busy (S3's 503 SlowDown, a 5xx) until the retry budget ran out. Names the
 * operation, the object, the answer and how long kforge tried; nothing was changed by the failed operation.
 */
export class StateStoreBusyError extends KforgeError {
  constructor(
    readonly store: string,
    readonly answer: StoreBusyAnswer,
  ) {
    const status = answer.httpStatus === undefined ? '' : `HTTP ${answer.httpStatus}`;
    // An error answer to a HEAD has no body, so S3 names no code there; the status is all there is.
    const what = answer.errorCode ? `${answer.errorCode}${status ? ` (${status})` : ''}` : `${status || 'a busy answer'} without an error code`;
    super(
      'STATE_STORE_BUSY',
      `state store ${store}: ${answer.operation} on ${answer.target} failed ${answer.attempts} times over ${Math.round(answer.elapsedMs / 1000)} s, ` +
        `the last with ${what}: the store is throttling or unavailable; try again later`,
    );
  }
}
