import type { V1Namespace } from '@kubernetes/client-node';
import type { ChannelAddon } from '../protokube/addons/addon-channel';
import { ChannelVersion } from '../protokube/addons/channel-version';
import type { ValidationFailure } from './validation-result';

/**
 * Each addon of the bootstrap channel against what protokube recorded on the cluster (kops's
 * `addons.k8s.io/<addon>` annotation on the addon's namespace): one failure per addon that is not installed
 * yet, or installed at another id or manifest hash than the channel's. protokube applies the channel on every
 * control-plane pass, so such a failure says it has not run, has not reached the API, or was refused (its
 * log names the object and the reason).
 */
export function checkAddons(channel: Pick<ChannelAddon, 'name' | 'namespace' | 'id' | 'manifestHash'>[], namespaces: V1Namespace[]): ValidationFailure[] {
  const failures: ValidationFailure[] = [];
  for (const a of channel) {
    const ns = namespaces.find((n) => n.metadata?.name === a.namespace);
    const text = ns?.metadata?.annotations?.[ChannelVersion.annotation(a.name)];
    const installed = text === undefined ? undefined : ChannelVersion.parse(text);
    const wanted = new ChannelVersion(undefined, a.id, a.manifestHash);
    if (installed && !wanted.replaces(installed)) continue;
    failures.push({
      kind: 'Addon',
      name: a.name,
      message: `addon ${a.name} is not applied at the channel's version (manifest hash ${a.manifestHash.slice(0, 12)})`,
      cause: installed ? `the cluster has manifest hash ${installed.manifestHash.slice(0, 12) || 'none'}${installed.id !== a.id ? ` and id ${installed.id || 'none'}` : ''}: protokube has not applied the change yet` : 'not installed yet: protokube applies the bootstrap channel on the control plane',
    });
  }
  return failures;
}
