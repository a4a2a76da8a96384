import { ADDONS_APPLIER_KUBECONFIG } from '../../nodeup/node-certificates';
import type { RootWriter } from '../../nodeup/root-writer';
import type { Vfs } from '../../state/vfs/vfs';
import { AddonApplyError } from './addon-apply-error';
import { parseAddonChannel } from './addon-channel';
import { ApiNotUpError } from './api-not-up-error';
import { AddonOutcome, applyAddonChannel } from './apply-addon-channel';
import { KubeApiClient } from './kube-api-client';


/** The bootstrap channel's key in the state store, under the cluster's config base (kops's layout). */
const CHANNEL_KEY = 'addons/bootstrap-channel.yaml';

/** What the addon step of a protokube pass did. */
export interface AddonsReport {
  /** `applied`: the channel was read and each addon applied or found unchanged; `waiting`: the API server is not up yet; `skipped`: no kubeconfig or no channel yet. */
  status: 'applied' | 'waiting' | 'skipped';
  reason?: string;
  /** The API server, from the kubeconfig. */
  server?: string;
  addons: AddonOutcome[];
  /** API calls this step made (`METHOD path` counts are in the tests). */
  requests: number;
}

/** What applyBootstrapChannel needs from the pass. */
export interface BootstrapChannelOptions {
  vfs: Vfs;
  /** The state store's URL of the cluster (kube_env.yaml's ConfigBase): the channel's recorded location is under it. */
  configBase: string;
  writer: RootWriter;
  /** The kubeconfig under the root. Default ADDONS_APPLIER_KUBECONFIG. */
  kubeconfig?: string;
  /** How long to keep retrying while the API server is not up, per pass. */
  apiWaitMs: number;
  /** First retry delay. Default 500 ms. */
  retryDelayMs?: number;
}

/**
 * The addon step of a protokube pass, as kops's protokube runs `channels apply channel`: reads
 * `<configBase>/addons/bootstrap-channel.yaml` and its manifests from the state store with the instance's
 * role, and applies it to the local API server as the kubeconfig nodeup wrote (`kforge`, system:masters)
 * says. Skipped while there is no kubeconfig or no channel; `waiting` while the API server does not answer
 * within `apiWaitMs` (the next pass tries again). An addon the API server refused is `failed` in the
 * outcomes, with its reason; the others are still applied.
 */
export async function applyBootstrapChannel(o: BootstrapChannelOptions): Promise<AddonsReport> {
  const kubeconfigPath = o.kubeconfig ?? ADDONS_APPLIER_KUBECONFIG;
  const kubeconfig = o.writer.readFile(kubeconfigPath)?.data.toString('utf8');
  if (kubeconfig === undefined) return { status: 'skipped', reason: `no kubeconfig at ${kubeconfigPath} yet (nodeup writes it)`, addons: [], requests: 0 };
  const channelUrl = `${o.configBase.replace(/\/$/, '')}/${CHANNEL_KEY}`;
  const channelText = await read(o.vfs, CHANNEL_KEY, channelUrl);
  if (channelText === undefined) return { status: 'skipped', reason: `no channel at ${channelUrl} yet ("kforge update cluster --yes" writes it)`, addons: [], requests: 0 };
  const addons = parseAddonChannel(channelText, channelUrl);
  let client: KubeApiClient;
  try {
    client = await KubeApiClient.fromKubeconfig(kubeconfig, { deadline: Date.now() + o.apiWaitMs, firstDelayMs: o.retryDelayMs ?? 500 });
  } catch (e) {
    // A YAML error's message quotes the lines around it, which may be the key's: only its reason and line.
    const y = e as { name?: string; reason?: string; mark?: { line: number }; message?: string };
    const why = y.name === 'YAMLException' ? `YAML: ${y.reason} at line ${(y.mark?.line ?? 0) + 1}` : y.message;
    throw new AddonApplyError(`${kubeconfigPath}: not a usable kubeconfig (${why})`);
  }
  const readManifest = async (addon: { name: string; manifest: string }): Promise<string> => {
    const key = `addons/${addon.manifest}`;
    const text = await read(o.vfs, key, `${o.configBase}/${key}`);
    if (text === undefined) throw new AddonApplyError(`addon ${addon.name}: manifest ${o.configBase}/${key} does not exist`);
    return text;
  };
  let outcomes: AddonOutcome[];
  try {
    outcomes = await applyAddonChannel({ client, channel: channelUrl, addons, readManifest });
  } catch (e) {
    if (e instanceof ApiNotUpError) return { status: 'waiting', reason: `API server ${client.url} not up yet: ${e.message}`, server: client.url, addons: [], requests: client.requests.length };
    throw e;
  }
  return { status: 'applied', server: client.url, addons: outcomes, requests: client.requests.length };
}

async function read(vfs: Vfs, key: string, where: string): Promise<string | undefined> {
  try {
    return (await vfs.read(key))?.data.toString('utf8');
  } catch (e) {
    throw new AddonApplyError(`cannot read ${where}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
