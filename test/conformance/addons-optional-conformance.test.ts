import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { APIService } from 'kubernetes-models/apiregistration.k8s.io/v1/APIService';
import { DaemonSet } from 'kubernetes-models/apps/v1/DaemonSet';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ClusterRole } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRole';
import { ClusterRoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRoleBinding';
import { RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { loadManifests } from '../../src/api/load-manifests';
import { knownKubernetesVersions } from '../../src/expand/assets/asset-catalog';
import type { KubeObject } from '../../src/model/addons/addon';
import { ADDON_BUILDERS } from '../../src/model/addons/addon-builders';
import { metricsServerAddon } from '../../src/model/addons/metrics-server-addon';
import { nodeProblemDetectorAddon } from '../../src/model/addons/node-problem-detector-addon';
import { completeCluster } from '../../src/ops/expand-cluster';

/**
 * The optional addons kforge renders, against kops's own output for the same input (test/fixtures/kops-addons,
 * kops 268927e): the objects (kind, namespace, name), each container's image, command and args, and the channel
 * entry. The optional addons kforge refuses (test/expand/optional-addons-refused.test.ts) are dropped from the
 * input first; they change nothing in the addons compared here.
 */
const FIXTURES = path.join(__dirname, '..', 'fixtures', 'kops-addons');
const REFUSED = ['awsLoadBalancerController', 'certManager', 'clusterAutoscaler', 'snapshotController'];

function complete(name: string, kubernetesVersion = '1.34.10'): ReturnType<typeof completeCluster> {
  const set = loadManifests(fs.readFileSync(path.join(FIXTURES, name, 'in-v1alpha2.yaml'), 'utf8'), `${name}/in-v1alpha2.yaml`);
  const cluster = set.clusters[0];
  cluster.spec.kubernetesVersion = kubernetesVersion;
  for (const f of REFUSED) delete (cluster.spec as Record<string, unknown>)[f];
  return completeCluster(cluster, set.instanceGroups, 'memfs://clusters.example.com');
}

function kopsObjects(name: string, file: string): KubeObject[] {
  return yaml.loadAll(fs.readFileSync(path.join(FIXTURES, name, file), 'utf8')).filter((o) => o) as KubeObject[];
}

const identity = (o: KubeObject): string => `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** Each container's (and init container's) name, image, command and args, in order. */
function containers(objects: KubeObject[]): unknown[] {
  return objects.flatMap((o) => {
    const pod = ((o.spec as { template?: { spec?: Record<string, unknown> } } | undefined)?.template?.spec ?? {}) as Record<string, Array<Record<string, unknown>> | undefined>;
    return [...(pod.initContainers ?? []), ...(pod.containers ?? [])].map((c) => ({ owner: identity(o), name: c.name, image: c.image, command: c.command ?? null, args: c.args ?? null }));
  });
}

interface ChannelEntry { name: string; id?: string; manifest: string; needsPKI?: boolean; needsRollingUpdate?: string; prune?: unknown; selector: Record<string, string> }

function kopsChannelEntry(name: string, addon: string): ChannelEntry | undefined {
  const channel = yaml.load(fs.readFileSync(path.join(FIXTURES, name, 'bootstrap_content'), 'utf8')) as { spec: { addons: ChannelEntry[] } };
  return channel.spec.addons.find((a) => a.name === addon);
}

describe('node-problem-detector against kops (many-addons)', () => {
  const [addon] = nodeProblemDetectorAddon({ cluster: complete('many-addons'), instanceGroups: [] });
  const kops = kopsObjects('many-addons', 'node-problem-detector.addons.k8s.io-k8s-1.17_content');

  it('renders the objects kops renders', () => {
    expect(addon.objects.map(identity).sort()).toEqual(kops.map(identity).sort());
  });

  it("gives each container kops's image, command and args", () => {
    expect(containers(addon.objects)).toEqual(containers(kops));
  });

  it("has kops's channel entry: name, id, manifest path, prune list, no PKI, no rolling update", () => {
    const entry = kopsChannelEntry('many-addons', addon.name);
    expect(entry).toBeDefined();
    expect({ name: addon.name, id: addon.id, manifest: `${addon.name}/${addon.manifestFile ?? `${addon.id}.yaml`}` }).toEqual({ name: entry!.name, id: entry!.id, manifest: entry!.manifest });
    expect(addon.prune === true).toBe(entry!.prune !== undefined);
    expect(addon.needsPKI === true).toBe(entry!.needsPKI === true);
    expect(addon.needsRollingUpdate).toBe(entry!.needsRollingUpdate);
    expect(entry!.selector).toEqual({ 'k8s-addon': addon.name });
  });

  it("matches kops's DaemonSet pod spec apart from the labels the channel assembly adds", () => {
    const strip = (o: KubeObject): unknown => {
      const copy = structuredClone(o) as KubeObject & { spec: { template: { metadata: Record<string, unknown> } } };
      delete copy.metadata.labels;
      delete copy.spec.template.metadata.labels;
      return copy;
    };
    const ours = addon.objects.find((o) => o.kind === 'DaemonSet')!;
    const theirs = kops.find((o) => o.kind === 'DaemonSet')!;
    expect(strip(ours)).toEqual(strip(theirs));
  });

  it('is registered in ADDON_BUILDERS', () => {
    expect(ADDON_BUILDERS).toContain(nodeProblemDetectorAddon);
  });
});

describe('node-problem-detector off', () => {
  it('renders nothing for many-addons-ccm, where kops renders nothing either', () => {
    expect(fs.readdirSync(path.join(FIXTURES, 'many-addons-ccm')).some((f) => f.startsWith('node-problem-detector'))).toBe(false);
    expect(nodeProblemDetectorAddon({ cluster: complete('many-addons-ccm'), instanceGroups: [] })).toEqual([]);
  });

  it('renders nothing when the block is present but not enabled, and kops defaults it to false', () => {
    const cluster = complete('many-addons');
    cluster.spec.nodeProblemDetector = { enabled: false };
    expect(nodeProblemDetectorAddon({ cluster, instanceGroups: [] })).toEqual([]);
  });
});

const MODELS: Record<string, new (o: never) => { validate(): void }> = { APIService, ClusterRole, ClusterRoleBinding, DaemonSet, Deployment, PodDisruptionBudget, RoleBinding, Service, ServiceAccount };

describe.each(knownKubernetesVersions())('optional addon objects validate as their kinds (Kubernetes %s)', (version) => {
  it.each([['node-problem-detector', nodeProblemDetectorAddon], ['metrics-server', metricsServerAddon]] as const)('%s: every object is valid', (_name, builder) => {
    const [addon] = builder({ cluster: complete('many-addons', version), instanceGroups: [] });
    for (const o of addon.objects) {
      const Model = MODELS[o.kind];
      expect(Model).toBeDefined();
      expect(() => new Model(o as never).validate()).not.toThrow();
    }
  });
});

describe('expansion defaults (kops pkg/model/components/nodeproblemdetector.go)', () => {
  it("fills kops's defaults and leaves a user value alone", () => {
    expect(complete('many-addons').spec.nodeProblemDetector).toEqual({
      enabled: true, cpuRequest: '20m', memoryRequest: '100Mi', memoryLimit: '100Mi', image: 'registry.k8s.io/node-problem-detector/node-problem-detector:v0.8.18',
    });
  });
});

/** Each ClusterRole's rules by name. */
function clusterRoleRules(objects: KubeObject[]): Record<string, unknown> {
  return Object.fromEntries(objects.filter((o) => o.kind === 'ClusterRole').map((o) => [o.metadata.name, o.rules]));
}

/** The object without the labels the channel assembly adds (kops's addon labels), for a whole-object comparison. */
function withoutAddonLabels(o: KubeObject): KubeObject {
  const copy = structuredClone(o);
  for (const l of ['addon.kops.k8s.io/name', 'app.kubernetes.io/managed-by', 'k8s-addon']) delete copy.metadata.labels?.[l];
  const template = (copy.spec as { template?: { metadata?: { labels?: Record<string, string> } } } | undefined)?.template;
  delete template?.metadata?.labels?.['kops.k8s.io/managed-by'];
  return copy;
}

describe.each(['many-addons', 'many-addons-ccm'])('metrics-server against kops (%s)', (name) => {
  const cluster = complete(name);
  const [addon] = metricsServerAddon({ cluster, instanceGroups: [] });
  const kops = kopsObjects(name, 'metrics-server.addons.k8s.io-k8s-1.11_content');

  it('renders the objects kops renders', () => {
    expect(addon.objects.map(identity).sort()).toEqual(kops.map(identity).sort());
  });

  it("gives each container kops's image, command and args", () => {
    expect(containers(addon.objects)).toEqual(containers(kops));
  });

  it("has kops's ClusterRole rules", () => {
    expect(clusterRoleRules(addon.objects)).toEqual(clusterRoleRules(kops));
  });

  it('renders every object as kops does, apart from the addon labels', () => {
    const byId = new Map(kops.map((o) => [identity(o), withoutAddonLabels(o)]));
    for (const o of addon.objects) expect(withoutAddonLabels(o)).toEqual(byId.get(identity(o)));
  });

  it("has kops's channel entry (name, id, manifest path, needsPKI, no prune list)", () => {
    const entry = kopsChannelEntry(name, addon.name)!;
    expect({ name: addon.name, id: addon.id, manifest: `${addon.name}/${addon.id}.yaml`, needsPKI: addon.needsPKI === true, prune: addon.prune === true })
      .toEqual({ name: entry.name, id: entry.id, manifest: entry.manifest, needsPKI: entry.needsPKI === true, prune: entry.prune !== undefined });
  });

  it('turns on aggregator routing in kube-apiserver, as kops does', () => {
    expect(cluster.spec.kubeAPIServer?.enableAggregatorRouting).toBe(true);
  });
});

describe('metrics-server off or secure', () => {
  it('renders nothing and leaves aggregator routing unset when not enabled', () => {
    const cluster = complete('many-addons');
    cluster.spec.metricsServer = { enabled: false };
    expect(metricsServerAddon({ cluster, instanceGroups: [] })).toEqual([]);
  });

  it('asks for no CA keypair when insecure is written out, as kops', () => {
    const cluster = complete('many-addons');
    cluster.spec.metricsServer = { enabled: true, insecure: true };
    expect(metricsServerAddon({ cluster, instanceGroups: [] })[0].needsPKI).toBe(false);
  });
});
