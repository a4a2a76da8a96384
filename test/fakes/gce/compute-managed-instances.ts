import { createHash } from 'node:crypto';
import { invalid, notFound } from './compute-errors';
import { COMPUTE_BASE, ComputeStore, Resource } from './compute-store';

/** A managed instance's pending action, as `listManagedInstances` reports it (`currentAction`). */
type Action = 'RECREATING' | 'DELETING';

interface Pending {
  /** The fake's request count at which the action completes. */
  due: number;
  action: Action;
  zonePath: string;
  instance: string;
}

/** `projects/p/zones/z/instanceGroupManagers/m` (or a full URL, or `zones/z/instances/i`) → its path from `projects/`. */
function rel(project: string, ref: string): string {
  if (ref.startsWith(COMPUTE_BASE)) return ref.slice(COMPUTE_BASE.length);
  return ref.startsWith('projects/') ? ref : `projects/${project}/${ref}`;
}

/** The lowercase alphanumerics GCE appends to a MIG's base instance name. */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * The instances of the fake's MIGs, as GCE manages them: a MIG keeps `targetSize` instances named
 * `<baseInstanceName>-xxxx`, made from its instance template (machine type, labels, tags, metadata plus
 * GCE's `instance-template` and `created-by` items, a network interface with an internal IP from its
 * subnetwork and, when the template has an access config, an external `natIP`), status RUNNING.
 * `recreateInstances` and `deleteInstances` finish their operation when the flag is set, as GCE's do; the
 * instance then shows `currentAction` RECREATING / DELETING for `actionRequests` further requests to the
 * fake, after which a recreated instance comes back under the same name with a new id and the MIG's
 * current template, and a deleted one is gone (the MIG's target size was lowered when it was flagged). A
 * MIG's `currentActions` and `status.isStable` / `status.versionTarget.isReached` are computed on read.
 */
export class ManagedInstances {
  private readonly pending: Pending[] = [];
  private readonly serial = new Map<string, string>();
  private requests = 0;
  private seq = 0;

  constructor(
    private readonly store: ComputeStore,
    private readonly actionRequests: number,
  ) {}

  /** Called on every request to the fake: actions whose time has come complete. */
  tick(): void {
    this.requests++;
    for (const p of [...this.pending]) {
      if (p.due > this.requests) continue;
      this.pending.splice(this.pending.indexOf(p), 1);
      const instances = `${p.zonePath}/instances`;
      const inst = this.store.find(instances, p.instance);
      if (!inst) continue;
      const mig = this.migOf(inst);
      this.remove(p.zonePath, inst);
      if (p.action === 'RECREATING' && mig) this.create(p.zonePath, mig, p.instance);
    }
  }

  /** A MIG's instances follow its target size: missing ones are created, extra ones (newest last) removed. */
  reconcile(zonePath: string, mig: Resource): void {
    const mine = this.instancesOf(zonePath, mig);
    const size = Number(mig.targetSize ?? 0);
    for (const extra of mine.slice(size)) this.remove(zonePath, extra);
    for (let i = mine.length; i < size; i++) this.create(zonePath, mig);
  }

  /** `recreateInstances`: flags each named instance of the MIG (400 for one that is not its). */
  recreate(zonePath: string, mig: Resource, refs: unknown): void {
    for (const name of this.members(zonePath, mig, refs)) this.flag(zonePath, name, 'RECREATING');
  }

  /** 400 / 404 when the request names no instance or one that is not the MIG's, as GCE answers the call. */
  check(zonePath: string, mig: Resource, refs: unknown): void {
    this.members(zonePath, mig, refs);
  }

  /** `deleteInstances`: lowers the target size by the instances named and flags them. */
  deleteInstances(zonePath: string, mig: Resource, refs: unknown): void {
    const names = this.members(zonePath, mig, refs);
    mig.targetSize = Math.max(0, Number(mig.targetSize ?? 0) - names.length);
    for (const name of names) this.flag(zonePath, name, 'DELETING');
  }

  /** `listManagedInstances`: one ManagedInstance per instance of the MIG, sorted by name. */
  listManaged(zonePath: string, mig: Resource): Resource[] {
    return this.instancesOf(zonePath, mig).map((i) => ({
      instance: i.selfLink,
      id: i.id,
      name: i.name,
      instanceStatus: i.status,
      currentAction: this.actionOf(zonePath, String(i.name)),
      version: { instanceTemplate: this.templateOf(i) },
    }));
  }

  /** The MIG as GET answers it: with `currentActions` and `status` from its instances. */
  view(zonePath: string, mig: Resource): Resource {
    const managed = this.listManaged(zonePath, mig);
    const count = (a: string) => managed.filter((m) => m.currentAction === a).length;
    const creating = Math.max(0, Number(mig.targetSize ?? 0) - managed.filter((m) => m.currentAction !== 'DELETING').length);
    const currentActions = { abandoning: 0, creating, creatingWithoutRetries: 0, deleting: count('DELETING'), none: count('NONE'), recreating: count('RECREATING'), refreshing: 0, restarting: 0, resuming: 0, starting: 0, stopping: 0, suspending: 0, verifying: 0 };
    const isStable = managed.every((m) => m.currentAction === 'NONE') && creating === 0;
    const isReached = managed.every((m) => (m.version as Resource).instanceTemplate === mig.instanceTemplate);
    return { ...mig, currentActions, status: { isStable, versionTarget: { isReached } } };
  }

  /** What an instance wrote to its serial console (set by tests, as a machine's boot would). */
  serialPort(zonePath: string, name: string, start: number): Resource {
    const inst = this.store.get(`${zonePath}/instances`, name);
    const contents = this.serial.get(String(inst.selfLink)) ?? '';
    const from = Math.min(Math.max(0, start), contents.length);
    return { kind: 'compute#serialPortOutput', contents: contents.slice(from), start: String(from), next: String(contents.length), selfLink: `${String(inst.selfLink)}/serialPort` };
  }

  /** Sets an instance's serial console text. */
  setSerialPort(instanceSelfLink: string, text: string): void {
    this.serial.set(instanceSelfLink, text);
  }

  private instancesOf(zonePath: string, mig: Resource): Resource[] {
    return this.store
      .list(`${zonePath}/instances`)
      .filter((i) => i['fakeCreatedBy'] === mig.selfLink)
      .sort((a, b) => Number(a['fakeSeq']) - Number(b['fakeSeq']));
  }

  private migOf(inst: Resource): Resource | undefined {
    const link = String(inst['fakeCreatedBy'] ?? '');
    if (!link) return undefined;
    const path = link.slice(COMPUTE_BASE.length);
    return this.store.find(path.split('/').slice(0, -1).join('/'), path.split('/').pop()!);
  }

  private templateOf(inst: Resource): string {
    const items = ((inst.metadata as Resource | undefined)?.items ?? []) as Array<{ key: string; value: string }>;
    return COMPUTE_BASE + String(items.find((i) => i.key === 'instance-template')?.value ?? '');
  }

  private actionOf(zonePath: string, name: string): string {
    return this.pending.find((p) => p.zonePath === zonePath && p.instance === name)?.action ?? 'NONE';
  }

  private members(zonePath: string, mig: Resource, refs: unknown): string[] {
    const project = zonePath.split('/')[1];
    const mine = new Set(this.instancesOf(zonePath, mig).map((i) => String(i.selfLink)));
    const list = Array.isArray(refs) ? refs.map(String) : [];
    if (list.length === 0) throw invalid("Invalid value for field 'instances': ''. At least one instance must be given.");
    return list.map((ref) => {
      const link = COMPUTE_BASE + rel(project, ref);
      if (!mine.has(link)) throw notFound(rel(project, ref));
      return link.split('/').pop()!;
    });
  }

  private flag(zonePath: string, name: string, action: Action): void {
    if (this.pending.some((p) => p.zonePath === zonePath && p.instance === name)) return;
    this.pending.push({ due: this.requests + this.actionRequests, action, zonePath, instance: name });
  }

  private remove(zonePath: string, inst: Resource): void {
    // A deleted instance's disks are detached, as GCE does.
    for (const disk of this.store.list(`${zonePath}/disks`)) if (Array.isArray(disk.users)) disk.users = (disk.users as string[]).filter((u) => u !== inst.selfLink);
    this.store.remove(`${zonePath}/instances`, String(inst.name));
  }

  /** A new instance of the MIG from its current template; `name` keeps a recreated instance's. */
  private create(zonePath: string, mig: Resource, name?: string): void {
    const project = zonePath.split('/')[1];
    const zone = zonePath.split('/').pop()!;
    const templatePath = rel(project, String(mig.instanceTemplate));
    const template = this.store.find(templatePath.split('/').slice(0, -1).join('/'), templatePath.split('/').pop()!);
    const props = (template?.properties ?? {}) as Resource;
    const seq = ++this.seq;
    let instanceName = name;
    for (let n = 0; !instanceName || (!name && this.store.find(`${zonePath}/instances`, instanceName)); n++) {
      const hash = createHash('sha256').update(`${String(mig.selfLink)}#${seq}#${n}`).digest();
      instanceName = `${String(mig.baseInstanceName)}-${[...hash.subarray(0, 4)].map((b) => ALPHABET[b % ALPHABET.length]).join('')}`;
    }
    const items = [...((((props.metadata as Resource | undefined)?.items ?? []) as Resource[])), { key: 'instance-template', value: templatePath }, { key: 'created-by', value: String(mig.selfLink).slice(COMPUTE_BASE.length) }];
    const nics = ((props.networkInterfaces ?? []) as Resource[]).map((nic, i) => ({
      ...nic,
      name: `nic${i}`,
      networkIP: this.internalIp(nic, seq),
      ...(Array.isArray(nic.accessConfigs) && nic.accessConfigs.length > 0 ? { accessConfigs: (nic.accessConfigs as Resource[]).map((a) => ({ ...a, natIP: `35.${200 + (seq >> 16)}.${(seq >> 8) & 255}.${seq & 255}` })) } : {}),
    }));
    const inst = this.store.insert(`${zonePath}/instances`, 'Instance', { name: instanceName, machineType: `zones/${zone}/machineTypes/${String(props.machineType)}`, metadata: { items }, labels: props.labels, tags: props.tags, serviceAccounts: props.serviceAccounts, networkInterfaces: nics, disks: [], status: 'RUNNING' });
    // Not enumerable: neither in the JSON answers nor a reference that blocks deleting the MIG.
    Object.defineProperty(inst, 'fakeCreatedBy', { value: mig.selfLink, enumerable: false });
    Object.defineProperty(inst, 'fakeSeq', { value: seq, enumerable: false });
  }

  /** An address in the interface's subnetwork's range (GCE's first usable addresses are .2 onwards). */
  private internalIp(nic: Resource, seq: number): string {
    const sub = typeof nic.subnetwork === 'string' ? nic.subnetwork.slice(COMPUTE_BASE.length) : '';
    const subnet = sub ? this.store.find(sub.split('/').slice(0, -1).join('/'), sub.split('/').pop()!) : undefined;
    const [a, b, c] = String(subnet?.ipCidrRange ?? '10.0.0.0/20').split('/')[0].split('.').map(Number);
    const host = seq + 1;
    return `${a}.${b}.${c + (host >> 8)}.${host & 255}`;
  }
}
