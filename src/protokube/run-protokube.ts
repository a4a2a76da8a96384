import * as yaml from 'js-yaml';
import type { Cluster } from '../api/types';
import { AwsCloud } from '../cloud/aws/aws-cloud';
import { awsErrorMessage } from '../cloud/aws/aws-errors';
import { KforgeError } from '../errors/kforge-error';
import { applyNodeFiles } from '../nodeup/apply-node-files';
import type { BootConfig } from '../nodeup/boot-config';
import { readControlPlaneBootConfig } from '../nodeup/read-control-plane-boot-config';
import { RootWriter } from '../nodeup/root-writer';
import { KeysetYaml } from '../pki/keyset-yaml';
import type { Keyset } from '../pki/keyset';
import { openVfs } from '../state/vfs/open-vfs';
import type { Vfs } from '../state/vfs/vfs';
import { etcdMemberFiles, etcdMemberHost, etcdPkiDir } from './etcd-member-files';
import type { EtcdVolume } from './etcd-volumes';
import { awsEtcdVolumeCloud, EtcdVolumeCloud, gceEtcdVolumeCloud } from './etcd-volume-cloud';
import { NodeIdentity, resolveNodeIdentity } from './node-identity';
import { AddonApplyError } from './addons/addon-apply-error';
import { AddonsReport, applyBootstrapChannel } from './addons/apply-bootstrap-channel';
import { ProtokubeError } from './protokube-error';
import { NameRecord, publishRoute53, writeHostsFile } from './publish-names';
import { ensureMounted, waitForDevice } from './volume-mount';

/** How to run protokube. */
export interface ProtokubeOptions {
  /** The boot config file (kube_env.yaml), as nodeup takes it. */
  conf: string;
  /** Where the node's filesystem is: files, mounts and /etc/hosts go under it. */
  root: string;
  identity: Partial<NodeIdentity>;
  /** Where volume devices appear by id. Default /dev/disk/by-id. */
  deviceDir?: string;
  /** Override of the spec's DNS type: Route 53 or Cloud DNS (`public`, `private`) or the hosts file (`none`). */
  dns?: 'public' | 'private' | 'none';
  /** How long to wait for a device after the attach. Default 120 s. */
  deviceTimeoutMs?: number;
  /** The applier's kubeconfig under `root`. Default /var/lib/kforge/kubeconfig, which nodeup writes. */
  kubeconfig?: string;
  /** How long a pass retries while the API server is not up before leaving the addons to the next pass. Default 30 s. */
  apiWaitMs?: number;
  /** Opens the state store (tests pass their own). */
  open?: (url: string) => Vfs;
  env?: NodeJS.ProcessEnv;
}

/** What happened to one etcd cluster's member on this machine in one pass. */
export interface EtcdMemberReport {
  etcd: string;
  member?: string;
  volume?: string;
  device?: string;
  mount?: string;
  formatted?: boolean;
  /** Why there is no member here yet (no free volume in the zone, a claim lost). */
  waiting?: string;
}

/** The outcome of one pass. */
export interface ProtokubeReport {
  cluster: string;
  instanceId: string;
  zone: string;
  members: EtcdMemberReport[];
  files: { path: string; action: string }[];
  dns: 'public' | 'private' | 'none';
  /** Names and addresses published (hosts file, Route 53 or Cloud DNS). */
  names: NameRecord[];
  /** Whether the names went to Cloud DNS (GCE) rather than Route 53. */
  cloudDns?: boolean;
  /** The bootstrap channel applied to the local API server. */
  addons: AddonsReport;
}

/** The device AWS is asked to attach each etcd cluster's volume at, by its index in the spec (kops uses /dev/xvdu…). */
function attachDevice(index: number): string {
  return `/dev/xvd${String.fromCharCode('u'.charCodeAt(0) + index)}`;
}

