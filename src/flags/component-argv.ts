import type { ClusterSpec, KubeletConfigSpec } from '../api/types';
import { KUBELET_CONFIG_PATH, kubeletConfigFile } from './kubelet-config-file';
import { renderFlags } from './render-flags';

/** A component's start command: binary path and sorted flags. */
export interface ComponentCommand {
  /** Component name, e.g. `kube-apiserver`. */
  component: string;
  /** argv[0] and the flags, exactly as the process starts. */
  argv: string[];
}

/** Flags nodeup adds itself because they name files it writes, not spec settings (as kops's nodeup does). */
export const FIXED_FLAGS: Record<string, string[]> = {
  'kube-controller-manager': [
    '--cluster-signing-cert-file=/srv/kubernetes/kube-controller-manager/ca.crt',
    '--cluster-signing-key-file=/srv/kubernetes/kube-controller-manager/ca.key',
    '--authentication-kubeconfig=/var/lib/kube-controller-manager/kubeconfig',
    '--authorization-kubeconfig=/var/lib/kube-controller-manager/kubeconfig',
    '--kubeconfig=/var/lib/kube-controller-manager/kubeconfig',
  ],
  'kube-scheduler': [
    '--authentication-kubeconfig=/var/lib/kube-scheduler/kubeconfig',
    '--authorization-kubeconfig=/var/lib/kube-scheduler/kubeconfig',
    '--kubeconfig=/var/lib/kube-scheduler/kubeconfig',
  ],
  'kube-proxy': ['--kubeconfig=/var/lib/kube-proxy/kubeconfig', '--oom-score-adj=-998'],
  kubelet: ['--container-runtime-endpoint=unix:///run/containerd/containerd.sock'],
};

/** The schema definition holding each component's settings (and their `x-kforge-flag` annotations). */
export const COMPONENT_DEFINITIONS = {
  'kube-apiserver': 'KubeAPIServerConfig',
  'kube-controller-manager': 'KubeControllerManagerConfig',
  'kube-scheduler': 'KubeSchedulerConfig',
  'kube-proxy': 'KubeProxyConfig',
  kubelet: 'KubeletConfigSpec',
  // Rendered into the aws-cloud-controller addon's DaemonSet, not by nodeup (src/model/addons/aws-cloud-controller-addon.ts).
  'cloud-controller-manager': 'CloudControllerManagerConfig',
} as const;

/** A component componentCommand renders. */
export type ArgvComponent = keyof typeof COMPONENT_DEFINITIONS;

/** Builds one component's argv from its settings; flags the spec also sets replace fixed ones. */
export function componentCommand(component: ArgvComponent, config: object | undefined): ComponentCommand {
  const fromSpec = renderFlags(config, COMPONENT_DEFINITIONS[component]);
  const specNames = new Set(fromSpec.map(flagName));
  const fixed = [...(FIXED_FLAGS[component] ?? []), ...fileFlags(component, config)].filter((f) => !specNames.has(flagName(f)));
  const flags = [...fromSpec, ...fixed].sort((a, b) => flagName(a).localeCompare(flagName(b)) || a.localeCompare(b));
  return { component, argv: [`/usr/local/bin/${component}`, ...flags] };
}

/** Commands of the control-plane components that run as static pods. */
export function controlPlaneCommands(spec: ClusterSpec): ComponentCommand[] {
  return [
    componentCommand('kube-apiserver', spec.kubeAPIServer),
    componentCommand('kube-controller-manager', spec.kubeControllerManager),
    componentCommand('kube-scheduler', spec.kubeScheduler),
  ];
}

/** Commands every node runs: kubelet with the group's merged settings, and kube-proxy when enabled. */
export function nodeCommands(spec: ClusterSpec, kubelet: KubeletConfigSpec): ComponentCommand[] {
  const out = [componentCommand('kubelet', kubelet)];
  if (spec.kubeProxy?.enabled !== false) out.push(componentCommand('kube-proxy', spec.kubeProxy));
  return out;
}

// kubelet reads the settings it has no flag for from the file nodeup writes (kops's --config); only when
// there is one, so a spec without such settings starts kubelet exactly as before.
function fileFlags(component: ArgvComponent, config: object | undefined): string[] {
  if (component !== 'kubelet' || kubeletConfigFile(config as KubeletConfigSpec | undefined) === undefined) return [];
  return [`--config=${KUBELET_CONFIG_PATH}`];
}

function flagName(arg: string): string {
  const eq = arg.indexOf('=');
  return eq < 0 ? arg : arg.slice(0, eq);
}
