import type { AwsCloud } from './aws-cloud';
import { AwsCredentialsError } from './aws-credentials-error';
import { awsErrorMessage, classifyAwsError } from './aws-errors';
import { withAwsRetries } from './with-aws-retries';

/**
 * Proves the run's credentials with one STS GetCallerIdentity, before anything is planned or printed:
 * missing or rejected credentials, or an endpoint that does not answer, fail at once with what to do.
 * Returns the account id.
 */
export async function checkAwsCredentials(cloud: AwsCloud): Promise<string> {
  const { sdk, client } = await cloud.sts();
  try {
    const out = await withAwsRetries(() => client.send(new sdk.GetCallerIdentityCommand({})));
    return out.Account ?? '';
  } catch (e) {
    const kind = classifyAwsError(e);
    if (kind === 'no-credentials') {
      throw new AwsCredentialsError('no AWS credentials found: set AWS_PROFILE (a profile in ~/.aws/credentials or ~/.aws/config), or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or run where an instance role is available');
    }
    if (kind === 'invalid-credentials' || kind === 'access-denied') throw new AwsCredentialsError(`AWS rejected the credentials: ${awsErrorMessage(e)}`);
    if (kind === 'unreachable') throw new AwsCredentialsError(`cannot reach AWS STS in ${cloud.region}: ${awsErrorMessage(e)} (check AWS_ENDPOINT_URL and the network)`);
    throw e;
  }
}
