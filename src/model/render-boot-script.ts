import * as fs from 'node:fs';
import * as path from 'node:path';
import { KforgeError } from '../errors/kforge-error';
import { KOPS_CONTROLLER_PORT } from '../node-identity/kops-controller-port';
import { packageRoot } from '../util/package-root';
import { nodeupArtifacts, NodeupArtifacts } from './nodeup-artifacts';

/** The clouds with a boot script: each has its fragments in templates/nodeup-user-data/<cloud>-<part>.sh. */
export type BootScriptCloud = 'aws' | 'gce';

/** What an instance group's boot script says: the boot config nodeup starts from (the same contract on every cloud). */
export interface BootScriptParams {
  cloud: BootScriptCloud;
  clusterName: string;
  /** The cluster's `spec.configBase` (the state store URL of the cluster). */
  configBase: string;
  instanceGroup: string;
  /** `ControlPlane` or `Node`. */
  role: string;
  /** sha256 (hex) of the group's nodeupconfig.yaml. */
  nodeupConfigHash: string;
  /** The cluster's `spec.assets.fileRepository`: the runtime and nodeup are downloaded from it when set. */
  fileRepository?: string;
  /** The runtime and nodeup downloads. Default: nodeupArtifacts(fileRepository, …, configBase), this build's. */
  artifacts?: NodeupArtifacts;
  /** The cloud's own values (AWS: `AWS_REGION`), each checked as every other value is. */
  cloudValues?: Readonly<Record<string, string>>;
  /**
   * kops's ConfigServer (a worker that may not read the store, src/model/config-server.ts): the boot config names
   * the service, and a nodeup bundle the store would deliver comes from it over TLS pinned to `caCertificates`.
   * Default: none, the boot config names the store (ConfigBase).
   */
  configServer?: { servers: string[]; caCertificates: string; region: string; /** The host the service's name is reached at (no DNS: the API load balancer). */ via?: string };
  /**
   * kops's BootConfig.APIServerIPs: the API's internal addresses a worker of a cluster without DNS maps the
   * API's internal name to in /etc/hosts (or placeholders the cloud task replaces once they exist). Default: none.
   */
  apiServerIps?: readonly string[];
}

/** A value that cannot be put into a boot script safely (it would need quoting in shell or YAML). */
export class UserDataValueError extends KforgeError {
  constructor(field: string, value: string) {
    super('INVALID_USER_DATA_VALUE', `user-data: ${field} ${JSON.stringify(value)} has characters kforge does not put into a boot script`);
  }
}

// Every value goes unquoted into a shell assignment or a YAML line, so only characters that need no
// quoting in either are accepted (DNS names, URLs, hex): nothing can inject a command.
const SAFE = /^[A-Za-z0-9][A-Za-z0-9._:/@%+=,~-]*$/;
// A certificate bundle goes into a quoted heredoc and a YAML block: PEM lines only.
const PEM_BUNDLE = /^(-----BEGIN CERTIFICATE-----\n([A-Za-z0-9+/=]{1,76}\n)+-----END CERTIFICATE-----\n?)+$/;

const files = new Map<string, string>();

/** A file under templates/, found from the package root (from src under ts-jest, and from dist or the bundle). */
function templateFile(name: string): string {
  let text = files.get(name);
  if (text === undefined) {
    text = fs.readFileSync(path.join(packageRoot(), 'templates', name), 'utf8');
    files.set(name, text);
  }
  return text;
}

/**
 * The boot script of an instance group: templates/nodeup-user-data.sh, whose `{{> part}}` lines are the
 * cloud's own fragments (how it reads its state store, where its metadata service is) and whose `{{VALUE}}`
 * placeholders are the cluster's values. One skeleton for every cloud: the download, hash check, boot
 * config and nodeup run are the same code on AWS and GCE. Same input, same bytes.
 */
