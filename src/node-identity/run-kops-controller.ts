import { createHash } from 'node:crypto';
import type { Cluster, InstanceGroup } from '../api/types';
import { normalizedRole } from '../expand/expand-context';
import { AwsCloud } from '../cloud/aws/aws-cloud';
import { awsErrorMessage } from '../cloud/aws/aws-errors';
import { UsageError } from '../errors/usage-error';
import { readControlPlaneBootConfig } from '../nodeup/read-control-plane-boot-config';
import { KeysetYaml } from '../pki/keyset-yaml';
import type { Keypair } from '../pki/keypair';
import { issueKeypair } from '../pki/issue-keypair';
import { ClusterRepository } from '../state/cluster-repository';
import { StatePaths } from '../state/state-paths';
import { openVfs } from '../state/vfs/open-vfs';
import type { Vfs } from '../state/vfs/vfs';
import { regionOfZone } from '../validate/validate-spec';
import { nodeIdentityMode } from '../validate/check-node-identity';
import { approvalHandler } from './approval-handler';
import { ApprovalQueue } from './approval-queue';
import { regionalStsEndpoint } from './aws-identity-token';
import { nodeRequestPrefix } from './node-request-record';
import { AwsIdentityVerifier } from './aws-identity-verifier';
import { describeInstanceFacts } from './describe-instance-facts';
import { gceIdentityAudience } from './gce-identity-token';
import { GceIdentityVerifier, GOOGLE_JWKS_URL } from './gce-identity-verifier';
import { gceInstanceFacts } from './gce-instance-facts';
import { kopsControllerRoles } from './kops-controller-roles';
import { KOPS_CONTROLLER_PORT } from './kops-controller-port';
import { NodeIdentityServer, NodeIdentityServerOptions, startNodeIdentityServer } from './node-identity-server';
import { IdentityDenied } from './identity-denied';
import { NodeIdentityError } from './node-identity-error';

/** The CA of the service's serving certificate (kops's keyset name). */
export const KOPS_CONTROLLER_CA = 'kops-controller-ca';
/** The name nodes reach the service by (kops's). */
export function kopsControllerName(cluster: string): string {
  return `kops-controller.internal.${cluster}`;
}

/** How to run the service. */
export interface KopsControllerOptions {
  /** The boot config (kube_env.yaml) of a control-plane machine. */
  conf: string;
  /** Address and port to listen on. Default 0.0.0.0:3988. */
  host?: string;
  port?: number;
  /** The STS endpoint to execute nodes' signed requests against. Default: the cluster region's. */
  stsEndpoint?: string;
  /** On GCE: the JWKS that Google's instance identity tokens are checked against. Default: Google's (GOOGLE_JWKS_URL). */
  googleJwksUrl?: string;
  log(line: string): void;
  /** Opens the state store (tests pass their own). */
  open?: (url: string) => Vfs;
  env?: NodeJS.ProcessEnv;
}

/**
 * Starts the node-identity service on a control-plane machine: reads the cluster, its instance groups and
 * the two CAs (kubernetes-ca to issue from, kops-controller-ca for its own serving certificate, issued in
 * memory for `kops-controller.internal.<cluster>` with a key that never leaves the process) from the state
 * store the boot config names, and serves until stopped. On AWS it learns its account from STS and verifies
 * signed STS requests; on GCE it verifies Google's instance identity tokens (docs/node-identity.md).
 */
export async function runKopsController(options: KopsControllerOptions): Promise<NodeIdentityServer> {
  const boot = readControlPlaneBootConfig(options.conf, 'kops-controller', 'kops-controller verifies AWS and GCE identities only', ['aws', 'gce']);
  // On a GCE control plane the gs:// store is read with the service account's token from the metadata server (as nodeup and protokube do).
  if (boot.CloudProvider === 'gce') process.env.METADATA_SERVER_DETECTION ||= 'assume-present';
  const slash = boot.ConfigBase.replace(/\/+$/, '').lastIndexOf('/');
  const storeUrl = boot.ConfigBase.slice(0, slash);
  const vfs = (options.open ?? openVfs)(storeUrl);
  const repo = new ClusterRepository(vfs);
  const c = boot.ClusterName;
  const stored = await wrap(`reading cluster ${c} from ${storeUrl}`, () => repo.get(c));
  const completed = await wrap(`reading ${boot.ConfigBase}/cluster-completed.spec`, () => repo.getCompleted(c));
  const groups = stored.instanceGroups.map((g) => g.object);
  const ca = await primaryKeypair(vfs, c, 'kubernetes-ca');
  const controllerCa = await primaryKeypair(vfs, c, KOPS_CONTROLLER_CA);
  const serving = await issueKeypair({ subject: { commonName: 'kops-controller' }, usage: 'server', validityMs: 365 * 24 * 3600 * 1000, dnsNames: [kopsControllerName(c)] }, controllerCa);
  const { verify, describe } = boot.CloudProvider === 'gce' ? gceVerifier(boot.ConfigBase, completed, groups, options) : await awsVerifier(boot.ConfigBase, completed, groups, options);
  // spec.nodeIdentity.mode Approval: requests are recorded in the store and wait for `kforge approve node-request`.
  const mode = nodeIdentityMode(completed);
  const approval = mode === 'Approval' ? approvalHandler(new ApprovalQueue(vfs, c), ca) : undefined;
  const port = options.port ?? KOPS_CONTROLLER_PORT;
  const host = options.host ?? '0.0.0.0';
  const server = await wrap(`listening on ${host}:${port}`, () =>
    startNodeIdentityServer({ tls: { cert: serving.certificatePem, key: serving.privateKeyPem ?? '' }, ca, verify, approval, log: options.log, ...storeContent(vfs, c, groups) }, { port, host }),
  );
  options.log(`kops-controller: cluster ${c}, ${describe.where}, listening on ${host}:${server.port} as ${kopsControllerName(c)}; ${mode === 'Approval' ? `mode Approval: requests wait in ${storeUrl}/${nodeRequestPrefix(c)}` : describe.who}`);
  return server;
}

