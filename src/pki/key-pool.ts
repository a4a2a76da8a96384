import type { KeyObject } from 'node:crypto';
import { generateKey, KeyAlgorithm } from './generate-key';

const pool = new Map<KeyAlgorithm, Array<Promise<KeyObject>>>();

/**
 * Starts generating a key before it is needed, or adopts `key`, one already being generated. `bin/run.js`
 * does this for `create cluster`, so the service-account RSA key (the one slow key) is made on the thread
 * pool while the CLI loads.
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
