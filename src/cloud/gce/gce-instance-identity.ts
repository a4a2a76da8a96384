import { GceMetadataError } from './gce-metadata-error';

/** Who this GCE instance is, as its metadata server says: what nodeup and protokube need. */
export interface GceInstanceIdentity {
  project: string;
  /** The zone's short name, e.g. `us-central1-a`. */
  zone: string;
  instanceName: string;
  instanceId: string;
  /** The internal FQDN, `<name>.<zone>.c.<project>.internal`. */
  hostname: string;
  /** network-interfaces/0/ip. */
  internalIp: string;
  /** Attribute `cluster-name` (the instance template's). */
  clusterName: string;
  /** Attribute `kops-k8s-io-instance-group-name` (the instance template's). */
  instanceGroup: string;
}

const TIMEOUT_MS = 3000;

/** The metadata server's base URL: GCE_METADATA_HOST (`host[:port]`, Google's client libraries' variable) moves it. */
export function gceMetadataBase(env: NodeJS.ProcessEnv = process.env): string {
  return `http://${env.GCE_METADATA_HOST || 'metadata.google.internal'}/computeMetadata/v1`;
}

/**
 * This instance's identity from the metadata server (`Metadata-Flavor: Google`, one GET per value). A
 * missing attribute or an unreachable server is a GceMetadataError naming the path: off GCE, or on an
 * instance kforge's templates did not make.
 */
export async function readGceInstanceIdentity(env: NodeJS.ProcessEnv = process.env): Promise<GceInstanceIdentity> {
  const base = gceMetadataBase(env);
  const get = async (p: string): Promise<string> => {
    let res: Response;
    try {
      res = await fetch(`${base}/${p}`, { headers: { 'Metadata-Flavor': 'Google' }, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (e) {
      throw new GceMetadataError(`cannot reach the GCE metadata server at ${base} (${e instanceof Error ? e.message : String(e)}); is this a GCE instance? (GCE_METADATA_HOST moves the server)`);
    }
    const text = (await res.text()).trim();
    if (res.status === 404) throw new GceMetadataError(`the GCE metadata server has no ${p}: this instance was not made from a kforge instance template`);
    if (!res.ok) throw new GceMetadataError(`the GCE metadata server answered HTTP ${res.status} for ${p}`);
    return text;
  };
  const [project, zone, instanceName, instanceId, hostname, internalIp, clusterName, instanceGroup] = await Promise.all([
    get('project/project-id'),
    get('instance/zone'),
    get('instance/name'),
    get('instance/id'),
    get('instance/hostname'),
    get('instance/network-interfaces/0/ip'),
    get('instance/attributes/cluster-name'),
    get('instance/attributes/kops-k8s-io-instance-group-name'),
  ]);
  // instance/zone is `projects/<number>/zones/<zone>`.
  return { project, zone: zone.slice(zone.lastIndexOf('/') + 1), instanceName, instanceId, hostname, internalIp, clusterName, instanceGroup };
}
