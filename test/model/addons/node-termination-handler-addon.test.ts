import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { loadManifests } from '../../../src/api/load-manifests';
import type { KubeObject } from '../../../src/model/addons/addon';
import { AWS_ACCOUNT_ID_TOKEN } from '../../../src/model/addons/addon';
import { ADDON_BUILDERS } from '../../../src/model/addons/addon-builders';
import { buildNodeTerminationHandlerAddon } from '../../../src/model/addons/node-termination-handler-addon';
import { completeCluster } from '../../../src/ops/expand-cluster';
import { validateSpec } from '../../../src/validate/validate-spec';
import { dropRefusedAddonFields } from '../../helpers/kops-addon-case';

// kops's own rendering of this addon for six integration cases (commit 268927e, test/fixtures/kops-addons/SOURCE.md).
const KOPS = path.join(__dirname, '..', '..', 'fixtures', 'kops-addons');
const CASES = ['minimal-1.33', 'privatecilium', 'privatecalico', 'privateflannel', 'many-addons', 'many-addons-ccm'];
const ACCOUNT = '123456789012'; // kops's integration tests' account

function load(dir: string) {
  // Four cases run Kubernetes 1.32, below kforge's supported range; NTH's manifest does not depend on it.
  const text = fs.readFileSync(path.join(KOPS, dir, 'in-v1alpha2.yaml'), 'utf8').replace(/kubernetesVersion: v?1\.32\.\d+/, 'kubernetesVersion: v1.33.0');
  const set = loadManifests(text, 'in-v1alpha2.yaml');
  dropRefusedAddonFields(set.clusters[0]);
  return { cluster: completeCluster(set.clusters[0], set.instanceGroups, 'memfs://tests'), instanceGroups: set.instanceGroups };
}

/** The labels kops's channel adds to every object of an addon (the assembly's job in kforge, not the builder's). */
function withKopsLabels(o: KubeObject, addon: string): KubeObject {
  const c = structuredClone(o);
  c.metadata.labels = { ...c.metadata.labels, 'addon.kops.k8s.io/name': addon, 'app.kubernetes.io/managed-by': 'kops', 'k8s-addon': addon };
  const template = (c.spec as { template?: { metadata?: { labels?: Record<string, string> } } } | undefined)?.template;
  if (template?.metadata) template.metadata.labels = { ...template.metadata.labels, 'kops.k8s.io/managed-by': 'kops' };
  return c;
}

