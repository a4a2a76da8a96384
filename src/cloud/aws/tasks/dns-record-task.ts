import { HclBlock, HclExpression, type TerraformTarget } from '../../../tasks/terraform-target';
import type { ResourceRecordSet } from '@aws-sdk/client-route-53';
import type { AnyTask, Change } from '../../../tasks/task';
import type { AwsCloud } from '../aws-cloud';
import { findHostedZoneId, literalHostedZoneId } from '../find-hosted-zone-id';
import { AwsTask } from './aws-task';
import type { NetworkLoadBalancerTask } from './network-load-balancer-task';

/** kops's placeholder address (TEST-NET-3): dns-controller replaces it with the control plane's addresses. */
export const PLACEHOLDER_ADDRESS = '203.0.113.123';

/** The actual state of a record: its zone, and either its addresses or its alias target. */
export interface DnsRecordActual {
  zoneId: string;
  values?: string[];
  /** The alias target's DNS name, lowercase, without `dualstack.` and the final dot. */
  aliasDnsName?: string;
  aliasHostedZoneId?: string;
}

/** What the model wants of a record: an A record in the cluster's zone, a placeholder or an alias to the API load balancer. */
export interface DnsRecordSpec {
  /** `spec.dnsZone`: a zone name (`example.com`) or a hosted zone id. */
  dnsZone: string;
  privateZone: boolean;
  /** The subtree the zone's records are read from in one call: the cluster name when the record is below it. */
  subtree: string;
  target: { placeholder: true } | { loadBalancer: NetworkLoadBalancerTask };
}

/**
 * A Route 53 A record of the API (kops's DNSName task and its pre-created placeholders): `api.<cluster>` and
 * `api.internal.<cluster>`. Records have no tags, so a record is identified by its name and type, and only
 * the names the model owns are ever changed. A placeholder is created only when the record is missing:
 * dns-controller owns its value afterwards. An alias to the load balancer is kept pointing at it (UPSERT).
 */
export class DnsRecordTask extends AwsTask<DnsRecordActual> {
  readonly kind = 'DNSRecord';
  /** The zone found by a find that did not find the record, for the create. */
  private zone: string | undefined;

  constructor(
    name: string,
    readonly desired: DnsRecordSpec,
  ) {
    super(name);
  }

  override dependencies(): readonly AnyTask<AwsCloud>[] {
    const t = this.desired.target;
    return 'loadBalancer' in t ? [t.loadBalancer] : [];
  }

  renderTerraform(t: TerraformTarget): void {
    const d = this.desired;
    // A hosted zone id is written as is; a zone name is looked up by Terraform (a data source), so that
    // rendering needs no AWS call.
    const zoneId =
      literalHostedZoneId(d.dnsZone) ??
      t.addDataSource('aws_route53_zone', `${d.dnsZone}${d.privateZone ? '-private' : ''}`, { name: d.dnsZone, private_zone: d.privateZone });
    const target = d.target;
    const value =
      'placeholder' in target
        ? // dns-controller owns the address once it runs, as with the direct target's create-only placeholder.
          { lifecycle: new HclBlock({ ignore_changes: [new HclExpression('records')] }), records: [PLACEHOLDER_ADDRESS], ttl: 60 }
        : { alias: new HclBlock({ evaluate_target_health: false, name: t.reference(target.loadBalancer, 'dns_name'), zone_id: t.reference(target.loadBalancer, 'zone_id') }) };
    t.addResource(this, 'aws_route53_record', { ...value, name: this.name, type: 'A', zone_id: zoneId });
  }

  async find(cloud: AwsCloud): Promise<DnsRecordActual | undefined> {
    const zoneId = await this.zoneId(cloud);
    const fqdn = `${this.name.toLowerCase()}.`;
    const r = (await cloud.inventory.endpoint.resourceRecordSets(zoneId, this.desired.subtree)).find((x) => x.Type === 'A' && unescapeName(x.Name) === fqdn && !x.SetIdentifier);
    if (!r) {
      // The executor re-diffs before applying: remember the zone so apply need not look it up again.
      this.zone = zoneId;
      return undefined;
    }
    return { zoneId, ...recordValue(r) };
  }

