import * as posix from 'node:path/posix';
import * as yaml from 'js-yaml';
import type { NodeupConfig } from '../model/nodeup-config-builder';
import type { NodeFile } from './node-file';
import { CONTROL_PLANE_COMPONENTS, isControlPlaneConfig } from './parse-nodeup-config';

/** Where kubelet reads static pods (`--pod-manifest-path`). */
const MANIFESTS_DIR = '/etc/kubernetes/manifests';

interface HostMount {
  path: string;
  readOnly: boolean;
  type?: string;
}

// Host directories each static pod mounts (kops's builders), besides the directories of files its flags name.
const BASE_MOUNTS: HostMount[] = [
  { path: '/srv/kubernetes', readOnly: true },
  { path: '/etc/kubernetes', readOnly: true },
  { path: '/var/log', readOnly: false },
  { path: '/etc/ssl/certs', readOnly: true },
  { path: '/usr/share/ca-certificates', readOnly: true },
];
const KUBE_PROXY_MOUNTS: HostMount[] = [
  { path: '/lib/modules', readOnly: true },
  { path: '/run/xtables.lock', readOnly: false, type: 'FileOrCreate' },
];
// kops's default requests when the spec sets none.
const DEFAULT_CPU: Record<string, string> = { 'kube-apiserver': '150m', 'kube-controller-manager': '100m', 'kube-scheduler': '100m', 'kube-proxy': '100m' };

/**
 * The static pod manifests kubelet starts from `/etc/kubernetes/manifests`: on the control plane
 * kube-apiserver, kube-controller-manager and kube-scheduler, on every node kube-proxy when the config
 * has its flags (it is enabled). Each container's command is exactly the rendered argv; the pods use the
 * host network, priority class system-node-critical, and mount the host directories their flags name.
 */
export function staticPodManifests(config: NodeupConfig): NodeFile[] {
  const components: string[] = isControlPlaneConfig(config) ? [...CONTROL_PLANE_COMPONENTS] : [];
  if (config.ComponentFlags['kube-proxy'] !== undefined) components.push('kube-proxy');
  return components.map((c) => ({ path: `${MANIFESTS_DIR}/${c}.manifest`, mode: 0o644, content: yaml.dump(podFor(config, c), { lineWidth: -1, noRefs: true }) }));
}

function podFor(config: NodeupConfig, component: string): object {
  const argv = config.ComponentFlags[component];
  const proxy = component === 'kube-proxy';
  const mounts = withFlagDirectories([...BASE_MOUNTS, ...(proxy ? KUBE_PROXY_MOUNTS : [])], argv);
  const settings = componentSettings(config, component);
  const requests: Record<string, string> = { cpu: stringOr(settings.cpuRequest, DEFAULT_CPU[component]) };
  if (typeof settings.memoryRequest === 'string') requests.memory = settings.memoryRequest;
  const names = mounts.map((m) => volumeName(m.path));
  const container: Record<string, unknown> = {
    name: component,
    image: config.Images[component],
    command: argv,
    resources: { requests },
    volumeMounts: mounts.map((m, i) => ({ name: names[i], mountPath: m.path, readOnly: m.readOnly })),
  };
  if (proxy) container.securityContext = { privileged: true };
  const tolerations: object[] = [{ key: 'CriticalAddonsOnly', operator: 'Exists' }];
  if (proxy) tolerations.push({ effect: 'NoExecute', operator: 'Exists' }, { effect: 'NoSchedule', operator: 'Exists' });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: component, namespace: 'kube-system', labels: proxy ? { 'k8s-app': component, tier: 'node' } : { 'k8s-app': component } },
    spec: {
      hostNetwork: true,
      priorityClassName: 'system-node-critical',
      tolerations,
      containers: [container],
      volumes: mounts.map((m, i) => ({ name: names[i], hostPath: m.type ? { path: m.path, type: m.type } : { path: m.path } })),
    },
  };
}

function componentSettings(config: NodeupConfig, component: string): Record<string, unknown> {
  const pick = (o: object | undefined) => (o ?? {}) as Record<string, unknown>;
  if (component === 'kube-apiserver') return pick(config.APIServerConfig?.KubeAPIServer);
  if (component === 'kube-controller-manager') return pick(config.ControlPlaneConfig?.KubeControllerManager);
  if (component === 'kube-scheduler') return pick(config.ControlPlaneConfig?.KubeScheduler);
  return pick(config.KubeProxy);
}

/** Adds, read-only, the directory of each absolute file a flag names (`--*-file`, `--*kubeconfig`, ...) that no mount covers. */
function withFlagDirectories(mounts: HostMount[], argv: string[]): HostMount[] {
  const out = [...mounts];
  for (const arg of argv.slice(1)) {
    const m = /^--([a-z0-9-]+)=(\/[A-Za-z0-9._/-]+)$/.exec(arg);
    if (!m || !/(file|dir|path|kubeconfig|certificate|key)$/.test(m[1])) continue;
    if (out.some((x) => m[2] === x.path || m[2].startsWith(`${x.path}/`))) continue;
    out.push({ path: posix.dirname(m[2]), readOnly: true });
  }
  return out;
}

function volumeName(path: string): string {
  const name = path.replace(/^\/+/, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return (name || 'root').slice(0, 63).replace(/-+$/, '');
}

function stringOr(v: unknown, fallback: string): string {
  return typeof v === 'string' && v !== '' ? v : fallback;
}
