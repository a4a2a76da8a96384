import { KforgeError } from '../errors/kforge-error';
import type { Keypair } from '../pki/keypair';
import { IdentityDenied } from './identity-denied';
import type { ApprovalQueue } from './approval-queue';
import { issueNodeCertificates } from './node-client-certificate';
import { parseBootstrapRequest, parsePublicKeys, ServiceAnswer } from './node-identity-server';

/** The status a pending request is answered with (202 Accepted): the node asks again later with the same body. */
export const PENDING_STATUS = 202;

/**
 * `POST /bootstrap` in Approval mode: no proof is used (an `Authorization` header is ignored). A request is
 * recorded as pending and answered 202 `{"status":"Pending","name":…}` until an operator approves it; then
 * the same request (same name, same keys) gets its certificates, `CN=system:node:<name>` for exactly the
 * name recorded, as in Automatic mode; a denied one gets 403 `{"status":"Denied"}`.
 */
export function approvalHandler(queue: Pick<ApprovalQueue, 'decide'>, ca: Keypair, now: () => Date = () => new Date()): (body: Buffer, source: string) => Promise<ServiceAnswer> {
  return async (body, source) => {
    const request = parseBootstrapRequest(body);
    const keys = parsePublicKeys(request);
    // A config-only request (includeNodeConfig with no keys) needs the cloud's proof: Approval mode serves none.
    if (request.nodeName === undefined || keys.size === 0) throw new IdentityDenied('Approval mode: the request names no node or no key (nodeup configs are served only to cloud-verified nodes)', 400);
    const nodeName = request.nodeName;
    let d;
    try {
      // An IPv4 peer of a dual-stack socket shows as ::ffff:a.b.c.d; operators know it as a.b.c.d.
      d = await queue.decide(nodeName, keys, source.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, ''));
    } catch (e) {
      // The store could not be read or written (S3 busy, unreachable): the node asks again later.
      if (e instanceof KforgeError) throw new IdentityDenied(`the approval queue in the state store: ${e.message}`, 503);
      throw e;
    }
    const r = d.record;
    const prints = Object.entries(r.fingerprints)
      .map(([k, f]) => `${k} ${f}`)
      .join(', ');
    if (d.status === 'Pending') {
      return { status: PENDING_STATUS, body: { status: 'Pending', name: r.name }, line: `pending: request ${r.name} for node ${r.nodeName} (${prints}) ${d.created ? 'recorded' : 'waits'} for approval` };
    }
    const certs = issueNodeCertificates(ca, keys, r.nodeName, now());
    return { status: 200, body: { certs }, line: `issued ${Object.keys(certs).join(', ')} for node ${r.nodeName} (request ${r.name}, approved${r.decidedBy ? ` by ${r.decidedBy}` : ''})` };
  };
}
