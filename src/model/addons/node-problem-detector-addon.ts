import type { Addon, AddonBuilder, KubeObject } from './addon';

const NAME = 'node-problem-detector';
const NAMESPACE = 'kube-system';
const LABELS = { app: NAME };

/** A hostPath volume and its read-only (unless said) mount, as kops's template pairs them. */
const HOST_PATHS: Array<{ name: string; hostPath: string; type?: string; mountPath: string; readOnly?: boolean; mountPropagation?: string }> = [
  { name: 'log', hostPath: '/var/log/', mountPath: '/var/log', readOnly: true },
  { name: 'kmsg', hostPath: '/dev/kmsg', mountPath: '/dev/kmsg', readOnly: true },
  // The same timezone as the host, so its reports read like the host's logs.
  { name: 'localtime', hostPath: '/etc/localtime', type: 'FileOrCreate', mountPath: '/etc/localtime', readOnly: true },
  { name: 'machine-id', hostPath: '/etc/machine-id', type: 'File', mountPath: '/etc/machine-id', readOnly: true },
  { name: 'systemd', hostPath: '/run/systemd/system/', type: '', mountPath: '/run/systemd/system' },
  { name: 'dbus', hostPath: '/var/run/dbus/', type: '', mountPath: '/var/run/dbus/', mountPropagation: 'Bidirectional' },
];

/**
 * kops's node-problem-detector addon (`node-problem-detector.addons.k8s.io`, id `k8s-1.17`), rendered when
 * `spec.nodeProblemDetector.enabled` is true: kops's template
 * (upup/models/cloudup/resources/addons/node-problem-detector.addons.k8s.io/k8s-1.17.yaml.template @ 268927e).
 * The addon labels kops adds to every object are the channel assembly's job, not this builder's.
 */
export const nodeProblemDetectorAddon: AddonBuilder = ({ cluster }) => {
  const npd = cluster.spec.nodeProblemDetector;
  if (npd?.enabled !== true) return [];
  const limits: Record<string, string> = {};
  if (npd.cpuLimit !== undefined) limits.cpu = String(npd.cpuLimit);
  limits.memory = String(npd.memoryLimit);
  const serviceAccount: KubeObject = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: NAME, namespace: NAMESPACE, labels: { ...LABELS } } };
  const binding: KubeObject = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: NAME, labels: { ...LABELS } },
    // The ClusterRole is Kubernetes's own bootstrap role (system:node-problem-detector), so the addon ships none.
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:node-problem-detector' },
    subjects: [{ kind: 'ServiceAccount', name: NAME, namespace: NAMESPACE }],
  };
  const daemonSet: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: NAME, namespace: NAMESPACE, labels: { ...LABELS } },
    spec: {
      selector: { matchLabels: { ...LABELS } },
      template: {
        metadata: { labels: { ...LABELS } },
        spec: {
          affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }] }] } } },
          containers: [{
            name: NAME,
            command: [
              '/node-problem-detector',
              '--logtostderr',
              '--config.system-log-monitor=/config/kernel-monitor.json,/config/systemd-monitor.json',
              '--config.custom-plugin-monitor=/config/kernel-monitor-counter.json,/config/systemd-monitor-counter.json',
              '--config.system-stats-monitor=/config/system-stats-monitor.json',
            ],
            image: npd.image,
            // It reads /dev/kmsg and the host's journal.
            securityContext: { privileged: true },
            resources: { limits, requests: { cpu: String(npd.cpuRequest), memory: String(npd.memoryRequest) } },
            env: [{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
            volumeMounts: HOST_PATHS.map((h) => ({
              name: h.name,
              mountPath: h.mountPath,
              ...(h.readOnly ? { readOnly: true } : {}),
              ...(h.mountPropagation ? { mountPropagation: h.mountPropagation } : {}),
            })),
          }],
          priorityClassName: 'system-node-critical',
          serviceAccountName: NAME,
          volumes: HOST_PATHS.map((h) => ({ name: h.name, hostPath: { path: h.hostPath, ...(h.type !== undefined ? { type: h.type } : {}) } })),
          tolerations: [
            { operator: 'Exists', effect: 'NoExecute' },
            { operator: 'Exists', effect: 'NoSchedule' },
            { key: 'CriticalAddonsOnly', operator: 'Exists' },
          ],
        },
      },
    },
  };
  const addon: Addon = { name: `${NAME}.addons.k8s.io`, id: 'k8s-1.17', objects: [serviceAccount, binding, daemonSet], prune: true };
  return [addon];
};
