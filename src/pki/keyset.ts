import { Keypair } from './keypair';

/**
 * A named set of keys with one primary, as kops stores them (`pki/private/<name>/keyset.yaml`): the
 * primary signs and is used; the others stay trusted until distrusted, which makes rotation possible.
 */
export class Keyset {
  constructor(
    readonly name: string,
    /** Keys sorted by id. */
    readonly keys: Keypair[],
    readonly primaryId: string,
  ) {
    if (!keys.some((k) => k.id === primaryId)) throw new Error(`keyset ${name}: primary id ${primaryId} is not one of its keys`);
  }

  /** A keyset of one key, which is primary. */
  static single(name: string, keypair: Keypair): Keyset {
    return new Keyset(name, [keypair], keypair.id);
  }

  /** The primary keypair. */
  primary(): Keypair {
    return this.keys.find((k) => k.id === this.primaryId) as Keypair;
  }

  /** All trusted certificates, primary first, as one PEM bundle (what a trust store needs). */
  certificateBundle(): string {
    const trusted = this.keys.filter((k) => !k.distrustTimestamp);
    return [this.primary(), ...trusted.filter((k) => k.id !== this.primaryId)].map((k) => k.certificatePem).join('');
  }

  /** The same keyset without private keys. */
  publicOnly(): Keyset {
    return new Keyset(this.name, this.keys.map((k) => k.publicOnly()), this.primaryId);
  }
}
