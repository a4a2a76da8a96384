import { NotFoundError } from '../errors/not-found-error';
import { KeysetYaml } from '../pki/keyset-yaml';
import type { Keyset } from '../pki/keyset';
import { StatePaths } from './state-paths';
import type { StoreTransaction } from './store-transaction';
import type { Vfs } from './vfs/vfs';

/** A keyset as read, with the version tokens needed to replace it safely. */
export interface StoredKeyset {
  keyset: Keyset;
  privateVersion?: string;
  issuedVersion?: string;
}

/**
 * The cluster's keystore (`<configBase>/pki/`), in kops's layout: `pki/private/<name>/keyset.yaml` holds
 * the keys and is written as a secret; `pki/issued/<name>/keyset.yaml` holds only certificates.
 */
export class Keystore {
  constructor(
    readonly vfs: Vfs,
    readonly cluster: string,
  ) {}

  /** Names of every keyset, sorted. */
  async names(): Promise<string[]> {
    const prefix = StatePaths.issuedPrefix(this.cluster);
    const keys = await this.vfs.list(prefix);
    return keys.filter((k) => k.endsWith('/keyset.yaml')).map((k) => k.slice(prefix.length, -'/keyset.yaml'.length)).sort();
  }

  /** Reads a keyset's certificates (no private keys); undefined when absent. */
  async getPublic(name: string): Promise<StoredKeyset | undefined> {
    const key = StatePaths.issuedKeyset(this.cluster, name);
    const obj = await this.vfs.read(key);
    return obj ? { keyset: KeysetYaml.parse(obj.data, `${this.vfs.url}/${key}`, name), issuedVersion: obj.version } : undefined;
  }

  /** Reads a keyset with its private keys; NotFoundError naming the keyset when absent. */
  async getPrivate(name: string): Promise<StoredKeyset> {
    const key = StatePaths.privateKeyset(this.cluster, name);
    const obj = await this.vfs.read(key);
    if (!obj) throw new NotFoundError(`keyset "${name}" of cluster "${this.cluster}" not found in ${this.vfs.url}`);
    const issued = await this.vfs.read(StatePaths.issuedKeyset(this.cluster, name));
    return { keyset: KeysetYaml.parse(obj.data, `${this.vfs.url}/${key}`, name), privateVersion: obj.version, issuedVersion: issued?.version };
  }

  /**
   * Stages a keyset's two files: the private one first, as a secret. With `previous` both are
   * compare-and-swapped against what was read; without, both are create-only.
   */
  stage(tx: StoreTransaction, keyset: Keyset, previous?: StoredKeyset): string[] {
    const priv = StatePaths.privateKeyset(this.cluster, keyset.name);
    const issued = StatePaths.issuedKeyset(this.cluster, keyset.name);
    tx.put(priv, KeysetYaml.stringify(keyset, true), { secret: true, ...(previous?.privateVersion ? { ifVersion: previous.privateVersion } : { ifNotExists: true }) });
    tx.put(issued, KeysetYaml.stringify(keyset.publicOnly(), false), previous?.issuedVersion ? { ifVersion: previous.issuedVersion } : { ifNotExists: true });
    return [priv, issued];
  }
}
