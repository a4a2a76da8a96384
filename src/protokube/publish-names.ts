import type { AwsCloud } from '../cloud/aws/aws-cloud';
import { awsErrorMessage } from '../cloud/aws/aws-errors';
import { withAwsRetries } from '../cloud/aws/with-aws-retries';
import { hostsLine } from '../nodeup/hosts-line';
import { RootWriter } from '../nodeup/root-writer';
import { withMarkedBlock } from '../util/with-marked-block';
import { ProtokubeError } from './protokube-error';

/** A name and the addresses it should resolve to. */
export interface NameRecord {
  name: string;
  addresses: string[];
}

const BEGIN = '# Begin host entries managed by kforge protokube';
const END = '# End host entries managed by kforge protokube';

/**
 * `hosts` with protokube's block (between its markers) set to `records`, one line per address and name,
 * sorted; every byte outside the block is kept (withMarkedBlock). A name with several addresses gets several lines.
 */
export function withHostsBlock(hosts: string, records: readonly NameRecord[]): string {
  // Names come from volume tags and the cluster's name: checked, so a tag cannot add an entry or break the block.
  const entries = records.flatMap((r) => r.addresses.map((a) => hostsLine(a, r.name, { address: `the address of ${r.name}`, name: 'protokube host name' }))).sort();
  return withMarkedBlock(hosts, BEGIN, END, entries) ?? hosts;
}

/**
 * Writes the block into `<root>/etc/hosts` (created if missing) through the RootWriter: atomically, never
 * through a symlink out of the root; true when it changed. A container's /etc/hosts is a bind mount, which
 * cannot be renamed over: it is written in place.
 */
export function writeHostsFile(root: string, records: readonly NameRecord[]): boolean {
  const writer = new RootWriter(root);
  const old = writer.readFile('/etc/hosts');
  const text = old?.data.toString('utf8') ?? '';
  const next = withHostsBlock(text, records);
  if (next === text) return false;
  writer.writeFile('/etc/hosts', next, old?.mode ?? 0o644, { inPlaceWhenBusy: true });
  return true;
}

/**
 * UPSERTs an A record (TTL 60) per name in the cluster's hosted zone, in one change batch, skipping the
 * call when every record already has these addresses. `zone` is `spec.dnsZone`: a zone id, or a name
 * looked up with the DNS type's privacy. Returns the names it changed.
 */
export async function publishRoute53(cloud: AwsCloud, zone: string, isPrivate: boolean, records: readonly NameRecord[]): Promise<string[]> {
  const { sdk, client } = await cloud.route53();
  const zoneId = await findZoneId(cloud, zone, isPrivate);
  const existing = new Map<string, string>();
  let start: { name?: string; type?: string } = {};
  for (;;) {
    const page = await withAwsRetries(() =>
      client.send(new sdk.ListResourceRecordSetsCommand({ HostedZoneId: zoneId, StartRecordName: start.name, StartRecordType: start.type as never })),
    );
    for (const r of page.ResourceRecordSets ?? []) {
      if (r.Type === 'A' && r.Name) existing.set(r.Name.replace(/\.$/, ''), (r.ResourceRecords ?? []).map((x) => x.Value ?? '').sort().join(','));
    }
    if (!page.IsTruncated) break;
    start = { name: page.NextRecordName, type: page.NextRecordType };
  }
  const changed = records.filter((r) => r.addresses.length > 0 && existing.get(r.name) !== [...r.addresses].sort().join(','));
  if (changed.length === 0) return [];
  try {
    await withAwsRetries(() =>
      client.send(
        new sdk.ChangeResourceRecordSetsCommand({
          HostedZoneId: zoneId,
          ChangeBatch: {
            Comment: 'kforge protokube',
            Changes: changed.map((r) => ({
              Action: 'UPSERT',
              ResourceRecordSet: { Name: r.name, Type: 'A', TTL: 60, ResourceRecords: [...r.addresses].sort().map((Value) => ({ Value })) },
            })),
          },
        }),
      ),
    );
  } catch (e) {
    throw new ProtokubeError(`publishing ${changed.map((r) => r.name).join(', ')} in hosted zone ${zone}: ${awsErrorMessage(e)}`);
  }
  return changed.map((r) => r.name);
}

async function findZoneId(cloud: AwsCloud, zone: string, isPrivate: boolean): Promise<string> {
  if (/^(\/hostedzone\/)?Z[A-Z0-9]+$/.test(zone)) return zone.replace(/^\/hostedzone\//, '');
  const { sdk, client } = await cloud.route53();
  const name = `${zone.replace(/\.$/, '')}.`;
  const r = await withAwsRetries(() => client.send(new sdk.ListHostedZonesByNameCommand({ DNSName: name })));
  const matches = (r.HostedZones ?? []).filter((z) => z.Name === name && (z.Config?.PrivateZone ?? false) === isPrivate);
  if (matches.length !== 1 || !matches[0].Id) {
    throw new ProtokubeError(`spec.dnsZone ${zone}: ${matches.length === 0 ? 'no' : `${matches.length}`} ${isPrivate ? 'private' : 'public'} Route 53 hosted zone(s) of that name; cannot publish the etcd and api.internal names`);
  }
  return matches[0].Id.replace(/^\/hostedzone\//, '');
}