export function renderBootScript(p: BootScriptParams): string {
  const server = p.configServer;
  const a = withServedNodeup(p.artifacts ?? nodeupArtifacts(p.fileRepository, process.env, packageRoot(), p.configBase, p.cloud === 'gce' ? 'gs' : 's3'), server);
  if (server && !PEM_BUNDLE.test(server.caCertificates)) throw new UserDataValueError('ConfigServer.CACertificates', server.caCertificates.slice(0, 40));
  const values: Record<string, string> = {
    NODE_HASH_AMD64: a.runtime.amd64.sha256,
    NODE_URLS_AMD64: a.runtime.amd64.urls.join(','),
    NODE_HASH_ARM64: a.runtime.arm64.sha256,
    NODE_URLS_ARM64: a.runtime.arm64.urls.join(','),
    NODEUP_HASH: a.nodeup.sha256,
    NODEUP_URLS: a.nodeup.urls.join(','),
    ...p.cloudValues,
    CLOUD_PROVIDER: p.cloud,
    CLUSTER_NAME: p.clusterName,
    CONFIG_BASE: p.configBase,
    INSTANCE_GROUP: p.instanceGroup,
    INSTANCE_GROUP_ROLE: p.role,
    NODEUP_CONFIG_HASH: p.nodeupConfigHash,
  };
  for (const [k, v] of Object.entries(values)) if (!SAFE.test(v)) throw new UserDataValueError(k, v);
  // Without DNS the service's name is reached at `via` (curl --connect-to); nodeup dials it and pins the name itself.
  const via = server?.via;
  if (via !== undefined && !SAFE.test(via)) throw new UserDataValueError('ConfigServer via', via);
  const bootServers = via !== undefined ? [`https://${via}:${KOPS_CONTROLLER_PORT}`] : (server?.servers ?? []);
  for (const s of bootServers) if (!SAFE.test(s) || !s.startsWith('https://')) throw new UserDataValueError('ConfigServer.Servers', s);
  values.CONFIG_SERVER_CONNECT_TO = via !== undefined ? `kops-controller.internal.${p.clusterName}:${KOPS_CONTROLLER_PORT}:${via}:${KOPS_CONTROLLER_PORT}` : '';
  if (server && !SAFE.test(server.region)) throw new UserDataValueError('ConfigServer.Region', server.region);
  const ca = server?.caCertificates.trimEnd() ?? '';
  // The boot config names the service (kops's BootConfig.ConfigServer) or, on the control plane, the store.
  values.BOOT_CONFIG_SOURCE = server
    ? ['ConfigServer:', '  CACertificates: |', ...ca.split('\n').map((l) => `    ${l}`), `  Region: ${server.region}`, '  Servers:', ...bootServers.map((s) => `  - ${s}`)].join('\n')
    : `ConfigBase: ${p.configBase}`;
  values.CONFIG_SERVER_CA = ca;
  for (const ip of p.apiServerIps ?? []) if (!SAFE.test(ip)) throw new UserDataValueError('APIServerIPs', ip);
  if (p.apiServerIps?.length) values.BOOT_CONFIG_SOURCE = ['APIServerIPs:', ...p.apiServerIps.map((ip) => `- ${ip}`), values.BOOT_CONFIG_SOURCE].join('\n');
  // A part's line is replaced whole (with its newline) by the fragment, which brings its own.
  const script = templateFile('nodeup-user-data.sh').replace(/^\{\{> ([a-z-]+)\}\}\n/gm, (_m, part: string) => templateFile(`nodeup-user-data/${p.cloud}-${part}.sh`));
  return script.replace(/\{\{([A-Z0-9_]+)\}\}/g, (m, key: string) => {
    const v = values[key];
    if (v === undefined) throw new Error(`templates/nodeup-user-data.sh (${p.cloud}): unknown placeholder ${m}`);
    return v;
  });
}

/** The downloads with nodeup taken from the service instead of the store (a worker cannot read the store), when the store would deliver it. */
function withServedNodeup(a: NodeupArtifacts, server: BootScriptParams['configServer']): NodeupArtifacts {
  if (!server || !a.nodeup.urls.every((u) => /^(s3|gs):\/\//.test(u))) return a;
  return { ...a, nodeup: { sha256: a.nodeup.sha256, urls: server.servers.map((s) => `${s.replace(/\/+$/, '')}/nodeup/${a.nodeup.sha256}`) } };
}
