import type { NodeupArtifacts } from '../nodeup-artifacts';
import { renderBootScript } from '../render-boot-script';

export { UserDataValueError } from '../render-boot-script';

/** What an instance group's user-data says: the boot config nodeup starts from. */
export interface UserDataParams {
  clusterName: string;
  /** The cluster's `spec.configBase` (the state store URL of the cluster). */
  configBase: string;
  region: string;
  instanceGroup: string;
  /** `ControlPlane` or `Node`. */
  role: string;
  /** sha256 (hex) of the group's nodeupconfig.yaml. */
  nodeupConfigHash: string;
  /** The cluster's `spec.assets.fileRepository`: the runtime and nodeup are downloaded from it when set. */
  fileRepository?: string;
  /** The runtime and nodeup downloads. Default: nodeupArtifacts(fileRepository, …, configBase), this build's. */
  artifacts?: NodeupArtifacts;
  /**
   * kops's ConfigServer (a worker of a cluster with one, src/model/config-server.ts): the boot config names the
   * service instead of the store, and a nodeup bundle the store would deliver comes from the service
   * (`GET <server>/nodeup/<sha256>`) over TLS pinned to `caCertificates` (kops-controller-ca, public).
   * With `via` (a cluster without DNS: the API load balancer's DNS name, or the launch template's placeholder
   * for it) the boot config names `https://<via>:3988` and curl connects the service's name to that host, so
   * TLS still checks the certificate for `kops-controller.internal.<cluster>`.
   */
  configServer?: { servers: string[]; caCertificates: string; via?: string };
  /** kops's BootConfig.APIServerIPs (a worker of a cluster without DNS), or the launch template's placeholder for them. */
  apiServerIps?: readonly string[];
}

/** Renders an instance group's EC2 user-data: the shared boot script with AWS's parts (s3-get, IMDS, the region). */
export function renderUserData(p: UserDataParams): string {
  const { region, configServer, ...rest } = p;
  return renderBootScript({ ...rest, cloud: 'aws', cloudValues: { AWS_REGION: region }, configServer: configServer && { ...configServer, region } });
}
