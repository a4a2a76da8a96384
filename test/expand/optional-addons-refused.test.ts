import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadManifests } from '../../src/api/load-manifests';
import type { Cluster } from '../../src/api/types';
import { ValidationError } from '../../src/errors/validation-error';
import { completeCluster } from '../../src/ops/expand-cluster';

/**
 * Issue 18: an optional addon the spec turns on is rendered or refused, never accepted and ignored. kforge renders
 * only node-problem-detector and (insecure) metrics-server of them yet (docs/addons.md, "Optional addons"), so the rest of kops's many-addons
 * inputs must be refused with each field's path and "not supported yet", and the same input without them must complete.
 */
const FIXTURES = path.join(__dirname, '..', 'fixtures', 'kops-addons');
const OPTIONAL = ['awsLoadBalancerController', 'certManager', 'clusterAutoscaler', 'snapshotController'];

function load(name: string): ReturnType<typeof loadManifests> {
  const set = loadManifests(fs.readFileSync(path.join(FIXTURES, name, 'in-v1alpha2.yaml'), 'utf8'), `${name}/in-v1alpha2.yaml`);
  set.clusters[0].spec.kubernetesVersion = '1.34.10';
  return set;
}

function refusals(cluster: Cluster, igs: ReturnType<typeof loadManifests>['instanceGroups']): string[] {
  try {
    completeCluster(cluster, igs, 'memfs://clusters.example.com');
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    return e.errors.filter((f) => f.message.includes('is not supported yet')).map((f) => `${f.object} ${f.path}`).sort();
  }
  return [];
}

describe.each(['many-addons', 'many-addons-ccm'])('optional addons of kops case %s', (name) => {
  it('refuses every optional addon the input turns on, by path', () => {
    const set = load(name);
    const on = OPTIONAL.filter((f) => (set.clusters[0].spec as Record<string, unknown>)[f] !== undefined);
    expect(on.length).toBe(4);
    expect(refusals(set.clusters[0], set.instanceGroups)).toEqual(on.map((f) => `Cluster/${set.clusters[0].metadata.name} spec.${f}`).sort());
  });

  it('completes the same input once the optional addons are dropped', () => {
    const set = load(name);
    for (const f of OPTIONAL) delete (set.clusters[0].spec as Record<string, unknown>)[f];
    expect(() => completeCluster(set.clusters[0], set.instanceGroups, 'memfs://clusters.example.com')).not.toThrow();
  });
});

describe('other optional addon fields', () => {
  const base = (): ReturnType<typeof loadManifests> => {
    const set = load('many-addons');
    for (const f of OPTIONAL) delete (set.clusters[0].spec as Record<string, unknown>)[f];
    return set;
  };
  const refused: Array<[string, Record<string, unknown>, string]> = [
    ['podIdentityWebhook', { podIdentityWebhook: { enabled: true } }, 'spec.podIdentityWebhook'],
    ['karpenter', { karpenter: { enabled: true } }, 'spec.karpenter'],
    ['the secure metrics-server (it needs cert-manager)', { metricsServer: { enabled: true, insecure: false } }, 'spec.metricsServer.insecure'],
    ['authentication.aws', { authentication: { aws: {} } }, 'spec.authentication'],
    ['custom addon channels', { addons: [{ manifest: 's3://bucket/addon.yaml' }] }, 'spec.addons'],
    ['externalDns.provider external-dns', { externalDns: { provider: 'external-dns' } }, 'spec.externalDns.provider'],
    ['externalDns.watchIngress', { externalDns: { watchIngress: true } }, 'spec.externalDns.watchIngress'],
  ];
  it.each(refused)('refuses %s', (_what, fields, at) => {
    const set = base();
    Object.assign(set.clusters[0].spec, fields);
    expect(refusals(set.clusters[0], set.instanceGroups)).toEqual([`Cluster/${set.clusters[0].metadata.name} ${at}`]);
  });

  it("accepts externalDns with kops's default provider (protokube keeps the records)", () => {
    const set = base();
    Object.assign(set.clusters[0].spec, { externalDns: { provider: 'dns-controller' } });
    expect(refusals(set.clusters[0], set.instanceGroups)).toEqual([]);
  });

  it.each(['autoscale', 'autoscalePriority'])('refuses the instance group field %s (read only by the cluster autoscaler)', (field) => {
    const set = base();
    (set.instanceGroups[0].spec as unknown as Record<string, unknown>)[field] = field === 'autoscale' ? true : 10;
    expect(refusals(set.clusters[0], set.instanceGroups)).toEqual([`InstanceGroup/${set.instanceGroups[0].metadata.name} spec.${field}`]);
  });
});
