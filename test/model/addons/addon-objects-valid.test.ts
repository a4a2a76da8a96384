import * as fs from 'node:fs';
import * as path from 'node:path';
import * as models from 'kubernetes-models';
import { loadManifests } from '../../../src/api/load-manifests';
import { knownKubernetesVersions } from '../../../src/expand/assets/asset-catalog';
import type { KubeObject } from '../../../src/model/addons/addon';
import { renderAddons } from '../../../src/model/addons/addon-channel';
import { completeCluster } from '../../../src/ops/expand-cluster';
import { dropRefusedAddonFields } from '../../helpers/kops-addon-case';

/**
 * Every object every addon renders, for every case of test/fixtures/kops-addons at every Kubernetes version kforge
 * supports, validates as its kind against the Kubernetes OpenAPI schema (kubernetes-models).
 */
const ROOT = path.join(__dirname, '..', '..', 'fixtures', 'kops-addons');
const CASES = fs
  .readdirSync(ROOT)
  .filter((d) => fs.statSync(path.join(ROOT, d)).isDirectory())
  .sort();

type Model = new (o: unknown) => { validate(): void };

/** kubernetes-models' class for an object's apiVersion and kind, undefined for kinds it does not know (CRDs' instances). */
function modelOf(o: KubeObject): Model | undefined {
  const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : ['', o.apiVersion];
  // kubernetes-models names a group's module in camel case: rbac.authorization.k8s.io → rbacAuthorizationK8sIo; the core group is `v1`.
  const all = models as unknown as Record<string, Record<string, unknown>>;
  const versions = group === '' ? { [version]: all[version] } : all[group.split('.').map((p, i) => (i === 0 ? p : p[0].toUpperCase() + p.slice(1))).join('')];
  return (versions?.[version] as Record<string, Model> | undefined)?.[o.kind];
}

/** Each case at each version, and minimal-1.33 with NodeLocal DNSCache turned on (no kops case has it). */
const combos = [...CASES.map((c) => [c, false] as const), ['minimal-1.33', true] as const].flatMap(([c, local]) => knownKubernetesVersions().map((v) => [c, v, local] as const));

describe('addon objects validate as their kind', () => {
  it.each(combos)('%s at Kubernetes %s (nodeLocalDNS: %s)', (name, version, nodeLocalDNS) => {
    const dir = path.join(ROOT, name);
    const set = loadManifests(fs.readFileSync(path.join(dir, 'in-v1alpha2.yaml'), 'utf8'), `${name}/in-v1alpha2.yaml`);
    const cluster = set.clusters[0];
    dropRefusedAddonFields(cluster);
    cluster.spec.kubernetesVersion = version;
    if (nodeLocalDNS) cluster.spec.kubeDNS = { ...cluster.spec.kubeDNS, nodeLocalDNS: { enabled: true } };
    const completed = completeCluster(cluster, set.instanceGroups, 's3://clusters.example.com');
    const problems: string[] = [];
    let checked = 0;
    for (const addon of renderAddons({ cluster: completed, instanceGroups: set.instanceGroups })) {
      for (const o of addon.objects) {
        const Model = modelOf(o);
        if (!Model) {
          problems.push(`${addon.name}: ${o.apiVersion} ${o.kind} is not a Kubernetes kind`);
          continue;
        }
        try {
          new Model(JSON.parse(JSON.stringify(o))).validate();
          checked++;
        } catch (e) {
          problems.push(`${addon.name}: ${o.kind}/${o.metadata.name}: ${(e as Error).message}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(0);
  });
});
