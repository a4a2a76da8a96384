import { googleAuthLibrary } from 'google-gax';

/**
 * Options that point a real @google-cloud/compute client (any of its `*Client` classes) at the fake:
 * plain-http REST on loopback and a fixed token, so no metadata server or token endpoint is asked.
 */
export function fakeComputeClientOptions(port: number): { apiEndpoint: string; port: number; protocol: string; fallback: boolean; authClient: InstanceType<typeof googleAuthLibrary.OAuth2Client> } {
  // gaxios imports node-fetch dynamically, which jest cannot do: hand it Node's fetch.
  const authClient = new googleAuthLibrary.OAuth2Client({ transporterOptions: { fetchImplementation: fetch } });
  authClient.setCredentials({ access_token: 'fake-token', expiry_date: Date.now() + 3_600_000 });
  return { apiEndpoint: '127.0.0.1', port, protocol: 'http', fallback: true, authClient };
}
