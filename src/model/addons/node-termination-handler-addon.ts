import { nthQueueUrl, regionOfZone } from '../../cloud/aws/nth-names';
import { NTH_DEFAULT_MANAGED_TAG, NTH_DEFAULT_VERSION, nthQueueMode } from '../../expand/components/node-termination-handler';
import images from '../../expand/assets/addon-images/node-termination-handler.json';
import { type Addon, type AddonContext, AWS_ACCOUNT_ID_TOKEN, type KubeObject } from './addon';

const NAME = 'aws-node-termination-handler';
const NAMESPACE = 'kube-system';
const SELECTOR = { 'app.kubernetes.io/name': NAME, 'app.kubernetes.io/instance': NAME };
const SQS_SELECTOR = { ...SELECTOR, 'kops.k8s.io/nth-mode': 'sqs' };
const CONTROL_PLANE_ROLES = ['node-role.kubernetes.io/control-plane', 'node-role.kubernetes.io/master'];

/**
 * The node-termination-handler in queue-processor mode (kops's `node-termination-handler.aws/k8s-1.11`, from
 * NTH's all-resources-queue-processor.yaml): one Deployment on the control plane that reads the cluster's SQS
 * queue (`<cluster-dashed>-nth`, fed by the EventBridge rules; see node-termination-handler-model-builder.ts)
 * and cordons and drains a node before its spot interruption, scheduled event, rebalance or ASG scale-in.
 * Rendered when the completed spec has it in queue mode (kops's default on AWS); kops's IMDS mode (a DaemonSet
 * on every node, `enableSQSTerminationDraining: false`) is refused at validation, not rendered.
 */
