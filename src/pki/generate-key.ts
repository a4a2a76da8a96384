import { generateKeyPair, KeyObject } from 'node:crypto';

/** Key algorithms kforge generates: ECDSA P-256 for certificates, RSA 2048 for the service-account signer. */
export type KeyAlgorithm = 'ecdsa-p256' | 'rsa-2048';

/**
 * Generates a private key with Node's native crypto on the libuv thread pool, so several keys are made in
 * parallel and the main thread keeps working meanwhile.
 */
export function generateKey(algorithm: KeyAlgorithm): Promise<KeyObject> {
  return new Promise((resolve, reject) => {
    const done = (err: Error | null, _pub: KeyObject, priv: KeyObject) => (err ? reject(err) : resolve(priv));
    if (algorithm === 'rsa-2048') generateKeyPair('rsa', { modulusLength: 2048 }, done);
    else generateKeyPair('ec', { namedCurve: 'prime256v1' }, done);
  });
}
