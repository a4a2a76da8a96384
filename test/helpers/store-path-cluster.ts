import type { NewClusterOptions } from '../../src/create/new-cluster';
import { changeFields } from '../../src/ops/change-fields';
import { createCluster } from '../../src/ops/create-cluster';
import type { LockOptions } from '../../src/state/lock/cluster-lock';
import type { Vfs } from '../../src/state/vfs/vfs';

/**
 * Creates a `.k8s.local` cluster whose workers boot from the state store (ConfigBase, the kubelet-bootstrap
 * keyset): without DNS and without the API load balancer a worker has no way to the node-identity service, so
 * its nodeup config names no ConfigServer. The path the nodeup rendering tests exercise without running the
 * service; workers through the service are tested in test/node-identity and the Debian-root e2e.
 * (An empty spec.api would get the load balancer back as a default: the API keeps its default public name.)
 */
export async function createStorePathCluster(vfs: Vfs, options: NewClusterOptions, lock: LockOptions): Promise<void> {
  await createCluster(vfs, options, [], undefined, lock);
  await changeFields(vfs, { cluster: options.name, unset: ['spec.api.loadBalancer'], set: [`spec.api.publicName=api.${options.name}`] });
}
