import { CloudAccessError } from '../../errors/cloud-access-error';
import { CloudThrottledError } from '../../errors/cloud-throttled-error';
import type { AwsCloud } from './aws-cloud';
import { awsErrorMessage, classifyAwsError } from './aws-errors';
import { withAwsRetries } from './with-aws-retries';

const ATTEMPTS = 5;

/**
 * Proves the run's credentials with one STS GetCallerIdentity, before anything is planned, printed or
 * deleted: missing or rejected credentials, or an endpoint that does not answer, fail at once with a
 * CloudAccessError saying what to do, and throttling that outlasts the retries with a CloudThrottledError
 * (AWS answered, so the endpoint and network are fine); `consequence` is added to the message (e.g. what
 * was not done).
 * Returns the account id.
 */
export async function checkAwsCredentials(cloud: AwsCloud, consequence = ''): Promise<string> {
  const { sdk, client } = await cloud.sts();
  try {
    const out = await withAwsRetries(() => client.send(new sdk.GetCallerIdentityCommand({})), ATTEMPTS);
    return out.Account ?? '';
  } catch (e) {
    const kind = classifyAwsError(e);
    if (kind === 'no-credentials') {
      throw new CloudAccessError(
        `no AWS credentials found: set AWS_PROFILE (a profile in ~/.aws/credentials or ~/.aws/config), or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or run where an instance role is available${consequence}`,
      );
    }
    if (kind === 'invalid-credentials' || kind === 'access-denied') throw new CloudAccessError(`AWS refused the credentials: ${awsErrorMessage(e)}${consequence}`);
    if (kind === 'throttled') {
      throw new CloudThrottledError(
        `AWS throttled STS GetCallerIdentity in ${cloud.region} on all ${ATTEMPTS} attempts (${awsErrorMessage(e)}): the account's API request rate is used up, ` +
          `often by other tools or clusters in the same account; try again later${consequence}`,
      );
    }
    throw new CloudAccessError(`cannot reach AWS (STS GetCallerIdentity in ${cloud.region}): ${awsErrorMessage(e)} (check AWS_ENDPOINT_URL and the network)${consequence}`);
  }
}
