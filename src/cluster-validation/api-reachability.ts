import * as dns from 'node:dns';
import * as https from 'node:https';
import * as net from 'node:net';
import * as tls from 'node:tls';
import type { KubeAccess } from './kube-access';

/** The step at which the API could not be used. */
export type ApiStep = 'dns' | 'tcp' | 'tls' | 'auth' | 'api';

/** Why the API cannot be used: the step, and a sentence naming the likely culprit. */
export interface ApiProblem {
  step: ApiStep;
  message: string;
}

/** Resolves a host name to an address (dns.promises.lookup's shape). */
export type Lookup = (host: string) => Promise<{ address: string }>;

/** Probe settings. */
export interface ProbeOptions {
  /** Default: the system resolver (dns.promises.lookup). */
  lookup?: Lookup;
  /** How long TCP connect and the TLS handshake may each take; default 10 s. */
  timeoutMs?: number;
}

const WRONG_CA = new Set(['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_SIGNATURE_FAILURE']);
const EXPIRED = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);
const NO_NAME = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_NODATA']);

function code(e: unknown): string {
  return (e as NodeJS.ErrnoException)?.code ?? 'unknown';
}

/** A TLS handshake failure in words, by the error's code. */
function tlsProblem(host: string, e: unknown): ApiProblem {
  const c = code(e);
  if (c === 'ERR_TLS_CERT_ALTNAME_INVALID') return { step: 'tls', message: `TLS failed: the API's serving certificate does not name ${host} (SAN mismatch; the certificate is for other names) [${c}]` };
  if (WRONG_CA.has(c)) return { step: 'tls', message: `TLS failed: the API's serving certificate is not signed by the CA of the credentials (wrong CA) [${c}]` };
  if (EXPIRED.has(c)) return { step: 'tls', message: `TLS failed: the API's serving certificate is expired or not yet valid [${c}]` };
  return { step: 'tls', message: `TLS handshake failed [${c}]` };
}

/**
 * Probes the API endpoint step by step, so that a failure names its step: the name resolves; TCP
 * answers (a security group or a load balancer without healthy targets drops it, a missing listener
 * refuses it); the TLS handshake succeeds with the credentials' CA and the server name. Makes no API
 * request (the authenticated call is validate's first list). Undefined when all steps pass.
 */
export async function probeApi(access: KubeAccess, o: ProbeOptions = {}): Promise<ApiProblem | undefined> {
  const url = new URL(access.server);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || 443);
  const timeoutMs = o.timeoutMs ?? 10_000;
  let address = host;
  if (!net.isIP(host)) {
    try {
      address = (await (o.lookup ?? ((h: string) => dns.promises.lookup(h)))(host)).address;
    } catch (e) {
      const c = code(e);
      return { step: 'dns', message: NO_NAME.has(c) ? `the API name ${host} does not resolve (no DNS record yet, or the wrong name) [${c}]` : `cannot resolve the API name ${host} [${c}]` };
    }
  }
  const socket = await new Promise<net.Socket | ApiProblem>((resolve) => {
    const s = net.connect({ host: address, port });
    const timer = setTimeout(() => {
      s.destroy();
      resolve({ step: 'tcp', message: `TCP to ${address}:${port} got no answer in ${timeoutMs} ms (a security group or network ACL drops it, or the load balancer has no healthy target)` });
    }, timeoutMs);
    s.once('connect', () => {
      clearTimeout(timer);
      resolve(s);
    });
    s.once('error', (e) => {
      clearTimeout(timer);
      const c = code(e);
      resolve({ step: 'tcp', message: c === 'ECONNREFUSED' ? `TCP to ${address}:${port} was refused (nothing listens: no load balancer listener, or kube-apiserver is not running) [${c}]` : `TCP to ${address}:${port} failed [${c}]` });
    });
  });
  if (!(socket instanceof net.Socket)) return socket;
  const opts: https.RequestOptions = {};
  await access.kc.applyToHTTPSOptions(opts);
  // The kubeconfig's tls-server-name (what `export kubeconfig` writes for a GCE API address) is the name checked.
  const name = opts.servername || host;
  return new Promise<ApiProblem | undefined>((resolve) => {
    const t = tls.connect({ socket, host, servername: net.isIP(name) ? undefined : name, ca: opts.ca, cert: opts.cert, key: opts.key, rejectUnauthorized: opts.rejectUnauthorized !== false });
    const timer = setTimeout(() => {
      t.destroy();
      resolve({ step: 'tls', message: `TLS handshake with ${address}:${port} got no answer in ${timeoutMs} ms` });
    }, timeoutMs);
    t.once('secureConnect', () => {
      clearTimeout(timer);
      t.end();
      resolve(undefined);
    });
    t.once('error', (e) => {
      clearTimeout(timer);
      t.destroy();
      resolve(tlsProblem(name, e));
    });
  });
}

/** An API call's failure as a problem: 401 and 403 name the credentials; anything else is the API's answer. */
export function apiCallProblem(e: unknown, source: string): ApiProblem {
  const status = (e as { code?: unknown })?.code;
  const body = (e as { body?: unknown })?.body;
  let message: string | undefined;
  try {
    message = (typeof body === 'string' ? JSON.parse(body) : body)?.message;
  } catch {
    // Not a Status object: keep the status code alone.
  }
  if (status === 401) return { step: 'auth', message: `401 Unauthorized: the API does not accept the credentials from ${source} (a client certificate not from the cluster's CA, or expired)` };
  if (status === 403) return { step: 'auth', message: `403 Forbidden: the credentials from ${source} may not list nodes and pods${message ? `: ${message}` : ''}` };
  if (typeof status === 'number') return { step: 'api', message: `the API answered ${status}${message ? `: ${message}` : ''}` };
  return { step: 'api', message: `the API request failed [${code(e)}]` };
}
