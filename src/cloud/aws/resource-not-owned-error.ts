import { KforgeError } from '../../errors/kforge-error';

/**
 * A resource has the name the model gives one of the cluster's (ELB names are unique per account and
 * region) but not the cluster's tags: kforge neither adopts nor replaces it.
 */
export class ResourceNotOwnedError extends KforgeError {
  constructor(taskKey: string, what: string, cluster: string) {
    super(
      'NOT_OWNED',
      `${taskKey}: ${what} exists but is not tagged as cluster ${cluster}'s (KubernetesCluster=${cluster}, kubernetes.io/cluster/${cluster}=owned); kforge will not take it over: delete or rename it, or tag it if it is this cluster's`,
    );
  }
}
