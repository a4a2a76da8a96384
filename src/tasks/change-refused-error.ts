import { KforgeError } from '../errors/kforge-error';
import type { Change } from './task';

/** A task's check refused a change that the cloud cannot apply in place, e.g. a new VPC CIDR. */
export class ChangeRefusedError extends KforgeError {
  constructor(
    readonly taskKey: string,
    readonly change: Change,
    reason: string,
  ) {
    super('CHANGE_REFUSED', `${taskKey}: cannot change ${change.field} from ${JSON.stringify(change.from)} to ${JSON.stringify(change.to)}: ${reason}`);
  }
}
