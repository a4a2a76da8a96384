import type { KeyObject } from 'node:crypto';
import { generateKey, KeyAlgorithm } from './generate-key';

const pool = new Map<KeyAlgorithm, Array<Promise<KeyObject>>>();

/**
 * Starts generating a key before it is needed, or adopts `key`, one already being generated, so that a
 * command that will create the PKI (`update cluster` of a cluster without one) can have the slow
 * service-account RSA key made on the thread pool while it does other work.
 */
export function prewarmKey(algorithm: KeyAlgorithm, key: Promise<KeyObject> = generateKey(algorithm)): void {
  // A key nobody takes (the command failed early) must not surface as an unhandled rejection.
  key.catch(() => undefined);
  pool.set(algorithm, [...(pool.get(algorithm) ?? []), key]);
}

/** A new key: a prewarmed one if there is one, else freshly generated. */
export function takeKey(algorithm: KeyAlgorithm): Promise<KeyObject> {
  return pool.get(algorithm)?.shift() ?? generateKey(algorithm);
}
