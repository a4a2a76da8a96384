import { KforgeError } from '../errors/kforge-error';

/** The update pipeline did not hand a cloud's model builders a value they need (e.g. an instance group's nodeup config hash). */
export class MissingModelInputError extends KforgeError {
  constructor(what: string) {
    super('MISSING_MODEL_INPUT', `the cloud model needs ${what}, which the caller did not provide`);
  }
}
