import { createPrivateKey, KeyObject, X509Certificate } from 'node:crypto';
import { CertificateSigner } from './certificate-builder';
import { certificateParts } from './certificate-parts';

/** One key of a keyset: its certificate and, where the reader may see it, its private key. */
export class Keypair {
  /** The certificate, parsed. */
  readonly certificate: X509Certificate;
  private cachedSigner?: CertificateSigner;

  constructor(
    /** The key id within its keyset (the certificate serial in decimal, for kforge-made keys). */
    readonly id: string,
    /** The certificate in PEM. */
    readonly certificatePem: string,
    /** The private key in PKCS#8 PEM; undefined when read from `pki/issued/`. */
    readonly privateKeyPem?: string,
    /** When the key stopped being trusted (rotation); undefined while trusted. */
    readonly distrustTimestamp?: string,
  ) {
    this.certificate = new X509Certificate(certificatePem);
  }

  /** Builds a keypair from a generated key and its certificate. */
  static fromKey(id: string, certificatePem: string, privateKey: KeyObject): Keypair {
    return new Keypair(id, certificatePem, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
  }

  /** The private key as a KeyObject; throws if this keypair was read without it. */
  privateKey(): KeyObject {
    if (!this.privateKeyPem) throw new Error(`the private key of keypair ${this.id} was not loaded`);
    return createPrivateKey(this.privateKeyPem);
  }

  /** This keypair as a certificate issuer. */
  signer(): CertificateSigner {
    // One CA signs several certificates in a row; parse its key and name once.
    this.cachedSigner ??= { privateKey: this.privateKey(), ...certificateParts(this.certificate) };
    return this.cachedSigner;
  }

  /** The same keypair without its private key. */
  publicOnly(): Keypair {
    return new Keypair(this.id, this.certificatePem, undefined, this.distrustTimestamp);
  }
}