/**
 * One protokube pass on a control-plane machine: reads the completed spec and the etcd CAs from the state
 * store the boot config names; for each etcd cluster, finds this machine's volume in its zone (the one it
 * already holds, else claims a free one; the cloud decides races); waits for the device, formats it if
 * blank, mounts it at `/mnt/master-<volume>`; writes the member's static pod manifest and certificates;
 * then publishes every attached member's stable name, `api.internal` and `kops-controller.internal` (Route 53, Cloud DNS, or the hosts file).
 */
export async function runProtokube(options: ProtokubeOptions): Promise<ProtokubeReport> {
  try {
    return await protokubePass(options);
  } catch (e) {
    if (e instanceof KforgeError) throw e;
    // An SDK or system error the steps did not name: one line, its name and message, never a stack.
    throw new ProtokubeError(`protokube pass (--conf ${options.conf}) failed: ${awsErrorMessage(e)}`);
  }
}

async function protokubePass(options: ProtokubeOptions): Promise<ProtokubeReport> {
  const boot = readControlPlaneBootConfig(options.conf, 'protokube', 'protokube supports aws and gce only', ['aws', 'gce']);
  const gce = boot.CloudProvider === 'gce';
  // On GCE the state store is read with the service account's token: Google's auth library is told the
  // metadata server is there (as nodeup does), not left to guess from the firmware.
  if (gce) process.env.METADATA_SERVER_DETECTION ||= 'assume-present';
  const vfs = (options.open ?? openVfs)(boot.ConfigBase);
  const cluster = await readCompletedSpec(vfs, boot);
  const spec = cluster.spec;
  const dnsType = spec.topology?.dns?.type ?? 'None';
  const dns = options.dns ?? (dnsType === 'Public' ? 'public' : dnsType === 'Private' ? 'private' : 'none');
  const deviceDir = options.deviceDir ?? '/dev/disk/by-id';
  let identity: NodeIdentity;
  let cloud: AwsCloud | undefined;
  let volumeCloud: EtcdVolumeCloud;
  let project = '';
  if (gce) {
    const { readGceInstanceIdentity } = await import('../cloud/gce/gce-instance-identity');
    const { GceNames } = await import('../model/gce/gce-names');
    const metadata = await readGceInstanceIdentity(options.env);
    project = metadata.project;
    // A disk's `users` and AttachDisk name instances by name: the name is the id here.
    identity = { instanceId: metadata.instanceName, zone: metadata.zone, internalIp: options.identity.internalIp || metadata.internalIp };
    volumeCloud = gceEtcdVolumeCloud(metadata.project, metadata.zone, GceNames.safeClusterName(boot.ClusterName), deviceDir, options.env);
  } else {
    identity = await resolveNodeIdentity(options.identity, options.env);
    cloud = new AwsCloud({ clusterName: boot.ClusterName, region: identity.zone.replace(/[a-z]$/, ''), env: options.env });
    volumeCloud = awsEtcdVolumeCloud(cloud);
  }

  const volumes = await volumeCloud.list();
  const clientsCa = await readKeyset(vfs, boot, 'etcd-clients-ca');
  const members: EtcdMemberReport[] = [];
  const files: { path: string; action: string }[] = [];
  const etcds = spec.etcdClusters ?? [];
  const writer = new RootWriter(options.root);
  for (const [index, etcd] of etcds.entries()) {
    // A machine that could not get a member of the first etcd cluster (main) claims no other one, so the
    // members of one control-plane machine stay together, and a lost race leaves the loser nothing.
    const claimNew = index === 0 || members[0]?.member !== undefined;
    const mine = await holdVolume(volumeCloud, volumes, etcd.name, identity, attachDevice(index), claimNew ? members[0]?.member : false);
    if ('waiting' in mine) {
      members.push({ etcd: etcd.name, waiting: mine.waiting });
      continue;
    }
    const { volume, device: attached } = mine;
    const device = await waitForDevice(volume.id, { deviceDir, attachDevice: attached, timeoutMs: options.deviceTimeoutMs ?? 120_000 });
    const mountPath = `/mnt/master-${volume.id}`;
    // The mount point is made through the RootWriter: mount follows symlinks, so a planted one would put the volume outside the root.
    const mount = ensureMounted(device, writer.dir(mountPath) as string);
    const peersCa = await readKeyset(vfs, boot, `etcd-peers-ca-${etcd.name}`);
    const dir = etcdPkiDir(etcd.name);
    const existing = new Map<string, string>();
    for (const f of ['server.crt', 'server.key', 'peer.crt', 'peer.key']) {
      const file = writer.readFile(`${dir}/${f}`);
      if (file) existing.set(`${dir}/${f}`, file.data.toString('utf8'));
    }
    const memberFiles = await etcdMemberFiles({ clusterName: boot.ClusterName, spec, etcdName: etcd.name, memberName: volume.memberName, internalIp: identity.internalIp, mountPath, clientsCa, peersCa, existing });
    const applied = applyNodeFiles(memberFiles, options.root);
    files.push(...applied.files.map((f) => ({ path: f.path, action: f.action })));
    members.push({ etcd: etcd.name, member: volume.memberName, volume: volume.id, device: mount.device, mount: mountPath, formatted: mount.formatted });
  }

  // Listed again: claims made just now, by this machine and by others, are in the names.
  const listed = await volumeCloud.list();
  let names = await memberNames(volumeCloud, boot.ClusterName, listed, identity);
  if (dns === 'none') {
    // Without DNS, api.internal is nodeup's line in /etc/hosts (127.0.0.1 on the control plane, as kops's
    // EtcHostsBuilder): a second line here would contradict it. Only the etcd names go in protokube's block.
    // kops-controller.internal likewise: on the control plane nothing calls it; workers get it from nodeup's block.
    names = names.filter((n) => n.name !== `api.internal.${boot.ClusterName}` && n.name !== `kops-controller.internal.${boot.ClusterName}`);
    writeHostsFile(options.root, names);
  } else {
    if (gce) {
      // On GCE protokube also keeps api.<cluster> (kops's dns-controller does, from the API server's annotations).
      const env = options.env ?? process.env;
      const { gceApiRecord, publishCloudDns } = await import('./gce-cloud-dns-publish');
      const api = await gceApiRecord(spec, boot.ClusterName, project, listed, env);
      if (api) names = [...names, api].sort((a, b) => a.name.localeCompare(b.name));
      await publishCloudDns(project, boot.ClusterName, spec.dnsZone, dns === 'private', names, env);
    } else {
      if (!spec.dnsZone) throw new ProtokubeError(`--dns ${dns} needs spec.dnsZone in cluster ${boot.ClusterName}'s spec; use --dns none for the hosts file`);
      await publishRoute53(cloud as AwsCloud, spec.dnsZone, dns === 'private', names);
    }
  }
  const addons = await applyBootstrapChannel({ vfs, configBase: boot.ConfigBase, writer, kubeconfig: options.kubeconfig, apiWaitMs: options.apiWaitMs ?? 30_000 });
  const report = { cluster: boot.ClusterName, instanceId: identity.instanceId, zone: identity.zone, members, files, dns, names, ...(gce && dns !== 'none' ? { cloudDns: true } : {}), addons };
  const failed = addons.addons.filter((a) => a.action === 'failed');
  // The etcd members and names are done (and idempotent): the pass fails on the addons alone, naming each refusal.
  if (failed.length > 0) throw new AddonApplyError(failed.map((a) => a.error).join('; '));
  return report;
}

