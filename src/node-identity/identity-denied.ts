/**
 * Why the node-identity service refuses a request: not an error of the service (no `code`, never thrown to
 * the CLI) but the decision itself, answered with `status` and logged with `reason` on one line. The reason
 * is never sent to the caller (kops does the same): a prober learns nothing about which check failed.
 */
export class IdentityDenied extends Error {
  constructor(
    /** One line for the service's log: what was checked and what was found. */
    readonly reason: string,
    /** The HTTP status: 403 for an identity that does not hold, 400 for a malformed request, 413 for an oversized body, 429 when the approval queue is full, 503 when STS cannot be asked. */
    readonly status: 400 | 403 | 413 | 429 | 503 = 403,
    /** The body sent instead of the fixed refusal, where the caller may learn the decision (its own request denied by an operator). */
    readonly answer?: unknown,
  ) {
    super(reason);
    this.name = 'IdentityDenied';
  }
}
