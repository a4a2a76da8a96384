import type { ClaimResult, EtcdVolume } from './etcd-volumes';
import { GceApiError, type GceComputeRest } from './gce-compute-rest';
import { ProtokubeError } from './protokube-error';

// kops's labels on an etcd disk (MasterVolumeBuilder.addGCEVolume, etcd-disk-model-builder.ts).
const ETCD_LABEL_PREFIX = 'k8s-io-etcd-';

/** The fields of a Compute disk protokube reads. */
interface Disk {
  name?: string;
  status?: string;
  labels?: Record<string, string>;
  users?: string[];
}

/** The fields of a Compute operation protokube reads. */
interface Operation {
  name?: string;
  status?: string;
  error?: { errors?: Array<{ code?: string; message?: string }> };
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
export async function listGceEtcdDisks(compute: GceComputeRest, safeClusterName: string): Promise<EtcdVolume[]> {
  const filter = `labels.k8s-io-cluster-name = "${safeClusterName}" AND labels.k8s-io-role-master = "master"`;
  const items: Disk[] = [];
  let pageToken: string | undefined;
  try {
    do {
      const page = await compute.call<{ items?: Disk[]; nextPageToken?: string }>('GET', `disks?filter=${encodeURIComponent(filter)}${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`);
      items.push(...(page.items ?? []));
      pageToken = page.nextPageToken;
    } while (pageToken);
  } catch (e) {
    throw new ProtokubeError(`listing the etcd disks of zone ${compute.zone} in project ${compute.project}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const out: EtcdVolume[] = [];
  for (const d of items) {
    const labels = (d.labels ?? {}) as Record<string, string>;
    const key = Object.keys(labels).find((k) => k.startsWith(ETCD_LABEL_PREFIX));
    if (!d.name || !key || d.status === 'DELETING' || d.status === 'FAILED') continue;
    const user = (d.users ?? [])[0];
    out.push({
      id: d.name,
      zone: compute.zone,
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
export async function claimGceDisk(compute: GceComputeRest, disk: EtcdVolume, instance: string): Promise<ClaimResult> {
  let op: Operation;
  try {
    op = await compute.call<Operation>('POST', `instances/${encodeURIComponent(instance)}/attachDisk`, { source: `projects/${compute.project}/zones/${compute.zone}/disks/${disk.id}`, deviceName: disk.id, mode: 'READ_WRITE' });
  } catch (e) {
    if (inUse(e)) return { won: false, reason: `${disk.id} is attached to another instance (${(e as Error).message})` };
    throw new ProtokubeError(`attaching etcd disk ${disk.id} (${disk.etcdName} member ${disk.memberName}) to ${instance}: ${e instanceof Error ? e.message : String(e)}`);
  }
  // Wait answers when the operation is done or after about two minutes; ask again until it is done.
  for (let i = 0; i < 10 && op.status !== 'DONE'; i++) op = await compute.call<Operation>('POST', `operations/${encodeURIComponent(String(op.name))}/wait`);
  if (op.status !== 'DONE') throw new ProtokubeError(`attaching etcd disk ${disk.id} to ${instance}: operation ${String(op.name)} did not finish`);
  const failure = op.error?.errors?.[0];
  if (failure && failure.code !== 'RESOURCE_IN_USE_BY_ANOTHER_RESOURCE') throw new ProtokubeError(`attaching etcd disk ${disk.id} to ${instance}: ${failure.code ?? 'error'}: ${failure.message ?? ''}`);
  const now = await compute.call<Disk>('GET', `disks/${encodeURIComponent(disk.id)}`);
  const users = (now.users ?? []).map(lastSegment);
  if (users.length !== 1 || users[0] !== instance) return { won: false, reason: `${disk.id} is attached to ${users.join(', ') || 'no instance'} after the attach` };
  return { won: true, device: disk.id };
}

/** The internal address of each instance of this zone, by name (Instances.Get per instance); instances without one are left out. */
export async function gceInstanceAddresses(compute: GceComputeRest, names: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const name of [...new Set(names)].sort()) {
    const i = await compute.call<{ networkInterfaces?: Array<{ networkIP?: string }> }>('GET', `instances/${encodeURIComponent(name)}`);
    const ip = i.networkInterfaces?.[0]?.networkIP;
    if (ip) out.set(name, ip);
  }
  return out;
}

/** A refused attach of a disk another instance holds (400 resourceInUseByAnotherResource), by the error's status and reason. */
function inUse(e: unknown): boolean {
  return e instanceof GceApiError && e.status === 400 && e.reason === 'resourceInUseByAnotherResource';
}