/**
 * The volume of etcd cluster `etcdName` this machine holds: one already attached to it (a restart), else
 * the first free one in its zone it wins, preferring the member it holds in another etcd cluster
 * (`preferMember` false: claim nothing new). A member with more than one volume (in any zone) is never
 * claimed, formatted or mounted, not even one this machine holds: which one has the member's data is not
 * for protokube to guess, so it waits until the extra volumes are gone and says so.
 */
async function holdVolume(
  cloud: EtcdVolumeCloud,
  volumes: EtcdVolume[],
  etcdName: string,
  identity: NodeIdentity,
  device: string,
  preferMember: string | undefined | false,
): Promise<{ volume: EtcdVolume; device: string } | { waiting: string }> {
  const duplicated = duplicatedMembers(volumes.filter((v) => v.etcdName === etcdName));
  const ofEtcd = volumes.filter((v) => v.etcdName === etcdName && v.zone === identity.zone);
  const held = ofEtcd.find((v) => v.attachedTo === identity.instanceId);
  if (held) return duplicated.has(held.memberName) ? { waiting: duplicateReason(etcdName, held.memberName, duplicated) } : { volume: held, device: held.device ?? device };
  if (preferMember === false) return { waiting: 'this machine holds no member of the first etcd cluster, so it claims no other' };
  const free = ofEtcd
    .filter((v) => !v.attachedTo && !duplicated.has(v.memberName))
    .sort((a, b) => Number(b.memberName === preferMember) - Number(a.memberName === preferMember));
  const lost: string[] = [];
  for (const v of free) {
    const claim = await cloud.claim(v, identity.instanceId, device);
    if (claim.won) return { volume: v, device: claim.device };
    lost.push(claim.reason);
  }
  if (ofEtcd.length === 0) return { waiting: `no etcd ${etcdName} volume of this cluster in zone ${identity.zone}` };
  const skipped = [...new Set(ofEtcd.filter((v) => !v.attachedTo && duplicated.has(v.memberName)).map((v) => v.memberName))].sort();
  if (skipped.length > 0) return { waiting: [...skipped.map((m) => duplicateReason(etcdName, m, duplicated)), ...lost].join('; ') };
  return { waiting: lost.length > 0 ? `lost every claim: ${lost.join('; ')}` : `every etcd ${etcdName} volume in zone ${identity.zone} is attached to another instance` };
}

