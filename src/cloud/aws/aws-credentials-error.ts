import { KforgeError } from '../../errors/kforge-error';

/** AWS cannot be used: no credentials found, credentials AWS rejects, or an endpoint that does not answer. */
export class AwsCredentialsError extends KforgeError {
  constructor(message: string) {
    super('AWS_CREDENTIALS', message);
  }
}
