import { IdentityDenied } from './identity-denied';

/** A request an operator denied: 403, and the node is told it was denied (its own request, so nothing leaks). */
export class RequestDenied extends IdentityDenied {
  constructor(reason: string) {
    super(reason, 403, { status: 'Denied', error: 'the request was denied' });
  }
}
