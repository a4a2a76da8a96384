import * as fs from 'node:fs';
import * as path from 'node:path';
import { KforgeError } from '../../errors/kforge-error';
import { KOPS_CONTROLLER_PORT } from '../../node-identity/kops-controller-port';
import { packageRoot } from '../../util/package-root';
import { nodeupArtifacts, NodeupArtifacts } from '../nodeup-artifacts';

/** What an instance group's user-data says: the boot config nodeup starts from. */
export interface UserDataParams {
  clusterName: string;
  /** The cluster's `spec.configBase` (the state store URL of the cluster). */
  configBase: string;
  region: string;
  instanceGroup: string;
  /** `ControlPlane` or `Node`. */
  role: string;
  /** sha256 (hex) of the group's nodeupconfig.yaml. */
  nodeupConfigHash: string;
  /** The cluster's `spec.assets.fileRepository`: the runtime and nodeup are downloaded from it when set. */
  fileRepository?: string;
  /** The runtime and nodeup downloads. Default: nodeupArtifacts(fileRepository, …, configBase), this build's. */
  artifacts?: NodeupArtifacts;
  /**
   * kops's ConfigServer (a worker of a cluster with one, src/model/config-server.ts): the boot config names the
   * service instead of the store, and a nodeup bundle the store would deliver comes from the service
   * (`GET <server>/nodeup/<sha256>`) over TLS pinned to `caCertificates` (kops-controller-ca, public).
   * With `via` (a cluster without DNS: the API load balancer's DNS name, or the launch template's placeholder
   * for it) the boot config names `https://<via>:3988` and curl connects the service's name to that host, so
   * TLS still checks the certificate for `kops-controller.internal.<cluster>`.
   */
  configServer?: { servers: string[]; caCertificates: string; via?: string };
}

/** A value that cannot be put into user-data safely (it would need quoting in shell or YAML). */
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

let template: string | undefined;

/** templates/nodeup-user-data.sh, found from the package root (from src under ts-jest, and from dist or the bundle). */
function userDataTemplate(): string {
  template ??= fs.readFileSync(path.join(packageRoot(), 'templates', 'nodeup-user-data.sh'), 'utf8');
  return template;
}

/** Renders an instance group's user-data from the template: same input, same bytes. */
export function renderUserData(p: UserDataParams): string {
  const a = withServedNodeup(p.artifacts ?? nodeupArtifacts(p.fileRepository, process.env, packageRoot(), p.configBase), p.configServer);
  const server = p.configServer;
  if (server && !PEM_BUNDLE.test(server.caCertificates)) throw new UserDataValueError('ConfigServer.CACertificates', server.caCertificates.slice(0, 40));
  const values: Record<string, string> = {
    NODE_HASH_AMD64: a.runtime.amd64.sha256,
    NODE_URLS_AMD64: a.runtime.amd64.urls.join(','),
    NODE_HASH_ARM64: a.runtime.arm64.sha256,
    NODE_URLS_ARM64: a.runtime.arm64.urls.join(','),
    NODEUP_HASH: a.nodeup.sha256,
    NODEUP_URLS: a.nodeup.urls.join(','),
    AWS_REGION: p.region,
    CLOUD_PROVIDER: 'aws',
    CLUSTER_NAME: p.clusterName,
    CONFIG_BASE: p.configBase,
    INSTANCE_GROUP: p.instanceGroup,
    INSTANCE_GROUP_ROLE: p.role,
    NODEUP_CONFIG_HASH: p.nodeupConfigHash,
  };
  const via = server?.via;
  if (via !== undefined) values.CONFIG_SERVER_VIA = via;
  for (const [k, v] of Object.entries(values)) if (!SAFE.test(v)) throw new UserDataValueError(k, v);
  // The service's name is reached at `via` (curl --connect-to); nodeup dials it and pins the name itself.
  const bootServers = via !== undefined ? [`https://${via}:${KOPS_CONTROLLER_PORT}`] : (server?.servers ?? []);
  values.CONFIG_SERVER_CONNECT_TO = via !== undefined ? `kops-controller.internal.${p.clusterName}:${KOPS_CONTROLLER_PORT}:${via}:${KOPS_CONTROLLER_PORT}` : '';
  delete values.CONFIG_SERVER_VIA;
  for (const s of bootServers) if (!SAFE.test(s) || !s.startsWith('https://')) throw new UserDataValueError('ConfigServer.Servers', s);
  const ca = server?.caCertificates.trimEnd() ?? '';
  // The boot config names the service (kops's BootConfig.ConfigServer) or, on the control plane, the store.
  values.BOOT_CONFIG_SOURCE = server
    ? ['ConfigServer:', '  CACertificates: |', ...ca.split('\n').map((l) => `    ${l}`), `  Region: ${p.region}`, '  Servers:', ...bootServers.map((s) => `  - ${s}`)].join('\n')
    : `ConfigBase: ${p.configBase}`;
  values.CONFIG_SERVER_CA = ca;
  return userDataTemplate().replace(/\{\{([A-Z0-9_]+)\}\}/g, (m, key: string) => {
    const v = values[key];
    if (v === undefined) throw new Error(`templates/nodeup-user-data.sh: unknown placeholder ${m}`);
    return v;
  });
}

/** The downloads with nodeup taken from the service instead of the store (a worker cannot read the store), when the store would deliver it. */
function withServedNodeup(a: NodeupArtifacts, server: UserDataParams['configServer']): NodeupArtifacts {
  if (!server || !a.nodeup.urls.every((u) => u.startsWith('s3://'))) return a;
  return { ...a, nodeup: { sha256: a.nodeup.sha256, urls: server.servers.map((s) => `${s.replace(/\/+$/, '')}/nodeup/${a.nodeup.sha256}`) } };
}