/** The members of one etcd cluster that more than one volume claims to be, with those volumes' ids (sorted). */
function duplicatedMembers(ofEtcd: readonly EtcdVolume[]): Map<string, string[]> {
  const byMember = new Map<string, string[]>();
  for (const v of ofEtcd) byMember.set(v.memberName, [...(byMember.get(v.memberName) ?? []), v.id]);
  return new Map([...byMember].filter(([, ids]) => ids.length > 1).map(([m, ids]) => [m, ids.sort()]));
}

/** Why a duplicated member is not claimed, in one line. */
function duplicateReason(etcdName: string, member: string, duplicated: Map<string, string[]>): string {
  const ids = duplicated.get(member) ?? [];
  return `etcd ${etcdName} member ${member} has ${ids.length} volumes (${ids.join(', ')}): none is claimed, formatted or mounted until only one is left (delete the extra ones)`;
}

/** Every attached member's stable name at its instance's address, and api.internal at every control-plane address. */
async function memberNames(cloud: EtcdVolumeCloud, clusterName: string, volumes: EtcdVolume[], identity: NodeIdentity): Promise<NameRecord[]> {
  const attached = volumes.filter((v) => v.attachedTo);
  const others = attached.map((v) => v.attachedTo as string).filter((i) => i !== identity.instanceId);
  const addresses = await cloud.addresses(others);
  // This machine's own address is the one it was told (or metadata's), not a second lookup.
  addresses.set(identity.instanceId, identity.internalIp);
  const records: NameRecord[] = [];
  for (const v of attached) {
    const ip = addresses.get(v.attachedTo as string);
    if (ip) records.push({ name: etcdMemberHost(clusterName, v.etcdName, v.memberName), addresses: [ip] });
  }
  const controlPlane = [...new Set(attached.filter((v) => v.etcdName === 'main').map((v) => addresses.get(v.attachedTo as string)).filter((a): a is string => !!a))].sort();
  if (controlPlane.length > 0) records.push({ name: `api.internal.${clusterName}`, addresses: controlPlane });
  // The node-identity service (kforge-kops-controller.service) runs on the same machines (docs/node-identity.md).
  if (controlPlane.length > 0) records.push({ name: `kops-controller.internal.${clusterName}`, addresses: controlPlane });
  return records.sort((a, b) => a.name.localeCompare(b.name));
}


