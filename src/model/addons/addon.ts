import type { Cluster, InstanceGroup } from '../../api/types';

/**
 * The shared shapes of kforge's addons (kops's bootstrap channel). An addon builder is a pure function from
 * the completed spec to the addons it renders; `addon-builders.ts` lists them; the channel and the manifests
 * (`<configBase>/addons/bootstrap-channel.yaml`, `<configBase>/addons/<name>/<id>.yaml`) are assembled from
 * their results. Builders never call a cloud SDK or the network.
 */

/** A Kubernetes object as an addon manifest holds it (apiVersion, kind, metadata, then the kind's own fields). */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

/** One addon: what kops's channel entry says about it, and the objects of its manifest. */
export interface Addon {
  /** kops's addon name, e.g. `coredns.addons.k8s.io`; also the value of the `k8s-addon` selector label. */
  name: string;
  /** kops's manifest id, e.g. `k8s-1.12`; the manifest is `<name>/<id>.yaml`. Absent for addons kops gives none (limit-range: `v1.5.0` is its file name, see `manifestFile`). */
  id?: string;
  /** The manifest's file name under `<name>/` when it is not `<id>.yaml` (kops: `limit-range.addons.k8s.io/v1.5.0.yaml`). */
  manifestFile?: string;
  /** The objects, in the order they are applied (namespaces and CRDs first is the applier's job, not the builder's). */
  objects: KubeObject[];
  /** kops's `needsRollingUpdate`: which machines must be replaced when this addon's manifest changes. Default: none. */
  needsRollingUpdate?: 'control-plane' | 'workers' | 'all';
  /** kops's `needsPKI`: the applier creates the addon's CA keypair first. Default: false. */
  needsPKI?: boolean;
  /** The channel entry's selector, also labelled on every object. Default: `k8s-addon: <name>`; kops's networking addons use `role.kubernetes.io/networking: "1"`. */
  selector?: Record<string, string>;
  /** Whether the channel entry carries kops's `prune` list (kinds pruned by the addon's label). Default: false, as kops (only addons kops marks prunable). */
  prune?: boolean;
}

/** What an addon builder reads: the completed cluster and its instance groups. */
export interface AddonContext {
  cluster: Cluster;
  instanceGroups: InstanceGroup[];
  /** The AWS account the cluster runs in (STS GetCallerIdentity), for ARNs and URLs; absent: AWS_ACCOUNT_ID_TOKEN stands for it. */
  awsAccountId?: string;
}

/** Stands for the AWS account id in a manifest built without one, to be replaced once it is known (as HOSTED_ZONE_ID in IAM policies). */
export const AWS_ACCOUNT_ID_TOKEN = '${kforge:aws-account-id}';

/** A pure function from the completed spec to the addons it renders (none when the spec does not turn it on). */
export type AddonBuilder = (ctx: AddonContext) => Addon[];
