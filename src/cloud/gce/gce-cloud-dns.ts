import { CloudAccessError } from '../../errors/cloud-access-error';
import { CloudDnsRest } from './cloud-dns-rest';
import type { GceCallCounter } from './gce-call-counter';
import { gceErrorMessage } from './gce-errors';

/**
 * The CLI's Cloud DNS connection: `CLOUDSDK_AUTH_ACCESS_TOKEN` if set (tests, gcloud users), else Application
 * Default Credentials through google-auth-library (google-gax's, loaded only here), with the Cloud DNS read-write scope.
 * Calls are counted as `dns.<method>` in the run's GCE call counts; mutations wait for the lock's fence.
 */
export async function connectGceCloudDns(project: string, env: NodeJS.ProcessEnv, calls: GceCallCounter, fence: () => Promise<void>): Promise<CloudDnsRest> {
  let token: () => Promise<string>;
  const fixed = env.CLOUDSDK_AUTH_ACCESS_TOKEN;
  if (fixed) token = () => Promise.resolve(fixed);
  else {
    // google-gax's copy of the auth library (gax is a direct dependency; google-auth-library is not), as gce-compute.ts.
    const { googleAuthLibrary } = await import('google-gax');
    const auth = new googleAuthLibrary.GoogleAuth({ scopes: ['https://www.googleapis.com/auth/ndev.clouddns.readwrite'] });
    token = async () => {
      try {
        const t = await auth.getAccessToken();
        if (!t) throw new Error('no access token');
        return t;
      } catch (e) {
        throw new CloudAccessError(`no Google Cloud credentials for Cloud DNS in project ${project}: run "gcloud auth application-default login", or set GOOGLE_APPLICATION_CREDENTIALS or CLOUDSDK_AUTH_ACCESS_TOKEN (${gceErrorMessage(e)})`);
      }
    };
  }
  return new CloudDnsRest({
    project,
    env,
    token,
    fence,
    count: (name, mutating) => calls.count(`dns.${name}`, mutating),
    attempt: (throttled) => {
      calls.attempts++;
      if (throttled) calls.throttled++;
    },
  });
}