export function buildNodeTerminationHandlerAddon(ctx: AddonContext): Addon[] {
  const { cluster } = ctx;
  if (!nthQueueMode(cluster)) return [];
  const nth = cluster.spec.nodeTerminationHandler ?? {};
  const version = nth.version ?? NTH_DEFAULT_VERSION;
  const region = regionOfZone(cluster.spec.subnets?.find((s) => s.zone)?.zone ?? '');
  const controlPlanes = ctx.instanceGroups.filter((ig) => ig.spec.role === 'ControlPlane' || ig.spec.role === 'Master').length;
  const labels = { ...SELECTOR, 'k8s-app': NAME, 'app.kubernetes.io/version': version, 'app.kubernetes.io/part-of': NAME };
  const env: [string, string][] = [
    ['ENABLE_PROBES_SERVER', 'true'],
    ['PROBES_SERVER_PORT', '8080'],
    ['PROBES_SERVER_ENDPOINT', '/healthz'],
    ['LOG_LEVEL', 'info'],
    ['JSON_LOGGING', 'true'],
    ['LOG_FORMAT_VERSION', '2'],
    ['ENABLE_PROMETHEUS_SERVER', String(nth.prometheusEnable ?? false)],
    ['PROMETHEUS_SERVER_PORT', '9092'],
    ['CHECK_TAG_BEFORE_DRAINING', 'true'],
    ['MANAGED_TAG', nth.managedASGTag ?? NTH_DEFAULT_MANAGED_TAG],
    ['USE_PROVIDER_ID', 'true'],
    ['DRY_RUN', 'false'],
    ['CORDON_ONLY', 'false'],
    // kforge's schema has no taintNode, enableOutOfServiceTaint, podTerminationGracePeriod or
    // deleteSQSMsgIfNodeNotFound: kops's defaults.
    ['TAINT_NODE', 'false'],
    ['ENABLE_OUT_OF_SERVICE_TAINT', 'false'],
    ['EXCLUDE_FROM_LOAD_BALANCERS', String(nth.excludeFromLoadBalancers ?? true)],
    ['DELETE_LOCAL_DATA', 'true'],
    ['IGNORE_DAEMON_SETS', 'true'],
    ['POD_TERMINATION_GRACE_PERIOD', '-1'],
    ['NODE_TERMINATION_GRACE_PERIOD', '120'],
    ['EMIT_KUBERNETES_EVENTS', 'true'],
    ['COMPLETE_LIFECYCLE_ACTION_DELAY_SECONDS', '-1'],
    ['ENABLE_SQS_TERMINATION_DRAINING', 'true'],
    ['QUEUE_URL', nthQueueUrl(cluster.metadata.name, region, ctx.awsAccountId ?? AWS_ACCOUNT_ID_TOKEN)],
    ['DELETE_SQS_MSG_IF_NODE_NOT_FOUND', 'false'],
    ['WORKERS', '10'],
    ['HEARTBEAT_INTERVAL', '-1'],
    ['HEARTBEAT_UNTIL', '-1'],
    ['SQS_MSG_VISIBILITY_TIMEOUT_SEC', '20'],
  ];
  const fieldRef = (name: string, fieldPath: string) => ({ name, valueFrom: { fieldRef: { fieldPath } } });
  const spread = (topologyKey: string, whenUnsatisfiable: string) => ({ labelSelector: { matchLabels: { ...SQS_SELECTOR } }, maxSkew: 1, topologyKey, whenUnsatisfiable });
  const objects: KubeObject[] = [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: NAME, namespace: NAMESPACE, labels: { ...labels } } },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: NAME, labels: { ...SELECTOR, 'app.kubernetes.io/version': version, 'app.kubernetes.io/part-of': NAME } },
      rules: [
        { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'patch', 'update'] },
        { apiGroups: [''], resources: ['pods'], verbs: ['list', 'get'] },
        { apiGroups: [''], resources: ['pods/eviction'], verbs: ['create'] },
        { apiGroups: ['extensions'], resources: ['daemonsets'], verbs: ['get'] },
        { apiGroups: ['apps'], resources: ['daemonsets'], verbs: ['get'] },
        { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: NAME, labels: { ...SELECTOR, 'app.kubernetes.io/version': version, 'app.kubernetes.io/part-of': NAME } },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: NAME },
      subjects: [{ kind: 'ServiceAccount', name: NAME, namespace: NAMESPACE }],
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: NAME, namespace: NAMESPACE, labels: { ...labels, 'app.kubernetes.io/component': 'deployment' } },
      spec: {
        // kops's ControlPlaneControllerReplicas: two with more than one control-plane group.
        replicas: controlPlanes > 1 ? 2 : 1,
        selector: { matchLabels: { ...SELECTOR, 'kubernetes.io/os': 'linux' } },
        template: {
          metadata: { labels: { ...SELECTOR, 'app.kubernetes.io/component': 'deployment', 'k8s-app': NAME, 'kubernetes.io/os': 'linux', 'kops.k8s.io/nth-mode': 'sqs' } },
          spec: {
            nodeSelector: null,
            // On the control plane, whose role holds the queue and lifecycle permissions.
            affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: CONTROL_PLANE_ROLES.map((key) => ({ matchExpressions: [{ key, operator: 'Exists' }] })) } } },
            hostNetwork: true,
            tolerations: CONTROL_PLANE_ROLES.map((key) => ({ key, operator: 'Exists' })),
            serviceAccountName: NAME,
            securityContext: { fsGroup: 1000 },
            priorityClassName: 'system-cluster-critical',
            containers: [
              {
                name: NAME,
                securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsGroup: 1000, runAsNonRoot: true, runAsUser: 1000 },
                image: `${images['node-termination-handler'].image}:${version}`,
                imagePullPolicy: 'IfNotPresent',
                env: [fieldRef('NODE_NAME', 'spec.nodeName'), fieldRef('POD_NAME', 'metadata.name'), fieldRef('NAMESPACE', 'metadata.namespace'), ...env.map(([name, value]) => ({ name, value }))],
                ports: [
                  { name: 'liveness-probe', protocol: 'TCP', containerPort: 8080 },
                  { name: 'metrics', protocol: 'TCP', containerPort: 9092 },
                ],
                livenessProbe: { httpGet: { path: '/healthz', port: 8080 }, initialDelaySeconds: 5, periodSeconds: 5 },
                resources: { requests: { cpu: String(nth.cpuRequest ?? '50m'), memory: String(nth.memoryRequest ?? '64Mi') } },
              },
            ],
            topologySpreadConstraints: [spread('topology.kubernetes.io/zone', 'ScheduleAnyway'), spread('kubernetes.io/hostname', 'DoNotSchedule')],
          },
        },
      },
    },
    {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: NAME, namespace: NAMESPACE, labels: { ...SELECTOR } },
      spec: { selector: { matchLabels: { ...SQS_SELECTOR } }, maxUnavailable: 1 },
    },
  ];
  return [{ name: 'node-termination-handler.aws', id: 'k8s-1.11', objects, prune: true }];
}
