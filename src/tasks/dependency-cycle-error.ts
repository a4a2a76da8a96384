import { KforgeError } from '../errors/kforge-error';

/** The tasks depend on each other in a circle; `cycle` is the path, first task repeated at the end. */
export class DependencyCycleError extends KforgeError {
  constructor(readonly cycle: readonly string[]) {
    super('DEPENDENCY_CYCLE', `tasks depend on each other in a cycle: ${cycle.join(' -> ')}`);
  }
}
