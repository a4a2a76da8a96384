import * as yaml from 'js-yaml';
import type { NodeupConfig } from '../model/nodeup-config-builder';
import { NodeupConfigError } from './nodeup-config-error';

const ROLES = ['ControlPlane', 'APIServer', 'Node', 'Bastion'];
/** The components whose argv a control-plane node must have, besides kubelet. */
export const CONTROL_PLANE_COMPONENTS = ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler'] as const;

/** Whether a nodeup config is for a control-plane node (kops's ControlPlane and APIServer roles). */
export function isControlPlaneConfig(config: NodeupConfig): boolean {
  return config.InstanceGroupRole === 'ControlPlane' || config.InstanceGroupRole === 'APIServer';
}

/**
 * Parses a nodeupconfig.yaml (as `update cluster` writes it) and checks the fields nodeup renders from;
 * every problem is reported at once, naming `source` and the field.
 */
export function parseNodeupConfig(text: string, source: string): NodeupConfig {
  let doc: unknown;
  try {
    doc = yaml.load(text, { schema: yaml.CORE_SCHEMA });
  } catch (e) {
    const reason = e instanceof yaml.YAMLException ? e.message.split('\n')[0] : String(e);
    throw new NodeupConfigError(`${source}: not valid YAML: ${reason}`);
  }
  if (!isRecord(doc)) throw new NodeupConfigError(`${source}: not a nodeup config: expected a YAML mapping with ClusterName, InstanceGroupName, ComponentFlags, ...`);
  const problems: string[] = [];
  const need = (ok: boolean, field: string, what: string) => {
    if (!ok) problems.push(`${field}: ${what}`);
  };
  for (const f of ['ClusterName', 'InstanceGroupName', 'KubernetesVersion']) need(isNonEmptyString(doc[f]), f, 'must be a non-empty string');
  need(typeof doc.InstanceGroupRole === 'string' && ROLES.includes(doc.InstanceGroupRole), 'InstanceGroupRole', `must be one of ${ROLES.join(', ')}`);
  if (doc.InstanceGroupRole === 'Bastion') problems.push('InstanceGroupRole: Bastion: a bastion is not a Kubernetes node; nodeup installs nothing on it');
  need(doc.ContainerRuntime === undefined || doc.ContainerRuntime === 'containerd', 'ContainerRuntime', 'only containerd is supported');
  // GCE's cloud-config options (kops's field names), written into /etc/kubernetes/cloud.config on the control plane.
  need(doc.multizone === undefined || typeof doc.multizone === 'boolean', 'multizone', 'must be true or false');
  for (const f of ['nodeTags', 'nodeInstancePrefix']) need(doc[f] === undefined || isNonEmptyString(doc[f]), f, 'must be a non-empty string');
  const flags = doc.ComponentFlags;
  need(isRecord(flags), 'ComponentFlags', 'must be a mapping of component name to argv');
  if (isRecord(flags)) {
    for (const [name, argv] of Object.entries(flags)) {
      const ok = Array.isArray(argv) && argv.length > 0 && argv.every((a) => typeof a === 'string') && typeof argv[0] === 'string' && argv[0].startsWith('/');
      need(ok, `ComponentFlags.${name}`, 'must be a list of strings starting with the absolute path of the binary');
    }
    need(flags.kubelet !== undefined, 'ComponentFlags.kubelet', 'is required');
  }
  const images = doc.Images;
  need(isRecord(images) && Object.values(images).every(isNonEmptyString), 'Images', 'must be a mapping of component name to image');
  if (isRecord(images)) need(isNonEmptyString(images.pause), 'Images.pause', 'is required (containerd sandbox image)');
  need(doc.CAs === undefined || (isRecord(doc.CAs) && Object.values(doc.CAs).every(isNonEmptyString)), 'CAs', 'must be a mapping of keyset name to PEM certificates');
  if (isRecord(doc.CAs)) {
    for (const [name, pem] of Object.entries(doc.CAs)) {
      if (typeof pem === 'string' && /PRIVATE KEY/.test(pem)) problems.push(`CAs.${name}: holds a private key; a nodeup config carries certificates only`);
    }
  }
  const role = doc.InstanceGroupRole;
  if ((role === 'ControlPlane' || role === 'APIServer') && isRecord(flags) && isRecord(images)) {
    for (const c of CONTROL_PLANE_COMPONENTS) {
      need(flags[c] !== undefined, `ComponentFlags.${c}`, 'is required on a control-plane node');
      need(isNonEmptyString(images[c]), `Images.${c}`, 'is required on a control-plane node');
    }
  }
  if (isRecord(flags) && flags['kube-proxy'] !== undefined && isRecord(images)) need(isNonEmptyString(images['kube-proxy']), 'Images.kube-proxy', 'is required when ComponentFlags has kube-proxy');
  if (problems.length > 0) throw new NodeupConfigError(`${source}: not a usable nodeup config:\n  ${problems.join('\n  ')}`);
  return doc as unknown as NodeupConfig;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isNonEmptyString(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0;
}
