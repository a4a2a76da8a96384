/** apiVersions kforge reads: kops's v1alpha2 and kforge's own name for the same schema. */
export const SUPPORTED_API_VERSIONS = ['kops.k8s.io/v1alpha2', 'kforge.dev/v1alpha2'];

/** The apiVersion kforge writes for objects it creates, so kops can read the state store too. */
export const DEFAULT_API_VERSION = 'kops.k8s.io/v1alpha2';

/** Label that ties an InstanceGroup to its Cluster (kops's name). */
export const CLUSTER_LABEL = 'kops.k8s.io/cluster';

/** Clouds kforge builds clusters on; any other `spec.cloudProvider` is refused with that one error. */
export const SUPPORTED_CLOUDS = ['aws', 'gce'];

/** API groups of kops's (and kforge's) own kinds; documents of any other group are additional objects. `kops` is kops's pre-1.8 group. */
export const KOPS_API_GROUPS = ['kops.k8s.io', 'kforge.dev', 'kops'];
