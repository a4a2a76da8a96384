import type { FakeCompute } from './compute-fake';

/**
 * The environment that points kforge's Google clients at the fake Compute API (which also answers IAM and
 * Cloud Resource Manager), with a fixed access token, as `gcloud`'s endpoint overrides do.
 */
export function fakeGceEnv(fake: FakeCompute): NodeJS.ProcessEnv {
  return {
    CLOUDSDK_API_ENDPOINT_OVERRIDES_COMPUTE: `${fake.endpoint}/compute/v1/`,
    CLOUDSDK_API_ENDPOINT_OVERRIDES_IAM: `${fake.endpoint}/`,
    CLOUDSDK_API_ENDPOINT_OVERRIDES_CLOUDRESOURCEMANAGER: `${fake.endpoint}/`,
    CLOUDSDK_AUTH_ACCESS_TOKEN: 'fake-token',
  };
}
