import { KforgeError } from './kforge-error';
import { FieldError, formatFieldError } from './field-error';

/** Input failed validation; carries every problem found, not just the first. */
export class ValidationError extends KforgeError {
  /** All problems, in a stable order. */
  readonly errors: FieldError[];

  constructor(errors: FieldError[], subject = 'input') {
    const lines = errors.map((e) => `  ${formatFieldError(e)}`);
    super('INVALID_SPEC', `${subject} is invalid (${errors.length} ${errors.length === 1 ? 'error' : 'errors'}):\n${lines.join('\n')}`);
    this.errors = errors;
  }
}
