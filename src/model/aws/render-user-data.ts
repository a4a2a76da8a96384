import * as fs from 'node:fs';
import * as path from 'node:path';
import { KforgeError } from '../../errors/kforge-error';
import { packageRoot } from '../../util/package-root';
import { NODEUP_ARTIFACTS, NodeupArtifact } from '../nodeup-artifacts';

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
  /** Default: NODEUP_ARTIFACTS. */
  nodeup?: Readonly<Record<'amd64' | 'arm64', NodeupArtifact>>;
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
  const nodeup = p.nodeup ?? NODEUP_ARTIFACTS;
  const values: Record<string, string> = {
    NODEUP_URL_AMD64: nodeup.amd64.url,
    NODEUP_HASH_AMD64: nodeup.amd64.sha256,
    NODEUP_URL_ARM64: nodeup.arm64.url,
    NODEUP_HASH_ARM64: nodeup.arm64.sha256,
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
