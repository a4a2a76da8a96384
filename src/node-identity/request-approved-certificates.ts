import { BOOTSTRAP_API_VERSION } from './node-identity-server';
import { NodeIdentityError } from './node-identity-error';
import { NodeRequestDeniedError } from './node-request-denied-error';
import { postBootstrap } from './request-node-certificates';

/** Where the node asks, and how it waits while its request is pending. */
export interface ApprovalClientOptions {
  cluster: string;
  /** The service's URLs, tried in order on each attempt. */
  servers: string[];
  /** The kops-controller-ca bundle the service's certificate must chain to. */
  caCertificates: string;
  /** Told once per attempt that finds the request pending (nodeup prints it). */
  onPending(name: string, server: string, nextPollMs: number): void;
  /** Told when, after the request was recorded, no server answered this attempt (each server's failure). */
  onUnreachable?(failures: string, nextPollMs: number): void;
  /** First wait between polls; it doubles up to maxPollMs. Default 5 s. */
  pollMs?: number;
  /** Longest wait between polls. Default 60 s. */
  maxPollMs?: number;
  /** How long to wait for a decision in all. Default 24 h (a pending request's lifetime). */
  maxWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * A node without a cloud proof (spec.nodeIdentity.mode Approval): sends its claimed name and public keys
 * with no `Authorization`, and while the service answers 202 (pending) sends the same request again with
 * a doubling wait, bounded; returns the certificates once an operator approved it. A denied request is
 * NodeRequestDeniedError; no 202/200 from any server at the first attempt, or no decision in time,
 * NodeIdentityError (after the first 202, unreachable servers only make it wait).
 */
export async function requestApprovedCertificates(nodeName: string, publicKeys: Record<string, string>, options: ApprovalClientOptions): Promise<Record<string, string>> {
  const body = JSON.stringify({ apiVersion: BOOTSTRAP_API_VERSION, nodeName, certs: publicKeys });
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const maxPoll = options.maxPollMs ?? 60_000;
  const maxWait = options.maxWaitMs ?? 24 * 3600 * 1000;
  let wait = options.pollMs ?? 5_000;
  let waited = 0;
  let recorded: string | undefined;
  for (;;) {
    const failures: string[] = [];
    let pending: string | undefined;
    let refused = false;
    for (const server of options.servers) {
      let answer: { status: number; body: string };
      try {
        answer = await postBootstrap(server, `kops-controller.internal.${options.cluster}`, options.caCertificates, body);
      } catch (e) {
        failures.push(`${server}: ${e instanceof Error ? e.message : String(e)}`);
        continue;
      }
      const parsed = parse(answer.body);
      if (answer.status === 200) {
        const certs = (parsed.certs ?? {}) as Record<string, unknown>;
        const missing = Object.keys(publicKeys).filter((k) => typeof certs[k] !== 'string');
        if (missing.length > 0) throw new NodeIdentityError(`${server} issued no ${missing.join(', ')} certificate`);
        return certs as Record<string, string>;
      }
      if (answer.status === 403 && parsed.status === 'Denied') {
        throw new NodeRequestDeniedError(`${server} says node ${nodeName}'s request was denied by an operator ("kforge deny node-request"); this machine gets no certificate`);
      }
      if (answer.status === 202 && typeof parsed.name === 'string') {
        pending = parsed.name;
        options.onPending(parsed.name, server, Math.min(wait, maxPoll));
        break;
      }
      failures.push(`${server} answered HTTP ${answer.status} (the reason is in its log: journalctl -u kforge-kops-controller on the control plane)`);
      // A 4xx is the service's decision (this name or key is taken, a malformed request), not an outage.
      if (answer.status >= 400 && answer.status < 500) refused = true;
    }
    // Once the request is recorded, a service that is restarting (a rolling update of the control plane) or a
    // busy store (503) does not end the wait: the next attempt asks again. A refusal does.
    if (pending === undefined && (recorded === undefined || refused)) throw new NodeIdentityError(`no node-identity service took node ${nodeName}'s request: ${failures.join('; ')}`);
    recorded ??= pending;
    if (pending === undefined) options.onUnreachable?.(failures.join('; '), Math.min(wait, maxPoll));
    if (waited >= maxWait) throw new NodeIdentityError(`node ${nodeName}'s request ${recorded} was not approved within ${Math.round(maxWait / 1000)} s; approve it with "kforge approve node-request ${recorded}" and run nodeup again`);
    const step = Math.min(wait, maxPoll, maxWait - waited);
    await sleep(step);
    waited += step;
    wait = Math.min(wait * 2, maxPoll);
  }
}

function parse(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
