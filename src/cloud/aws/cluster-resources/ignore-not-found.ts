import { classifyAwsError } from '../aws-errors';

/** A rejection handler for a step of a deletion: a resource (or association, attachment, rule) already gone is done. */
export function ignoreNotFound(e: unknown): void {
  if (classifyAwsError(e) !== 'not-found') throw e;
}
