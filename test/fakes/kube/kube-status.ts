/** A failure the fake answers with a `metav1.Status`, as kube-apiserver does. */
export class KubeStatusError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: { name?: string; group?: string; kind?: string; causes?: { reason: string; message: string; field?: string }[]; retryAfterSeconds?: number },
  ) {
    super(message);
  }

  /** The Status body. */
  body(): Record<string, unknown> {
    return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: this.message, reason: this.reason, ...(this.details ? { details: this.details } : {}), code: this.code };
  }
}

/** `resource "name" not found` (404), with the qualified resource as the real API words it. */
export function notFound(resource: string, group: string, name: string): KubeStatusError {
  const qualified = group ? `${resource}.${group}` : resource;
  return new KubeStatusError(404, 'NotFound', `${qualified} "${name}" not found`, { name, ...(group ? { group } : {}), kind: resource });
}

/** The Success Status of a delete or eviction. */
export function success(code = 200): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code };
}
