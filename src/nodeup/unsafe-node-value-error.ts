import { KforgeError } from '../errors/kforge-error';

/**
 * A value nodeup or protokube would write on the node is refused before anything is written: a file a
 * component flag names outside the directories kops uses for that component (never over /etc/shadow or
 * into /etc/cron.d), an /etc/hosts entry whose name is not a DNS name or whose address is not an IP, or a GCE
 * cloud-config value that is not a GCE name (it would add lines to /etc/kubernetes/cloud.config).
 * Names the field and the value.
 */
export class UnsafeNodeValueError extends KforgeError {
  constructor(message: string) {
    super('UNSAFE_NODE_VALUE', message);
  }
}
