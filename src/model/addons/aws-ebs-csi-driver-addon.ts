import images from '../../expand/assets/addon-images/aws-ebs-csi-driver.json';
import { isControlPlane } from '../../expand/expand-context';
import { compareVersions } from '../../expand/assets/asset-catalog';
import type { Addon, AddonBuilder, KubeObject } from './addon';
import data from './data/aws-ebs-csi-driver.json';
import snapshotter from './data/aws-ebs-csi-driver-snapshotter.json';
import { type AddonImage, findObject, imageValues, renderAddonData } from './render-addon-data';

interface Container {
  name: string;
  args?: string[];
  [field: string]: unknown;
}

interface PodTemplate {
  metadata: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: {
    hostNetwork?: boolean;
    containers: Container[];
    affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: Array<{ matchExpressions: Array<{ key: string }> }> } } };
  };
}

/**
 * kops's `aws-ebs-csi-driver.addons.k8s.io` k8s-1.17 (upup/models/cloudup/resources/addons/aws-ebs-csi-driver.addons.k8s.io/k8s-1.17.yaml.template):
 * the EBS CSI driver's controller (on the control plane, whose role holds the driver's EC2 permissions, see
 * iam-addon-statements.ts) and node DaemonSet, their RBAC and the `ebs.csi.aws.com` CSIDriver, so the
 * `kops-csi-1-21` default StorageClass (storage-aws) provisions volumes. Rendered on AWS, as kops always does.
 * The settings are `spec.cloudConfig.awsEBSCSIDriver` (defaults: src/expand/components/aws-ebs-csi-driver.ts).
 */
export const awsEbsCsiDriverAddon: AddonBuilder = ({ cluster, instanceGroups }): Addon[] => {
  const spec = cluster.spec;
  if (spec.cloudProvider !== 'aws') return [];
  const driver = spec.cloudConfig?.awsEBSCSIDriver ?? {};
  const table = images.images as Record<string, AddonImage>;
  const version = driver.version ?? table['aws-ebs-csi-driver'].tag;
  const values = {
    clusterName: cluster.metadata.name,
    // kops's CloudLabels: KubernetesCluster and spec.cloudLabels as key=value, sorted.
    cloudLabels: [`KubernetesCluster=${cluster.metadata.name}`, ...Object.entries(spec.cloudLabels ?? {}).map(([k, v]) => `${k}=${String(v)}`)].sort().join(','),
    region: (spec.subnets?.find((s) => s.zone)?.zone ?? '').replace(/[a-z]$/, ''),
    version,
    ...imageValues(table, { 'aws-ebs-csi-driver': `${table['aws-ebs-csi-driver'].image}:${version}` }),
  };
  const objects = renderAddonData(data, values);

  const node = template(findObject(objects, 'DaemonSet', 'ebs-csi-node'));
  // Host network: the node plugin reaches the instance metadata service directly, and does not wait for the zone label.
  node.spec.hostNetwork = driver.hostNetwork === true;
  if (driver.hostNetwork === true) {
    for (const term of node.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms) {
      term.matchExpressions = term.matchExpressions.filter((e) => e.key !== 'topology.kubernetes.io/zone');
    }
  }
  if (driver.volumeAttachLimit !== undefined) {
    const plugin = container(node, 'ebs-plugin');
    const at = (plugin.args as string[]).indexOf('--logging-format=text');
    (plugin.args as string[]).splice(at, 0, `--volume-attach-limit=${driver.volumeAttachLimit}`);
  }

  const controllerDeployment = findObject(objects, 'Deployment', 'ebs-csi-controller');
  // kops's ControlPlaneControllerReplicas: two with more than one control-plane group.
  (controllerDeployment.spec as { replicas: number }).replicas = instanceGroups.filter(isControlPlane).length > 1 ? 2 : 1;
  const controller = template(controllerDeployment);
  if (spec.snapshotController?.enabled === true) {
    const at = controller.spec.containers.findIndex((c) => c.name === 'csi-attacher') + 1;
    controller.spec.containers.splice(at, 0, renderAddonData([snapshotter.container as unknown as KubeObject], values)[0] as unknown as Container);
  }
  for (const t of [node, controller]) annotate(t, driver.podAnnotations);

  if (compareVersions(String(spec.kubernetesVersion).replace(/^v/, ''), '1.35.0') >= 0) {
    (findObject(objects, 'CSIDriver', 'ebs.csi.aws.com').spec as Record<string, unknown>).nodeAllocatableUpdatePeriodSeconds = 10;
  }
  return [{ name: 'aws-ebs-csi-driver.addons.k8s.io', id: 'k8s-1.17', objects }];
};

/** The pod template of a workload. */
function template(workload: KubeObject): PodTemplate {
  return (workload.spec as { template: PodTemplate }).template;
}

/** A container of a pod template (throws when the data lacks it: a builder bug). */
function container(t: PodTemplate, name: string): Container {
  const c = t.spec.containers.find((x) => x.name === name);
  if (!c) throw new Error(`addon data: no container ${name}`);
  return c;
}

/** The spec's pod annotations on a pod template, sorted by key as kops's template ranges over them. */
function annotate(t: PodTemplate, annotations: Record<string, string> | undefined): void {
  if (!annotations || Object.keys(annotations).length === 0) return;
  t.metadata.annotations = Object.fromEntries(Object.entries(annotations).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
