import { NodeStateStoreError } from '../errors/node-state-store-error';

/**
 * The environment variable (value `test-only`) that lets `update cluster --yes` apply on AWS with a store
 * nodes cannot read. Only for tests against moto_server, where no instance ever boots.
 */
export const ALLOW_LOCAL_STATE_FOR_NODES = 'KFORGE_ALLOW_LOCAL_STATE_FOR_NODES';

/**
 * Why the nodes of an AWS cluster could not read a store at `storeUrl`, or undefined when they can.
 * Nodes read their nodeup config, the completed spec and the keysets from `spec.configBase`, which is the
 * store's URL; on AWS only an `s3://` store is reachable with the instance role (kops's nodeup likewise
 * reads its `ConfigBase` from S3 on AWS). A `file://` path is the operator's machine, `memfs://` this process.
 */
export function nodeStateStoreProblem(storeUrl: string): string | undefined {
  if (storeUrl.startsWith('s3://')) return undefined;
  return (
    `the state store ${storeUrl} is not one AWS nodes can read: every instance reads its nodeup config from the store, ` +
    'so none could boot. Use an s3:// store (kforge create state-store s3://BUCKET makes one; then --state or KOPS_STATE_STORE)'
  );
}

/**
 * Refuses `update cluster --yes` (direct target) on AWS with a store nodes cannot read, before any cloud call
 * or store write. `create` and a plain `update` may still use a local store to try things out.
 */
export function assertNodesCanReadStore(storeUrl: string, env: NodeJS.ProcessEnv): void {
  const problem = nodeStateStoreProblem(storeUrl);
  if (problem && env[ALLOW_LOCAL_STATE_FOR_NODES] !== 'test-only') throw new NodeStateStoreError(`update cluster --yes: ${problem}`);
}
