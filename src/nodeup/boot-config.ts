import * as yaml from 'js-yaml';

/** kops's ConfigServer in a boot config: the node-identity service a worker gets its nodeup config from. */
export interface BootConfigServer {
  /** The service's URLs (`https://kops-controller.internal.<cluster>:3988`), tried in order. */
  Servers: string[];
  /** The kops-controller-ca bundle (PEM, public) the service's certificate must chain to. */
  CACertificates: string;
  /** The cluster's region: the STS region the node signs its proof for. */
  Region: string;
}

/**
 * What user-data writes to /opt/kforge/conf/kube_env.yaml: where the group's nodeup config is, and its hash.
 * A control-plane machine names the state store (`ConfigBase`); a worker (on AWS by default) names the
 * node-identity service instead (`ConfigServer`), as kops's BootConfig, and has no access to the store.
 */
export interface BootConfig {
  CloudProvider: string;
  ClusterName: string;
  /** The cluster's state-store base, e.g. `s3://bucket/prefix/<cluster>`; absent with a ConfigServer. */
  ConfigBase?: string;
  ConfigServer?: BootConfigServer;
  InstanceGroupName: string;
  InstanceGroupRole: string;
  /** sha256 (hex) of the group's nodeupconfig.yaml as update wrote it. */
  NodeupConfigHash: string;
  /** kops's APIServerIPs: the API's internal addresses (a worker of a cluster without DNS), for /etc/hosts. */
  APIServerIPs?: string[];
}

const FIELDS = ['CloudProvider', 'ClusterName', 'InstanceGroupName', 'InstanceGroupRole', 'NodeupConfigHash'] as const;

/**
 * The boot config in `text`, or undefined when the text is not one (a nodeup config, given directly on
 * bare metal). A boot config is a mapping with every string field of the user-data contract, and either a
 * `ConfigBase` string or a complete `ConfigServer`.
 */
export function parseBootConfig(text: string): BootConfig | undefined {
  let doc: unknown;
  try {
    doc = yaml.load(text, { schema: yaml.FAILSAFE_SCHEMA });
  } catch {
    return undefined;
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return undefined;
  const o = doc as Record<string, unknown>;
  if (!FIELDS.every((f) => typeof o[f] === 'string' && o[f] !== '')) return undefined;
  const boot = Object.fromEntries(FIELDS.map((f) => [f, o[f]])) as unknown as BootConfig;
  const server = configServer(o.ConfigServer);
  if (server) boot.ConfigServer = server;
  if (typeof o.ConfigBase === 'string' && o.ConfigBase !== '') boot.ConfigBase = o.ConfigBase;
  // Each is checked as an IP where /etc/hosts is rendered (hostsLine), so a bad one is refused with its field.
  if (Array.isArray(o.APIServerIPs) && o.APIServerIPs.every((x) => typeof x === 'string')) boot.APIServerIPs = o.APIServerIPs as string[];
  return boot.ConfigBase !== undefined || boot.ConfigServer !== undefined ? boot : undefined;
}

function configServer(v: unknown): BootConfigServer | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const s = v as Record<string, unknown>;
  const servers = s.Servers;
  if (!Array.isArray(servers) || servers.length === 0 || !servers.every((x) => typeof x === 'string' && x.startsWith('https://'))) return undefined;
  if (typeof s.CACertificates !== 'string' || !s.CACertificates.includes('-----BEGIN CERTIFICATE-----')) return undefined;
  if (typeof s.Region !== 'string' || s.Region === '') return undefined;
  return { Servers: servers as string[], CACertificates: s.CACertificates, Region: s.Region };
}
