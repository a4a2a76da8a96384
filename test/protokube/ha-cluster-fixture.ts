import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import type { Cluster, InstanceGroup } from '../../src/api/types';
import { newCluster } from '../../src/create/new-cluster';
import { planManagedFiles, writeManagedFiles } from '../../src/ops/plan-managed-files';
import { saveCluster } from '../../src/ops/save-cluster';
import { KeysetYaml } from '../../src/pki/keyset-yaml';
import type { Keyset } from '../../src/pki/keyset';
import { openVfs } from '../../src/state/vfs/open-vfs';

/** The control-plane zones of the HA test cluster, one etcd member each (a, b, c). */
export const HA_ZONES = ['us-east-1a', 'us-east-1b', 'us-east-1c'];

/** An HA cluster as `create cluster` + `update cluster --yes` leave it in a directory state store. */
export interface HaCluster {
  name: string;
  store: string;
  configBase: string;
  completed: Cluster;
  instanceGroups: InstanceGroup[];
  keyset(name: string): Keyset;
  /** A boot config (kube_env.yaml) of one control-plane group, as user-data writes it; returns its path. */
  bootConfig(dir: string, zone: string): string;
}

/** Creates the cluster `name` (3 control-plane zones, DNS `dns`) in the store directory `store`. */
export async function makeHaCluster(store: string, name: string, dns: 'none' | 'public' | 'private' = 'none', dnsZone?: string): Promise<HaCluster> {
  const vfs = openVfs(store);
  const planned = newCluster({ name, zones: HA_ZONES, controlPlaneZones: HA_ZONES, networking: 'calico', dns, dnsZone, topology: dns === 'private' ? 'private' : 'public' });
  await saveCluster(vfs, { cluster: planned.cluster, instanceGroups: planned.instanceGroups });
  const plan = await planManagedFiles(vfs, name);
  await writeManagedFiles(vfs, plan);
  const configBase = path.join(store, name);
  return {
    name,
    store,
    configBase,
    instanceGroups: planned.instanceGroups,
    completed: yaml.load(fs.readFileSync(path.join(configBase, 'cluster-completed.spec'), 'utf8')) as Cluster,
    keyset: (k) => KeysetYaml.parse(fs.readFileSync(path.join(configBase, 'pki', 'private', k, 'keyset.yaml')), k, k),
    bootConfig: (dir, zone) => {
      const file = path.join(dir, `kube_env-${zone}.yaml`);
      const fields = [`CloudProvider: aws`, `ClusterName: ${name}`, `ConfigBase: ${configBase}`, `InstanceGroupName: control-plane-${zone}`, `InstanceGroupRole: ControlPlane`, `NodeupConfigHash: ${plan.nodeupConfigHashes[`control-plane-${zone}`]}`];
      fs.writeFileSync(file, fields.join('\n') + '\n');
      return file;
    },
  };
}
