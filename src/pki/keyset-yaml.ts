import { createPrivateKey } from 'node:crypto';
import * as yaml from 'js-yaml';
import { StateStoreError } from '../errors/state-store-error';
import { Keypair } from './keypair';
import { Keyset } from './keyset';

interface KeysetDocument {
  apiVersion: string;
  kind: 'Keyset';
  metadata: { name: string };
  spec: {
    type: 'Keypair';
    primaryID: string;
    keys: Array<{ id: string; publicMaterial: string; privateMaterial?: string; distrustTimestamp?: string }>;
  };
}

const API_VERSIONS = ['kforge.dev/v1alpha2', 'kops.k8s.io/v1alpha2'];

/**
 * The keyset file format: kops's v1alpha2 Keyset, with PEM material base64-encoded as kops writes it,
 * so keysets can move between kops and kforge stores.
 */
export const KeysetYaml = {
  /** Serialises a keyset; private material only when `withPrivate` (for `pki/private/`). */
  stringify(keyset: Keyset, withPrivate: boolean): string {
    const doc: KeysetDocument = {
      apiVersion: 'kforge.dev/v1alpha2',
      kind: 'Keyset',
      metadata: { name: keyset.name },
      spec: {
        type: 'Keypair',
        primaryID: keyset.primaryId,
        keys: [...keyset.keys]
          .sort((a, b) => compareIds(a.id, b.id))
          .map((k) => ({
            id: k.id,
            publicMaterial: Buffer.from(k.certificatePem).toString('base64'),
            ...(withPrivate && k.privateKeyPem ? { privateMaterial: Buffer.from(k.privateKeyPem).toString('base64') } : {}),
            ...(k.distrustTimestamp ? { distrustTimestamp: k.distrustTimestamp } : {}),
          })),
      },
    };
    return yaml.dump(doc, { lineWidth: -1, noRefs: true });
  },

  /**
   * Parses a keyset file; StateStoreError naming `where` (the store file) and `name` (the keyset) when it
   * is not a valid keyset. Private keys are parsed here, so a corrupt one is reported with its keyset
   * and file, not as a bare OpenSSL error when something later signs with it.
   */
  parse(data: Buffer | string, where: string, name?: string): Keyset {
    try {
      const doc = yaml.load(data.toString()) as Partial<KeysetDocument> | undefined;
      if (!doc || doc.kind !== 'Keyset' || !API_VERSIONS.includes(doc.apiVersion ?? '')) throw new Error('not a Keyset document');
      const spec = doc.spec;
      if (!spec || !Array.isArray(spec.keys) || spec.keys.length === 0) throw new Error('spec.keys is empty');
      const keys = spec.keys.map((k, i) => {
        if (!k.id || !k.publicMaterial) throw new Error(`spec.keys[${i}] needs id and publicMaterial`);
        const priv = k.privateMaterial ? Buffer.from(k.privateMaterial, 'base64').toString() : undefined;
        if (priv !== undefined) {
          try {
            createPrivateKey(priv);
          } catch (e) {
            throw new Error(`spec.keys[${i}] (id ${String(k.id)}): the private key cannot be read (${e instanceof Error ? e.message : String(e)})`);
          }
        }
        return new Keypair(String(k.id), Buffer.from(k.publicMaterial, 'base64').toString(), priv, k.distrustTimestamp);
      });
      return new Keyset(String(doc.metadata?.name ?? ''), keys, String(spec.primaryID));
    } catch (e) {
      throw new StateStoreError(`${name === undefined ? '' : `keyset "${name}": `}${where} is not a valid keyset: ${e instanceof Error ? e.message : String(e)}`);
    }
  },
};

/** Orders numeric ids numerically (kforge and kops ids are decimal serials), others lexically. */
function compareIds(a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) return BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0;
  return a.localeCompare(b);
}