describe('node-termination-handler addon (kops’s node-termination-handler.aws/k8s-1.11)', () => {
  it('is listed among the addon builders', () => {
    expect(ADDON_BUILDERS).toContain(buildNodeTerminationHandlerAddon);
  });

  it.each(CASES)('renders the objects kops renders for %s, field for field', (dir) => {
    const { cluster, instanceGroups } = load(dir);
    const [addon, ...more] = buildNodeTerminationHandlerAddon({ cluster, instanceGroups, awsAccountId: ACCOUNT });
    expect(more).toEqual([]);
    expect(addon).toMatchObject({ name: 'node-termination-handler.aws', id: 'k8s-1.11', prune: true });
    const kops = yaml.loadAll(fs.readFileSync(path.join(KOPS, dir, 'node-termination-handler.aws-k8s-1.11_content'), 'utf8')).filter(Boolean);
    // Through JSON: the same shapes as kops's YAML (no undefined fields).
    expect(JSON.parse(JSON.stringify(addon.objects.map((o) => withKopsLabels(o, addon.name))))).toEqual(kops);
  });

  it('runs two replicas with more than one control-plane group, as kops', () => {
    const { cluster, instanceGroups } = load('minimal-1.33');
    const cp = instanceGroups.find((ig) => ig.spec.role === 'Master' || ig.spec.role === 'ControlPlane');
    if (!cp) throw new Error('fixture has no control plane');
    const two = [...instanceGroups, { ...cp, metadata: { ...cp.metadata, name: 'master-b' } }];
    const deployment = buildNodeTerminationHandlerAddon({ cluster, instanceGroups: two, awsAccountId: ACCOUNT })[0].objects.find((o) => o.kind === 'Deployment');
    expect((deployment?.spec as { replicas: number }).replicas).toBe(2);
  });

  it('names the queue with a stand-in for the account when none is given, and the China domain there', () => {
    const { cluster, instanceGroups } = load('minimal-1.33');
    const url = (c = cluster, account?: string) =>
      JSON.stringify(buildNodeTerminationHandlerAddon({ cluster: c, instanceGroups, awsAccountId: account })[0].objects).match(/https:\/\/sqs[^"]+/)?.[0];
    expect(url()).toBe(`https://sqs.us-test-1.amazonaws.com/${AWS_ACCOUNT_ID_TOKEN}/minimal-example-com-nth`);
    const cn = structuredClone(cluster);
    cn.spec.subnets = cn.spec.subnets?.map((s) => ({ ...s, zone: 'cn-north-1a' }));
    expect(url(cn, ACCOUNT)).toBe(`https://sqs.cn-north-1.amazonaws.com.cn/${ACCOUNT}/minimal-example-com-nth`);
  });

  it('renders nothing when the handler is off, or on GCE', () => {
    const { cluster, instanceGroups } = load('minimal-1.33');
    const off = structuredClone(cluster);
    off.spec.nodeTerminationHandler = { ...off.spec.nodeTerminationHandler, enabled: false };
    expect(buildNodeTerminationHandlerAddon({ cluster: off, instanceGroups })).toEqual([]);
    const gce = structuredClone(cluster);
    gce.spec.cloudProvider = 'gce';
    expect(buildNodeTerminationHandlerAddon({ cluster: gce, instanceGroups })).toEqual([]);
  });

  it('validates every object as its kind (kubernetes-models)', async () => {
    const { cluster, instanceGroups } = load('minimal-1.33');
    const kinds: Record<string, string> = {
      ServiceAccount: 'kubernetes-models/v1/ServiceAccount',
      ClusterRole: 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRole',
      ClusterRoleBinding: 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRoleBinding',
      Deployment: 'kubernetes-models/apps/v1/Deployment',
      PodDisruptionBudget: 'kubernetes-models/policy/v1/PodDisruptionBudget',
    };
    for (const o of buildNodeTerminationHandlerAddon({ cluster, instanceGroups, awsAccountId: ACCOUNT })[0].objects) {
      const mod = (await import(kinds[o.kind])) as Record<string, new (x: unknown) => { validate(): void }>;
      // kops writes `nodeSelector: null`, which the schema's map type does not take; the API server ignores it.
      const json = JSON.parse(JSON.stringify(o, (k, v: unknown) => (k === 'nodeSelector' && v === null ? undefined : v)));
      expect(() => new mod[o.kind](json).validate()).not.toThrow();
    }
  });

  it('refuses kops’s IMDS mode and kops’s forbidden queue-mode combinations at validation, naming the field', () => {
    const { cluster, instanceGroups } = load('minimal-1.33');
    const errors = (nth: Record<string, boolean>) => {
      const c = structuredClone(cluster);
      c.spec.nodeTerminationHandler = { enabled: true, ...nth };
      return validateSpec(c, instanceGroups).map((e) => e.path).filter((p) => p.startsWith('spec.nodeTerminationHandler'));
    };
    expect(errors({ enableSQSTerminationDraining: false })).toEqual(['spec.nodeTerminationHandler.enableSQSTerminationDraining']);
    expect(errors({ enableSpotInterruptionDraining: false })).toEqual(['spec.nodeTerminationHandler.enableSpotInterruptionDraining']);
    expect(errors({ enableRebalanceMonitoring: true })).toEqual(['spec.nodeTerminationHandler.enableRebalanceMonitoring']);
    expect(errors({ enableRebalanceMonitoring: true, enableRebalanceDraining: true })).toEqual([]);
  });
});