type Verifier = { verify: NodeIdentityServerOptions['verify']; describe: { where: string; who: string } };

/** AWS: signed sts:GetCallerIdentity requests, executed against the cluster region's STS, of this cluster's instance roles. */
async function awsVerifier(configBase: string, completed: Cluster, groups: InstanceGroup[], options: KopsControllerOptions): Promise<Verifier> {
  const c = completed.metadata.name;
  const zone = completed.spec.subnets?.find((s) => s.zone)?.zone;
  const region = completed.spec.subnets?.find((s) => s.region)?.region ?? (zone ? regionOfZone(zone, 'aws') : undefined);
  if (!region) throw new NodeIdentityError(`${configBase}/cluster-completed.spec: no subnet names a zone or region, so the cluster's STS region is unknown`);
  const cloud = new AwsCloud({ clusterName: c, region, env: options.env });
  const { sdk, client } = await cloud.sts();
  const me = await wrap('sts:GetCallerIdentity of the control plane', () => client.send(new sdk.GetCallerIdentityCommand({})));
  const roles = kopsControllerRoles(c, groups);
  const verifier = new AwsIdentityVerifier({ clusterName: c, region, stsEndpoint: options.stsEndpoint ?? regionalStsEndpoint(region), accountId: me.Account ?? '', roles, describeInstance: (id) => describeInstanceFacts(cloud, id) });
  return { verify: (a, b) => verifier.verify(a, b), describe: { where: `region ${region}`, who: `roles ${[...roles].map(([r, g]) => `${r}=${g.join('+')}`).join(' ')}` } };
}

/** GCE: Google's instance identity tokens for the service's URL, of running instances of this cluster's worker groups (Compute instances.get). */
function gceVerifier(configBase: string, completed: Cluster, groups: InstanceGroup[], options: KopsControllerOptions): Verifier {
  const c = completed.metadata.name;
  const project = completed.spec.project;
  if (!project) throw new NodeIdentityError(`${configBase}/cluster-completed.spec: spec.project is not set, so the cluster's GCE project is unknown`);
  const workerGroups = groups.filter((g) => normalizedRole(g) === 'Node').map((g) => g.metadata.name).sort();
  const verifier = new GceIdentityVerifier({ clusterName: c, project, audience: gceIdentityAudience(c), jwksUrl: options.googleJwksUrl ?? GOOGLE_JWKS_URL, workerGroups, getInstance: gceInstanceFacts(project, options.env ?? process.env) });
  return { verify: (a) => verifier.verify(a), describe: { where: `project ${project}`, who: `GCE instance identity tokens for ${gceIdentityAudience(c)} of worker groups ${workerGroups.join('+') || '(none)'}` } };
}

/**
 * What the service serves from the store to nodes that may not read it (docs/node-identity.md): a verified
 * node's group's nodeupconfig.yaml, read at each request (the node checks its hash against user-data), and the
 * content-addressed nodeup bundles, kept in memory once read (a few builds at most).
 */
function storeContent(vfs: Vfs, cluster: string, groups: InstanceGroup[]): Pick<NodeIdentityServerOptions, 'nodeConfig' | 'nodeupArtifact'> {
  const bundles = new Map<string, Buffer>();
  return {
    nodeConfig: async (node) => {
      const ig = groups.find((g) => g.metadata.name === node.instanceGroup);
      if (!ig) throw new IdentityDenied(`instance group ${node.instanceGroup} is not one of the cluster's`, 403);
      const key = StatePaths.nodeupConfig(cluster, normalizedRole(ig), ig.metadata.name);
      const read = await vfs.read(key).catch((e: unknown) => {
        throw new IdentityDenied(`reading ${vfs.url}/${key}: ${e instanceof Error ? e.message : String(e)}`, 503);
      });
      if (!read) throw new IdentityDenied(`${vfs.url}/${key} does not exist; has "kforge update cluster ${cluster} --yes" run?`, 503);
      return read.data.toString('utf8');
    },
    nodeupArtifact: async (sha256) => {
      const cached = bundles.get(sha256);
      if (cached) return cached;
      const read = await vfs.read(StatePaths.nodeupArtifact(cluster, sha256));
      if (!read || createHash('sha256').update(read.data).digest('hex') !== sha256) return undefined;
      if (bundles.size >= 4) bundles.delete(bundles.keys().next().value as string);
      bundles.set(sha256, read.data);
      return read.data;
    },
  };
}

async function primaryKeypair(vfs: Vfs, cluster: string, name: string): Promise<Keypair> {
  const key = `${cluster}/pki/private/${name}/keyset.yaml`;
  const where = `${vfs.url}/${key}`;
  const obj = await wrap(`reading ${where}`, () => vfs.read(key));
  if (!obj) throw new NodeIdentityError(`${where} does not exist; run "kforge update cluster ${cluster} --yes" (it makes every missing keyset)`);
  const primary = KeysetYaml.parse(obj.data, where, name).primary();
  if (!primary?.privateKeyPem) throw new NodeIdentityError(`${where}: no primary key with its private key`);
  return primary;
}


async function wrap<T>(what: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof NodeIdentityError || e instanceof UsageError) throw e;
    throw new NodeIdentityError(`${what}: ${awsErrorMessage(e)}`);
  }
}
