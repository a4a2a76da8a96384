import type { AddonBuilder } from './addon';
import { amazonVpcAddon } from './amazon-vpc-addon';
import { awsCloudControllerAddon } from './aws-cloud-controller-addon';
import { awsEbsCsiDriverAddon } from './aws-ebs-csi-driver-addon';
import { buildNodeTerminationHandlerAddon } from './node-termination-handler-addon';
import { calicoAddon } from './calico-addon';
import { ciliumAddon } from './cilium-addon';
import { corednsAddon } from './coredns-addon';
import { flannelAddon } from './flannel-addon';
import { gcpCloudControllerAddon } from './gcp-cloud-controller-addon';
import { gcpPdCsiDriverAddon } from './gcp-pd-csi-driver-addon';
import { kubeRouterAddon } from './kube-router-addon';
import { kubeletApiRbacAddon } from './kubelet-api-rbac-addon';
import { limitRangeAddon } from './limit-range-addon';
import { metricsServerAddon } from './metrics-server-addon';
import { nodeBootstrapRbacAddon } from './node-bootstrap-rbac-addon';
import { nodeLocalDnsAddon } from './nodelocaldns-addon';
import { nodeProblemDetectorAddon } from './node-problem-detector-addon';
import { storageAwsAddon } from './storage-aws-addon';
import { storageGceAddon } from './storage-gce-addon';

/**
 * Every addon builder, in the order kops lists its channel entries. Each helper module adds its builder here;
 * the channel is assembled from their results in this order.
 */
export const ADDON_BUILDERS: AddonBuilder[] = [
  corednsAddon,
  kubeletApiRbacAddon,
  limitRangeAddon,
  nodeLocalDnsAddon,
  metricsServerAddon,
  buildNodeTerminationHandlerAddon,
  nodeProblemDetectorAddon,
  storageAwsAddon,
  // GCE (kops: after the storage classes of the other clouds, before networking).
  storageGceAddon,
  gcpPdCsiDriverAddon,
  gcpCloudControllerAddon,
  // networking (kops: after storage-aws, before the cloud-controller-manager); at most one renders.
  ciliumAddon,
  calicoAddon,
  flannelAddon,
  kubeRouterAddon,
  amazonVpcAddon,
  awsCloudControllerAddon,
  awsEbsCsiDriverAddon,
  nodeBootstrapRbacAddon,
];