async function readCompletedSpec(vfs: Vfs, boot: BootConfig): Promise<Cluster> {
  const where = `${boot.ConfigBase}/cluster-completed.spec`;
  const obj = await readStore(vfs, 'cluster-completed.spec', where);
  if (!obj) throw new ProtokubeError(`${where} does not exist; has "kforge update cluster ${boot.ClusterName} --yes" run?`);
  const doc = yaml.load(obj.toString()) as Cluster | undefined;
  if (!doc || typeof doc !== 'object' || !doc.spec) throw new ProtokubeError(`${where}: not a completed Cluster spec`);
  return doc;
}

async function readKeyset(vfs: Vfs, boot: BootConfig, name: string): Promise<Keyset> {
  const key = `pki/private/${name}/keyset.yaml`;
  const where = `${boot.ConfigBase}/${key}`;
  const data = await readStore(vfs, key, where);
  if (!data) throw new ProtokubeError(`${where} does not exist; has "kforge update cluster ${boot.ClusterName} --yes" run?`);
  return KeysetYaml.parse(data, where, name);
}

async function readStore(vfs: Vfs, key: string, where: string): Promise<Buffer | undefined> {
  try {
    return (await vfs.read(key))?.data;
  } catch (e) {
    throw new ProtokubeError(`cannot read ${where}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * Runs passes forever, `intervalMs` apart: a replaced control-plane machine claims its zone's freed volume
 * on a later pass, and the names follow the members. A failed pass is reported and retried, never fatal.
 */
export async function runProtokubeLoop(
  options: ProtokubeOptions,
  intervalMs: number,
  log: { report: (text: string) => void; failure: (text: string) => void },
  signal?: AbortSignal,
): Promise<void> {
  while (!signal?.aborted) {
    try {
      log.report(summarizeReport(await runProtokube(options)));
    } catch (e) {
      log.failure(`protokube: pass failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, intervalMs);
      signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
    });
  }
}

/** The text form of a pass's report. */
export function summarizeReport(r: ProtokubeReport): string {
  const lines = [`protokube: cluster ${r.cluster}, instance ${r.instanceId} in ${r.zone}`];
  for (const m of r.members) {
    lines.push(
      m.member
        ? `  etcd ${m.etcd}: member ${m.member}, volume ${m.volume} on ${m.device}, mounted at ${m.mount}${m.formatted ? ' (formatted)' : ''}`
        : `  etcd ${m.etcd}: no member here: ${m.waiting}`,
    );
  }
  const changed = r.files.filter((f) => f.action !== 'unchanged');
  for (const f of changed) lines.push(`  ${f.action.padEnd(9)} ${f.path}`);
  lines.push(`  ${r.files.length} files: ${changed.length} written, ${r.files.length - changed.length} unchanged`);
  lines.push(`  names (${r.dns === 'none' ? '/etc/hosts' : `${r.cloudDns ? 'Cloud DNS' : 'Route 53'}, ${r.dns}`}): ${r.names.map((n) => `${n.name}=${n.addresses.join(',')}`).join(' ') || 'none yet'}`);
  const a = r.addons;
  if (a.status !== 'applied') lines.push(`  addons: ${a.status}: ${a.reason}`);
  else {
    const applied = a.addons.filter((x) => x.action === 'applied');
    lines.push(`  addons (${a.server}): ${applied.length} applied, ${a.addons.length - applied.length} unchanged, ${a.requests} API calls`);
    for (const x of applied) lines.push(`    ${x.name}: ${x.previousHash ? `${x.previousHash.slice(0, 12)} -> ` : ''}${x.manifestHash.slice(0, 12)}, ${x.created} created, ${x.configured} configured${x.pruned?.length ? `, pruned ${x.pruned.join(', ')}` : ''}`);
  }
  return lines.join('\n');
}
