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
}

/** Renders an instance group's EC2 user-data: the shared boot script with AWS's parts (s3-get, IMDS, the region). */
export function renderUserData(p: UserDataParams): string {
  const { region, ...rest } = p;
  return renderBootScript({ ...rest, cloud: 'aws', cloudValues: { AWS_REGION: region } });
}
