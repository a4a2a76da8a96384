import { KforgeError } from '../../errors/kforge-error';
import { FieldError, formatFieldError } from '../../errors/field-error';

/** The spec asks for what the AWS account or region does not have (an instance type, a zone); lists every problem. */
export class AwsPreflightError extends KforgeError {
  constructor(readonly errors: readonly FieldError[], region: string) {
    super(
      'PREFLIGHT_FAILED',
      `the cluster asks for what region ${region} does not offer (${errors.length} ${errors.length === 1 ? 'problem' : 'problems'}):\n${errors.map((e) => `  ${formatFieldError(e)}`).join('\n')}`,
    );
  }
}
