import { classifyGceError, gceErrorMessage } from '../cloud/gce/gce-errors';
import type { ClaimResult, EtcdVolume } from './etcd-volumes';
import { ProtokubeError } from './protokube-error';

/** Where protokube's Compute calls go: this instance's project and zone, and the client's options (tests: the fake's). */
export interface GceDiskScope {
  project: string;
  zone: string;
  /** Passed to every @google-cloud/compute client; empty on GCE (the metadata server's credentials). */
  clientOptions?: ConstructorParameters<Compute['DisksClient']>[0];
}

// kops's labels on an etcd disk (MasterVolumeBuilder.addGCEVolume, etcd-disk-model-builder.ts).
const ETCD_LABEL_PREFIX = 'k8s-io-etcd-';

type Compute = typeof import('@google-cloud/compute');

/** @google-cloud/compute, loaded on first use (it takes ~600 ms to require). */
let compute: Promise<Compute> | undefined;
function loadCompute(): Promise<Compute> {
  compute ??= import('@google-cloud/compute');
  return compute;
}

/** A GCE label value back to its string (kops's DecodeGCELabel): every `-xx` is the byte xx. */
export function decodeGceLabel(s: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '-' && /^[0-9a-f]{2}$/.test(s.slice(i + 1, i + 3))) {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(s.charCodeAt(i));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The last segment of a resource URL (`…/instances/<name>` → `<name>`). */
function lastSegment(url: string): string {
  return url.slice(url.lastIndexOf('/') + 1);
}

/**
 * The cluster's etcd disks in this zone, found by kops's labels (`k8s-io-cluster-name`, `k8s-io-role-master`,
 * and `k8s-io-etcd-<etcd cluster>` = the encoded `<member>/<members>`), one Disks.List with a label filter (all
 * pages). The id is the disk's name; `attachedTo` the instance name of its first user; `device` its name.
 */
export async function listGceEtcdDisks(scope: GceDiskScope, safeClusterName: string): Promise<EtcdVolume[]> {
  const { DisksClient } = await loadCompute();
  const disks = new DisksClient(scope.clientOptions);
  let items;
  try {
    [items] = await disks.list({ project: scope.project, zone: scope.zone, filter: `labels.k8s-io-cluster-name = "${safeClusterName}" AND labels.k8s-io-role-master = "master"` });
  } catch (e) {
    throw new ProtokubeError(`listing the etcd disks of zone ${scope.zone} in project ${scope.project}: ${gceErrorMessage(e)}`);
  } finally {
    await disks.close();
  }
  const out: EtcdVolume[] = [];
  for (const d of items) {
    const labels = (d.labels ?? {}) as Record<string, string>;
    const key = Object.keys(labels).find((k) => k.startsWith(ETCD_LABEL_PREFIX));
    if (!d.name || !key || d.status === 'DELETING' || d.status === 'FAILED') continue;
    const user = (d.users ?? [])[0];
    out.push({
      id: d.name,
      zone: scope.zone,
      etcdName: key.slice(ETCD_LABEL_PREFIX.length),
      memberName: decodeGceLabel(labels[key]).split('/')[0],
      attachedTo: user ? lastSegment(user) : undefined,
      device: user ? d.name : undefined,
    });
  }
  return out.sort((a, b) => a.etcdName.localeCompare(b.etcdName) || a.memberName.localeCompare(b.memberName) || a.id.localeCompare(b.id));
}

/**
 * Attaches `disk` to `instance` (Instances.AttachDisk, device name = the disk's name, READ_WRITE), waits for the
 * operation, and decides who won by the disk's answer, not a local guess: GCE refuses a second READ_WRITE user
 * (the operation ends with resourceInUseByAnotherResource: lost), and after the operation the disk's `users` must
 * be this instance alone, or the claim is lost too. The device appears as /dev/disk/by-id/google-<device name>.
 */
export async function claimGceDisk(scope: GceDiskScope, disk: EtcdVolume, instance: string): Promise<ClaimResult> {
  const { InstancesClient, ZoneOperationsClient, DisksClient } = await loadCompute();
  const instances = new InstancesClient(scope.clientOptions);
  const operations = new ZoneOperationsClient(scope.clientOptions);
  const disks = new DisksClient(scope.clientOptions);
  const where = { project: scope.project, zone: scope.zone };
  try {
    let op;
    try {
      [op] = await instances.attachDisk({ ...where, instance, attachedDiskResource: { source: `projects/${scope.project}/zones/${scope.zone}/disks/${disk.id}`, deviceName: disk.id, mode: 'READ_WRITE' } });
    } catch (e) {
      if (inUse(e)) return { won: false, reason: `${disk.id} is attached to another instance (${gceErrorMessage(e)})` };
      throw new ProtokubeError(`attaching etcd disk ${disk.id} (${disk.etcdName} member ${disk.memberName}) to ${instance}: ${gceErrorMessage(e)}`);
    }
    // Wait answers when the operation is done or after about two minutes; ask again until it is done.
    let latest = op.latestResponse as { name?: string; status?: string; error?: { errors?: Array<{ code?: string; message?: string }> } };
    const name = String(latest.name ?? op.name);
    for (let i = 0; i < 10 && latest.status !== 'DONE'; i++) [latest] = (await operations.wait({ ...where, operation: name })) as unknown as [typeof latest];
    if (latest.status !== 'DONE') throw new ProtokubeError(`attaching etcd disk ${disk.id} to ${instance}: operation ${name} did not finish`);
    const failure = latest.error?.errors?.[0];
    if (failure && failure.code !== 'RESOURCE_IN_USE_BY_ANOTHER_RESOURCE') throw new ProtokubeError(`attaching etcd disk ${disk.id} to ${instance}: ${failure.code ?? 'error'}: ${failure.message ?? ''}`);
    const [now] = await disks.get({ ...where, disk: disk.id });
    const users = (now.users ?? []).map(lastSegment);
    if (users.length !== 1 || users[0] !== instance) return { won: false, reason: `${disk.id} is attached to ${users.join(', ') || 'no instance'} after the attach` };
    return { won: true, device: disk.id };
  } finally {
    await Promise.all([instances.close(), operations.close(), disks.close()]);
  }
}

/** The internal address of each instance of this zone, by name (Instances.Get per instance); instances without one are left out. */
export async function gceInstanceAddresses(scope: GceDiskScope, names: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (names.length === 0) return out;
  const { InstancesClient } = await loadCompute();
  const instances = new InstancesClient(scope.clientOptions);
  try {
    for (const name of [...new Set(names)].sort()) {
      const [i] = await instances.get({ project: scope.project, zone: scope.zone, instance: name });
      const ip = i.networkInterfaces?.[0]?.networkIP;
      if (ip) out.set(name, ip);
    }
  } finally {
    await instances.close();
  }
  return out;
}

/** A refused attach of a disk another instance holds (400 resourceInUseByAnotherResource), by the error's status and reason. */
function inUse(e: unknown): boolean {
  const reasons = ((e as { errors?: Array<{ reason?: string }> }).errors ?? []).map((x) => x.reason);
  return classifyGceError(e) === 'unknown' && (e as { code?: unknown }).code === 400 && reasons.includes('resourceInUseByAnotherResource');
}
