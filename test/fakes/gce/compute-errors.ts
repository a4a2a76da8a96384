/** An error as the Compute API answers it: HTTP status, `errors[].reason`, message. */
export class ComputeApiError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }

  /** GCE's error JSON: `{"error":{"code","message","errors":[{"message","domain","reason"}]}}`. */
  body(): unknown {
    return { error: { code: this.status, message: this.message, errors: [{ message: this.message, domain: 'global', reason: this.reason }] } };
  }
}

/** 404 notFound, naming the resource as GCE does (`projects/p/global/networks/n`). */
export function notFound(resource: string): ComputeApiError {
  return new ComputeApiError(404, 'notFound', `The resource '${resource}' was not found`);
}

/** 409 alreadyExists. */
export function alreadyExists(resource: string): ComputeApiError {
  return new ComputeApiError(409, 'alreadyExists', `The resource '${resource}' already exists`);
}

/** 400 invalid (a field the API does not know, a malformed value). */
export function invalid(message: string): ComputeApiError {
  return new ComputeApiError(400, 'invalid', message);
}

/** 412 conditionNotMet: a stale fingerprint. */
export function staleFingerprint(resource: string): ComputeApiError {
  return new ComputeApiError(412, 'conditionNotMet', `Supplied fingerprint does not match current metadata fingerprint of '${resource}'.`);
}

/** 400 resourceInUseByAnotherResource: deleting what another resource references. */
export function inUse(resource: string, by: string): ComputeApiError {
  return new ComputeApiError(400, 'resourceInUseByAnotherResource', `The ${resource} resource is already being used by '${by}'`);
}
