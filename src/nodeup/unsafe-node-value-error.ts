import { KforgeError } from '../errors/kforge-error';

/**
 * A value nodeup or protokube would write on the node is refused before anything is written: a file a
 * component flag names outside the directories kops uses for that component (never over /etc/shadow or
 * into /etc/cron.d), or an /etc/hosts entry whose name is not a DNS name or whose address is not an IP.
 * Names the field and the value.
 */
export class UnsafeNodeValueError extends KforgeError {
  constructor(message: string) {
    super('UNSAFE_NODE_VALUE', message);
  }
}
