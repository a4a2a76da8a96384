import type { HostedZone } from '@aws-sdk/client-route-53';
import { ValidationError } from '../../errors/validation-error';
import type { AwsCloud } from './aws-cloud';
import { withAwsRetries } from './with-aws-retries';

/**
 * kops's FindDNSHostedZone: the Route 53 zone a cluster's records go in when no `--dns-zone` was given.
 * Walks up the cluster name: of the zones whose name is a suffix of it (and of the wanted kind, public or
 * private), the longest wins, and its id is returned. None, or several of that length, is a ValidationError
 * on `--dns-zone` saying what to do. Lists every hosted zone, page by page (100 a page).
 */
export async function findDnsHostedZone(cloud: AwsCloud, clusterName: string, privateZone: boolean): Promise<string> {
  const { sdk, client } = await cloud.route53();
  const zones: HostedZone[] = [];
  let marker: string | undefined;
  do {
    const page = await withAwsRetries(() => client.send(new sdk.ListHostedZonesCommand({ Marker: marker, MaxItems: 100 })));
    zones.push(...(page.HostedZones ?? []));
    marker = page.IsTruncated ? page.NextMarker : undefined;
  } while (marker);
  const name = `.${clusterName.replace(/\.$/, '')}`;
  const kind = privateZone ? 'private' : 'public';
  const matching = zones
    .filter((z) => name.endsWith(`.${(z.Name ?? '').replace(/\.$/, '')}`))
    .filter((z) => (z.Config?.PrivateZone === true) === privateZone);
  const longest = Math.max(-1, ...matching.map((z) => (z.Name ?? '').replace(/\.$/, '').length));
  const best = matching.filter((z) => (z.Name ?? '').replace(/\.$/, '').length === longest);
  const fail = (message: string) => new ValidationError([{ path: '--dns-zone', message }], 'create cluster flags');
  if (best.length === 0) {
    const suffix = clusterName.split('.').slice(-2).join('.');
    throw fail(`no ${kind} Route 53 hosted zone is a suffix of "${clusterName}": create one (e.g. "${suffix}") first, give its name or id with --dns-zone, or use --dns none`);
  }
  if (best.length > 1) {
    const ids = best.map((z) => (z.Id ?? '').replace(/^\/hostedzone\//, '')).sort();
    throw fail(`${best.length} ${kind} Route 53 hosted zones named "${(best[0].Name ?? '').replace(/\.$/, '')}" match "${clusterName}" (${ids.join(', ')}): give the id of the one to use with --dns-zone`);
  }
  return (best[0].Id ?? '').replace(/^\/hostedzone\//, '');
}
