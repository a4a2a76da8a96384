import type { Cluster } from '../../api/types';
import { CloudAccessError } from '../../errors/cloud-access-error';
import { regionOfZone } from '../../validate/validate-spec';
import { AwsCloud } from './aws-cloud';
import { checkAwsCredentials } from './check-aws-credentials';

/** How connectAwsCloud reaches AWS. */
export interface ConnectAwsCloudOptions {
  /** Environment of the clients (AWS_ENDPOINT_URL, profiles); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Static credentials (tests); default the SDK's standard chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** The cluster's UID (`<cluster>/cluster-uid`), when the caller read it: salts the idempotency tokens. */
  clusterUid?: string;
  /** Added to every error message, e.g. what was not done. */
  consequence?: string;
}

/**
 * A cluster's AWS, for the commands that call it (`update`, `delete`): the region of its subnets' zones
 * (exactly one), and the credentials proven by one STS call before anything is planned or deleted.
 * CloudAccessError when the region cannot be told or the credentials do not work.
 */
export async function connectAwsCloud(cluster: Cluster, options: ConnectAwsCloudOptions = {}): Promise<AwsCloud> {
  const name = cluster.metadata.name;
  const consequence = options.consequence ?? '';
  const regions = [...new Set((cluster.spec?.subnets ?? []).flatMap((s) => (s.zone ? [regionOfZone(s.zone, 'aws')] : [])))];
  if (regions.length !== 1) {
    const why = regions.length === 0 ? 'its subnets name no zone (spec.subnets[].zone)' : `its subnets are in ${regions.join(', ')}`;
    throw new CloudAccessError(`cannot tell the AWS region of cluster "${name}": ${why}${consequence}`);
  }
  const cloud = new AwsCloud({ clusterName: name, region: regions[0], env: options.env, credentials: options.credentials, clusterUid: options.clusterUid });
  cloud.accountId = (await checkAwsCredentials(cloud, consequence)) || undefined;
  return cloud;
}
