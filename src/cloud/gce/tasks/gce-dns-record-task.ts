import type { Change, Task } from '../../../tasks/task';
import type { CloudDnsRrset, CloudDnsZone } from '../cloud-dns-rest';
import type { GceCloud } from '../gce-cloud';
import { resolveGceDnsZone } from '../gce-dns-zones';
import { classifyGceError } from '../gce-errors';
import type { GceAddressTask } from './gce-address-task';

/** kops's placeholder address (TEST-NET-3): protokube replaces it with the control plane's addresses. */
export const GCE_PLACEHOLDER_ADDRESS = '203.0.113.123';

/** kops's TTL of the API records. */
const TTL = 60;

/** What the model wants of an A record in the cluster's managed zone. */
export interface GceDnsRecordSpec {
  /** `spec.dnsZone`: a DNS name (`example.com`), or a managed zone's name or numeric id; unset: found from the cluster name. */
  dnsZone: string | undefined;
  clusterName: string;
  privateZone: boolean;
  /** A create-only placeholder, or kept pointing at the API load balancer's external address. */
  target: { placeholder: true } | { address: GceAddressTask };
}

/** The record as Cloud DNS has it, and the zone it is in. */
export interface GceDnsRecordActual {
  zone: string;
  rrset: CloudDnsRrset;
}

/** The zones a run has resolved, per connection: the records of one zone resolve it once. */
const zones = new WeakMap<GceCloud, Map<string, Promise<CloudDnsZone>>>();

/**
 * A Cloud DNS A record of the API: `api.<cluster>` and `api.internal.<cluster>`, kops's pre-created
 * placeholders (203.0.113.123, so that nodes do not cache NXDOMAIN before the control plane is up). Records
 * have no labels: a record is identified by name and type, and only the names the model owns are changed. A
 * placeholder is created only when the record is missing (an addition alone: Cloud DNS refuses it with 409
 * if protokube wrote the record since the find); protokube owns its value afterwards. With a public API
 * load balancer `api.<cluster>` is kept at its address: the exact old record is deleted and the new one
 * added in one change (412 when the record changed since the find: the executor finds it again and retries).
 * The Terraform target renders nothing, as kops's GCE kubernetes.tf has no google_dns_record_set: protokube
 * writes the records when the control plane boots.
 */
export class GceDnsRecordTask implements Task<GceCloud, GceDnsRecordActual> {
  readonly kind = 'DNSRecord';
  private zone: string | undefined;

  constructor(
    readonly name: string,
    readonly desired: GceDnsRecordSpec,
  ) {}

  /** The load balancer's address, when the record points at it. */
  dependencies(): readonly Task<GceCloud>[] {
    return 'address' in this.desired.target ? [this.desired.target.address] : [];
  }

  /** Nothing: protokube writes the records (kops's GCE Terraform output has none). */
  renderTerraform(): void {}

  /** The A record of this name in the managed zone (`spec.dnsZone` resolved once per run). */
  async find(cloud: GceCloud): Promise<GceDnsRecordActual | undefined> {
    const dns = await cloud.connectDns();
    const zone = (await this.resolveZone(cloud)).name;
    this.zone = zone;
    const [rrset] = await dns.listRecords(zone, this.fqdn(), 'A');
    return rrset ? { zone, rrset } : undefined;
  }

  /** A missing placeholder; or the address, when it differs from the load balancer's. */
  diff(actual: GceDnsRecordActual | undefined): Change[] {
    const t = this.desired.target;
    if ('placeholder' in t) return actual ? [] : [{ field: 'rrdatas', from: undefined, to: [GCE_PLACEHOLDER_ADDRESS] }];
    const want = [t.address.ip ?? `<${t.address.name}>`];
    return JSON.stringify(actual?.rrset.rrdatas) === JSON.stringify(want) ? [] : [{ field: 'rrdatas', from: actual?.rrset.rrdatas, to: want }];
  }

  /** Records change in place. */
  check(): void {}

  /** One atomic change: the addition, and for the address the exact old record's deletion. */
  async apply(cloud: GceCloud, actual: GceDnsRecordActual | undefined): Promise<void> {
    const dns = await cloud.connectDns();
    const zone = actual?.zone ?? this.zone ?? (await this.resolveZone(cloud)).name;
    const t = this.desired.target;
    const value = 'placeholder' in t ? GCE_PLACEHOLDER_ADDRESS : t.address.ip;
    if (!value) throw new Error(`${this.kind}/${this.name}: the address ${'address' in t ? t.address.name : ''} has no IP yet`);
    const addition: CloudDnsRrset = { name: this.fqdn(), type: 'A', ttl: TTL, rrdatas: [value] };
    try {
      await dns.change(zone, { additions: [addition], ...(actual && !('placeholder' in t) ? { deletions: [actual.rrset] } : {}) });
    } catch (e) {
      // The zone moved on since the find: a lost answer whose retry found its own change made (409, 404 for
      // the deletion), or protokube wrote the record. A placeholder that is there now, or an address that is
      // right now, is the state we want; otherwise the error stands (412 is retried by the executor after a find).
      const kind = classifyGceError(e);
      if (kind !== 'already-exists' && kind !== 'not-found' && kind !== 'precondition-failed') throw e;
      const now = await this.find(cloud);
      if (now === undefined || this.diff(now).length > 0) throw e;
    }
  }

  private fqdn(): string {
    return `${this.name.toLowerCase().replace(/\.$/, '')}.`;
  }

  private resolveZone(cloud: GceCloud): Promise<CloudDnsZone> {
    let perCloud = zones.get(cloud);
    if (!perCloud) zones.set(cloud, (perCloud = new Map()));
    const key = `${this.desired.dnsZone ?? ''}/${this.desired.privateZone}`;
    let zone = perCloud.get(key);
    if (!zone) {
      zone = cloud.connectDns().then((dns) => resolveGceDnsZone(dns, this.desired.dnsZone, this.desired.privateZone, this.desired.clusterName));
      // A failed lookup is not kept: the executor's retry asks again.
      zone.catch(() => perCloud.delete(key));
      perCloud.set(key, zone);
    }
    return zone;
  }
}