  diff(actual: DnsRecordActual | undefined): Change[] {
    const t = this.desired.target;
    if ('placeholder' in t) return actual ? [] : [{ field: 'values', from: undefined, to: [PLACEHOLDER_ADDRESS] }];
    const want = { aliasDnsName: normalize(t.loadBalancer.dnsName.peek() ?? `<${t.loadBalancer.name}>`), aliasHostedZoneId: t.loadBalancer.canonicalHostedZoneId.peek() };
    const changes: Change[] = [];
    if (actual?.aliasDnsName !== want.aliasDnsName) changes.push({ field: 'aliasDnsName', from: actual?.aliasDnsName ?? actual?.values, to: want.aliasDnsName });
    if (want.aliasHostedZoneId !== undefined && actual?.aliasHostedZoneId !== want.aliasHostedZoneId) {
      changes.push({ field: 'aliasHostedZoneId', from: actual?.aliasHostedZoneId, to: want.aliasHostedZoneId });
    }
    return changes;
  }

  async apply(cloud: AwsCloud, actual: DnsRecordActual | undefined): Promise<void> {
    const { sdk, client } = await cloud.route53();
    const t = this.desired.target;
    const HostedZoneId = actual?.zoneId ?? this.zone ?? (await this.zoneId(cloud));
    const record: ResourceRecordSet =
      'placeholder' in t
        ? { Name: this.name, Type: 'A', TTL: 60, ResourceRecords: [{ Value: PLACEHOLDER_ADDRESS }] }
        : {
            Name: this.name,
            Type: 'A',
            AliasTarget: { DNSName: t.loadBalancer.dnsName.get(), HostedZoneId: t.loadBalancer.canonicalHostedZoneId.get(), EvaluateTargetHealth: false },
          };
    // CREATE for a placeholder: it must never overwrite what dns-controller wrote since the find.
    const Action = 'placeholder' in t ? 'CREATE' : 'UPSERT';
    try {
      await client.send(
        new sdk.ChangeResourceRecordSetsCommand({ HostedZoneId, ChangeBatch: { Comment: 'kforge: Kubernetes API', Changes: [{ Action, ResourceRecordSet: record }] } }),
      );
    } catch (e) {
      // The SDK resends this call after a lost answer (it is not a Create* the guard stops), and a resent
      // CREATE fails because the first one worked; dns-controller may also have written the record since the
      // find. Either way a record that is there now is the state we want, so look again before failing.
      if (Action !== 'CREATE') throw e;
      cloud.inventory.invalidate();
      if ((await this.find(cloud)) === undefined) throw e;
    }
  }

  /** The id of the one hosted zone `spec.dnsZone` names, or a DnsZoneNotFoundError (while planning, so nothing has changed yet). */
  private zoneId(cloud: AwsCloud): Promise<string> {
    return findHostedZoneId(cloud, this.desired.dnsZone, this.desired.privateZone);
  }
}

/** A record's addresses or alias target, normalized for comparison. */
function recordValue(r: ResourceRecordSet): Omit<DnsRecordActual, 'zoneId'> {
  if (r.AliasTarget) return { aliasDnsName: normalize(r.AliasTarget.DNSName ?? ''), aliasHostedZoneId: r.AliasTarget.HostedZoneId };
  return { values: (r.ResourceRecords ?? []).map((v) => v.Value ?? '') };
}

/** An ELB DNS name as Route 53 and ELBv2 may spell it: lowercase, no `dualstack.` prefix, no final dot. */
function normalize(name: string): string {
  return name.toLowerCase().replace(/^dualstack\./, '').replace(/\.$/, '');
}

/** Route 53 escapes some characters in names as `\NNN` (octal); the model's names use none but `*`. */
function unescapeName(name: string | undefined): string {
  return (name ?? '').toLowerCase().replace(/\\(\d{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
}
