import { KforgeError } from './kforge-error';

/** Creation refused because the resource already exists. */
export class AlreadyExistsError extends KforgeError {
  constructor(message: string) {
    super('ALREADY_EXISTS', message);
  }
}
