import * as dns from 'node:dns';

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

const pending = new Map<string, LookupCallback[]>();

/**
 * dns.lookup for HTTP agents that shares one getaddrinfo among concurrent lookups of the same name.
 * getaddrinfo cannot be cancelled and the process cannot exit while one runs: where DNS packets are
 * dropped, each retry of a timed-out connection would otherwise start another lookup that holds the
 * command for the resolver's whole timeout (~10 s) after it has given up.
 */
export function sharedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  const key = `${hostname}\0${JSON.stringify(options)}`;
  const waiting = pending.get(key);
  if (waiting) {
    waiting.push(callback);
    return;
  }
  pending.set(key, [callback]);
  dns.lookup(hostname, options, (err, address, family) => {
    const callbacks = pending.get(key) ?? [];
    pending.delete(key);
    for (const cb of callbacks) cb(err, address as string | dns.LookupAddress[], family);
  });
}
