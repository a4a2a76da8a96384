import { KforgeError } from '../../errors/kforge-error';

/** The spec asks for something the AWS model builders cannot build yet; names the field. */
export class UnsupportedModelError extends KforgeError {
  constructor(field: string, what: string) {
    super('NOT_SUPPORTED', `${field}: ${what} is not supported by kforge's AWS model yet`);
  }
}
