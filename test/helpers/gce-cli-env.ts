import type { FakeCompute } from '../fakes/gce/compute-fake';
import { fakeGceEnv } from '../fakes/gce/fake-gce-env';

/**
 * The environment of a CLI run against the fake Compute API: its own HOME, a local state store nodes are
 * allowed to read (tests only), no store from the caller's environment, and the Google endpoint overrides.
 */
export function gceCliEnv(home: string, fake: FakeCompute): NodeJS.ProcessEnv {
  return { HOME: home, KFORGE_ALLOW_LOCAL_STATE_FOR_NODES: 'test-only', KFORGE_STATE_STORE: '', ...fakeGceEnv(fake) };
}
