import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as yaml from 'js-yaml';
import { loadManifests } from '../../../src/api/load-manifests';
import type { Addon } from '../../../src/model/addons/addon';
import { assembleAddons, labelled, renderAddons } from '../../../src/model/addons/addon-channel';
import { completeCluster } from '../../../src/ops/expand-cluster';

const dns: Addon = {
  name: 'dns.example',
  id: 'k8s-1.12',
  prune: true,
  needsRollingUpdate: 'all',
  objects: [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa', namespace: 'kube-system' } },
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'dns' } },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', namespace: 'dns', labels: { app: 'd' } },
      spec: { selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'i:1' }] } } },
    },
    { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'e', namespace: 'kube-system' }, spec: { template: { metadata: {}, spec: {} } } },
  ],
};
const limits: Addon = { name: 'limit-range.addons.k8s.io', manifestFile: 'v1.5.0.yaml', objects: [{ apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'limits', namespace: 'default' } }] };

describe('assembleAddons', () => {
  const { channel, files } = assembleAddons([dns, limits]);

  it("writes kops's layout: the channel and one manifest per addon", () => {
    expect([...files.keys()]).toEqual(['dns.example/k8s-1.12.yaml', 'limit-range.addons.k8s.io/v1.5.0.yaml', 'bootstrap-channel.yaml']);
    expect(yaml.load(files.get('bootstrap-channel.yaml') as string)).toEqual(channel);
    expect(channel.kind).toBe('Addons');
    expect(channel.metadata).toEqual({ name: 'bootstrap' });
    expect(channel.spec.addons.map((e) => e.manifest)).toEqual(['dns.example/k8s-1.12.yaml', 'limit-range.addons.k8s.io/v1.5.0.yaml']);
    // An addon without id (limit-range) has none in its entry, as kops writes it.
    expect(channel.spec.addons[1]).not.toHaveProperty('id');
    expect(channel.spec.addons[0]).toMatchObject({ id: 'k8s-1.12', needsRollingUpdate: 'all', selector: { 'k8s-addon': 'dns.example' } });
  });

  it("hashes the manifest's bytes as stored: trimmed, documents joined by kops's separator", () => {
    for (const e of channel.spec.addons) {
      const content = files.get(e.manifest) as string;
      expect(content).toBe(content.trim());
      expect(e.manifestHash).toBe(createHash('sha256').update(content).digest('hex'));
    }
    expect((files.get('dns.example/k8s-1.12.yaml') as string).split('\n---\n\n')).toHaveLength(4);
    // Deterministic: the same addons give the same bytes; a changed object changes the hash.
    expect(assembleAddons([dns, limits]).files).toEqual(files);
    const changed = structuredClone(dns);
    (changed.objects[0].metadata as { name: string }).name = 'sa2';
    expect(assembleAddons([changed]).channel.spec.addons[0].manifestHash).not.toBe(channel.spec.addons[0].manifestHash);
  });

  it("labels every object as kops does, and the pod templates of apps/v1 workloads", () => {
    const objects = yaml.loadAll(files.get('dns.example/k8s-1.12.yaml') as string) as Array<{ metadata: { labels: Record<string, string> }; spec?: { template: { metadata: { labels: Record<string, string> } } } }>;
    for (const o of objects) {
      expect(o.metadata.labels).toMatchObject({ 'addon.kops.k8s.io/name': 'dns.example', 'app.kubernetes.io/managed-by': 'kops', 'k8s-addon': 'dns.example' });
    }
    expect(objects[2].metadata.labels.app).toBe('d');
    expect(objects[2].spec?.template.metadata.labels).toEqual({ app: 'd', 'kops.k8s.io/managed-by': 'kops' });
    expect(objects[3].spec?.template.metadata.labels).toEqual({ 'kops.k8s.io/managed-by': 'kops' });
    // The builder's object is not changed.
    expect(dns.objects[0].metadata.labels).toBeUndefined();
    expect(() => labelled({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: { 'k8s-addon': 'other' } } }, 'dns.example')).toThrow(/k8s-addon/);
  });

  it("lists kops's prune kinds for a prunable addon, with the namespaces its objects use, and none otherwise", () => {
    const prune = channel.spec.addons[0].prune!;
    expect(prune.kinds.map((k) => `${k.group ?? ''}/${k.kind}`)).toEqual([
      '/ConfigMap', '/Service', '/ServiceAccount',
      'admissionregistration.k8s.io/MutatingWebhookConfiguration', 'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
      'apps/DaemonSet', 'apps/Deployment', 'apps/StatefulSet', 'policy/PodDisruptionBudget',
      'rbac.authorization.k8s.io/ClusterRole', 'rbac.authorization.k8s.io/ClusterRoleBinding', 'rbac.authorization.k8s.io/Role', 'rbac.authorization.k8s.io/RoleBinding',
    ]);
    expect(prune.kinds.every((k) => k.labelSelector === 'addon.kops.k8s.io/name=dns.example,app.kubernetes.io/managed-by=kops')).toBe(true);
    expect(prune.kinds.find((k) => k.kind === 'Deployment')?.namespaces).toEqual(['dns', 'kube-system']);
    expect(prune.kinds.find((k) => k.kind === 'ServiceAccount')?.namespaces).toEqual(['kube-system']);
    expect(prune.kinds.find((k) => k.kind === 'ConfigMap')).not.toHaveProperty('namespaces');
    expect(channel.spec.addons[1]).not.toHaveProperty('prune');
  });

  it('refuses two addons that render the same manifest path', () => {
    expect(() => assembleAddons([limits, limits])).toThrow(/limit-range/);
  });
});

describe('renderAddons', () => {
  it("takes every container image from assets.containerRegistry, once (kops's RemapManifest)", () => {
    const set = loadManifests(fs.readFileSync(`${__dirname}/../../fixtures/kops-addons/minimal-1.33/in-v1alpha2.yaml`, 'utf8'), 'in.yaml');
    set.clusters[0].spec.kubernetesVersion = '1.33.13';
    set.clusters[0].spec.assets = { containerRegistry: 'mirror.example.com:5000/k8s' };
    const completed = completeCluster(set.clusters[0], set.instanceGroups, 's3://clusters.example.com');
    const images = JSON.stringify(renderAddons({ cluster: completed, instanceGroups: set.instanceGroups })).match(/"image":"[^"]+"/g) ?? [];
    expect(images).toEqual(expect.arrayContaining(['"image":"mirror.example.com:5000/k8s/coredns/coredns:v1.14.2"', '"image":"mirror.example.com:5000/k8s/cpa/cluster-proportional-autoscaler:v1.9.0"']));
    expect(images.every((i) => i.startsWith('"image":"mirror.example.com:5000/k8s/') && !i.includes('/k8s/k8s/'))).toBe(true);
  });
});
