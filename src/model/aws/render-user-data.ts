import * as fs from 'node:fs';
import * as path from 'node:path';
import { KforgeError } from '../../errors/kforge-error';
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

let template: string | undefined;

/** templates/nodeup-user-data.sh, found from the package root (from src under ts-jest, and from dist or the bundle). */
function userDataTemplate(): string {
  template ??= fs.readFileSync(path.join(packageRoot(), 'templates', 'nodeup-user-data.sh'), 'utf8');
  return template;
}

/** Renders an instance group's user-data from the template: same input, same bytes. */
export function renderUserData(p: UserDataParams): string {
  const a = p.artifacts ?? nodeupArtifacts(p.fileRepository, process.env, packageRoot(), p.configBase);
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
  for (const [k, v] of Object.entries(values)) if (!SAFE.test(v)) throw new UserDataValueError(k, v);
  return userDataTemplate().replace(/\{\{([A-Z0-9_]+)\}\}/g, (m, key: string) => {
    const v = values[key];
    if (v === undefined) throw new Error(`templates/nodeup-user-data.sh: unknown placeholder ${m}`);
    return v;
  });
}
