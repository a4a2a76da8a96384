import type { NodeupConfig } from '../model/nodeup-config-builder';
import { componentFlagValues } from './component-flag-values';
import { NodeupPkiError } from './nodeup-pki-error';

/**
 * The name kubelet registers its node under, so the certificate nodeup issues for it is one the Node
 * authorizer accepts (`system:node:<name>`): `--hostname-override` when kubelet's rendered flags have it,
 * else the machine's hostname, trimmed and lowercased as kubelet does (nodeutil.GetHostname). Pure: the
 * caller passes `os.hostname()`.
 */
export function kubeletNodeName(config: NodeupConfig, hostname: string): string {
  const override = componentFlagValues(config, 'kubelet').get('hostname-override');
  const name = (override !== undefined && override.trim() !== '' ? override : hostname).trim().toLowerCase();
  // kubelet refuses an empty name too; no certificate can be issued for it.
  if (!name) throw new NodeupPkiError("kubelet's node name: the machine's hostname is empty and kubelet's flags have no --hostname-override");
  return name;
}
