import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { loadManifests } from '../../src/api/load-manifests';
import type { Cluster, InstanceGroup } from '../../src/api/types';
import { knownKubernetesVersions } from '../../src/expand/assets/asset-catalog';
import type { KubeObject } from '../../src/model/addons/addon';
import { completeCluster } from '../../src/ops/expand-cluster';

/** Where kops's addon output for its integration cases lives (test/fixtures/kops-addons/SOURCE.md). */
export const KOPS_ADDONS = path.join(__dirname, '..', 'fixtures', 'kops-addons');

/** The labels kops's channel builder stamps on every object of an addon (the channel assembly's job in kforge). */
export const KOPS_STAMPED_LABELS = ['addon.kops.k8s.io/name', 'app.kubernetes.io/managed-by'];

/**
 * The Cluster fields of kops's addons kforge refuses at validation, "not supported yet" (docs/addons.md,
 * "Optional addons"), with kops's addon name: a kops case's input drops them before kforge completes it.
 */
export const REFUSED_ADDON_FIELDS: Readonly<Record<string, string>> = {
  clusterAutoscaler: 'cluster-autoscaler.addons.k8s.io',
  certManager: 'certmanager.io',
  awsLoadBalancerController: 'aws-load-balancer-controller.addons.k8s.io',
  snapshotController: 'snapshot-controller.addons.k8s.io',
  podIdentityWebhook: 'eks-pod-identity-webhook.addons.k8s.io',
};

/** Drops the refused addon fields (REFUSED_ADDON_FIELDS) from a kops input. */
export function dropRefusedAddonFields(cluster: Cluster): void {
  for (const field of Object.keys(REFUSED_ADDON_FIELDS)) delete (cluster.spec as Record<string, unknown>)[field];
}

/**
 * A kops integration case's input (the refused addon fields dropped), completed by kforge: its Kubernetes version moved to the kforge-supported
 * release of the same minor (or the oldest supported one), configBase derived from kops's.
 */
export function completeKopsCase(name: string, edit?: (c: Cluster) => void): { cluster: Cluster; instanceGroups: InstanceGroup[] } {
  const set = loadManifests(fs.readFileSync(path.join(KOPS_ADDONS, name, 'in-v1alpha2.yaml'), 'utf8'), `${name}/in-v1alpha2.yaml`);
  const cluster = set.clusters[0];
  dropRefusedAddonFields(cluster);
  const minor = String(cluster.spec.kubernetesVersion).replace(/^v/, '').split('.').slice(0, 2).join('.');
  const known = knownKubernetesVersions();
  cluster.spec.kubernetesVersion = known.find((v) => v.startsWith(`${minor}.`)) ?? known[known.length - 1];
  const store = String(cluster.spec.configBase).replace(/\/[^/]+$/, '');
  edit?.(cluster);
  return { cluster: completeCluster(cluster, set.instanceGroups, store), instanceGroups: set.instanceGroups };
}

/** kops's rendered objects of one manifest of a case, without the labels kops's channel builder stamps. */
export function kopsAddonObjects(name: string, file: string): KubeObject[] {
  const docs = yaml.loadAll(fs.readFileSync(path.join(KOPS_ADDONS, name, file), 'utf8')).filter(Boolean) as KubeObject[];
  for (const d of docs) {
    const labels = d.metadata.labels;
    if (!labels) continue;
    for (const l of KOPS_STAMPED_LABELS) delete labels[l];
    if (Object.keys(labels).length === 0) delete d.metadata.labels;
  }
  return docs;
}
