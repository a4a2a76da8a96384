import * as yaml from 'js-yaml';
import type { Cluster, InstanceGroup } from '../api/types';
import { NotFoundError } from '../errors/not-found-error';
import { StateStoreError } from '../errors/state-store-error';
import { StatePaths } from './state-paths';
import type { Vfs } from './vfs/vfs';

/** An object read from the store with the version token needed to update it safely. */
export interface Versioned<T> {
  object: T;
  version: string;
}

/** A cluster as stored: the user's Cluster and InstanceGroups (not the completed spec). */
export interface StoredCluster {
  cluster: Versioned<Cluster>;
  /** Sorted by name. */
  instanceGroups: Array<Versioned<InstanceGroup>>;
  /** Objects of other kinds kept with the cluster (from its manifest), in their order. */
  additionalObjects: Array<Record<string, unknown>>;
}

/** Reads clusters from a state store laid out as kops does (`<cluster>/config`, `<cluster>/instancegroup/*`). */
export class ClusterRepository {
  constructor(readonly vfs: Vfs) {}

  /** Names of every cluster in the store, sorted. */
  async listClusterNames(): Promise<string[]> {
    return (await this.listNames()).clusters;
  }

  /**
   * Names of every cluster (those with a `config`), and of incomplete ones: names with objects but no
   * `config`, left by an interrupted create or delete (the lock alone does not count). Both sorted.
   */
  async listNames(): Promise<{ clusters: string[]; incomplete: string[] }> {
    const keys = await this.vfs.list('');
    const clusters = new Set<string>();
    const seen = new Set<string>();
    for (const k of keys) {
      const slash = k.indexOf('/');
      if (slash <= 0) continue;
      const name = k.slice(0, slash);
      if (k === StatePaths.config(name)) clusters.add(name);
      else if (k !== StatePaths.lock(name)) seen.add(name);
    }
    return { clusters: [...clusters].sort(), incomplete: [...seen].filter((n) => !clusters.has(n)).sort() };
  }

  /** True if the cluster's `config` exists. */
  async exists(name: string): Promise<boolean> {
    return (await this.vfs.read(StatePaths.config(name))) !== undefined;
  }

  /** Reads a cluster and its instance groups; NotFoundError when the cluster does not exist. */
  async get(name: string): Promise<StoredCluster> {
    const cfg = await this.vfs.read(StatePaths.config(name));
    if (!cfg) throw new NotFoundError(`cluster "${name}" not found in state store ${this.vfs.url}`);
    const cluster = { object: parseObject<Cluster>(cfg.data, `${this.vfs.url}/${StatePaths.config(name)}`), version: cfg.version };
    const keys = await this.vfs.list(StatePaths.instanceGroupPrefix(name));
    const instanceGroups: Array<Versioned<InstanceGroup>> = [];
    for (const key of keys) {
      const obj = await this.vfs.read(key);
      if (obj) instanceGroups.push({ object: parseObject<InstanceGroup>(obj.data, `${this.vfs.url}/${key}`), version: obj.version });
    }
    instanceGroups.sort((a, b) => a.object.metadata.name.localeCompare(b.object.metadata.name));
    const extra = await this.vfs.read(StatePaths.additionalObjects(name));
    const additionalObjects = extra ? parseObjects(extra.data, `${this.vfs.url}/${StatePaths.additionalObjects(name)}`) : [];
    return { cluster, instanceGroups, additionalObjects };
  }

  /** Reads the completed (expanded) spec; NotFoundError when absent. */
  async getCompleted(name: string): Promise<Cluster> {
    const obj = await this.vfs.read(StatePaths.completedSpec(name));
    if (!obj) throw new NotFoundError(`cluster "${name}" has no completed spec in ${this.vfs.url}`);
    return parseObject<Cluster>(obj.data, `${this.vfs.url}/${StatePaths.completedSpec(name)}`);
  }
}

function parseObjects(data: Buffer, where: string): Array<Record<string, unknown>> {
  try {
    return (yaml.loadAll(data.toString('utf8')) as unknown[]).filter((v): v is Record<string, unknown> => !!v && typeof v === 'object');
  } catch (e) {
    throw new StateStoreError(`${where} is corrupt: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function parseObject<T>(data: Buffer, where: string): T {
  try {
    const v = yaml.load(data.toString('utf8'));
    if (!v || typeof v !== 'object') throw new Error('not a mapping');
    return v as T;
  } catch (e) {
    throw new StateStoreError(`${where} is corrupt: ${e instanceof Error ? e.message : String(e)}`);
  }
}
