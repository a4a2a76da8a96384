import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadManifests } from '../../../src/api/load-manifests';
import type { Cluster } from '../../../src/api/types';
import { nodeLocalDnsAddon } from '../../../src/model/addons/nodelocaldns-addon';
import { ValidationError } from '../../../src/errors/validation-error';
import { completeCluster } from '../../../src/ops/expand-cluster';

const IN = path.join(__dirname, '..', '..', 'fixtures', 'kops-addons', 'minimal-1.33', 'in-v1alpha2.yaml');

function complete(kubeDNS?: Cluster['spec']['kubeDNS'], kubeProxy?: Cluster['spec']['kubeProxy']): Cluster {
  const set = loadManifests(fs.readFileSync(IN, 'utf8'), 'in-v1alpha2.yaml');
  const cluster = set.clusters[0];
  cluster.spec.kubernetesVersion = '1.33.13';
  if (kubeDNS) cluster.spec.kubeDNS = kubeDNS;
  if (kubeProxy) cluster.spec.kubeProxy = kubeProxy;
  return completeCluster(cluster, set.instanceGroups, 's3://clusters.example.com');
}

describe('NodeLocal DNSCache', () => {
  it("is off by default; kops's request and image defaults are in the completed spec anyway", () => {
    const c = complete();
    expect(c.spec.kubeDNS?.nodeLocalDNS).toEqual({ enabled: false, cpuRequest: '25m', memoryRequest: '5Mi', image: 'registry.k8s.io/dns/k8s-dns-node-cache:1.26.0' });
    expect(c.spec.kubelet?.clusterDNS).toBe('100.64.0.10');
    expect(nodeLocalDnsAddon({ cluster: c, instanceGroups: [] })).toEqual([]);
  });

  it('enabled: the cache at 169.254.20.10, the kubelets resolve through it, and every machine is replaced when it changes', () => {
    const c = complete({ nodeLocalDNS: { enabled: true } });
    expect(c.spec.kubeDNS?.nodeLocalDNS).toMatchObject({ enabled: true, localIP: '169.254.20.10', forwardToKubeDNS: false });
    expect([c.spec.kubelet?.clusterDNS, c.spec.masterKubelet?.clusterDNS]).toEqual(['169.254.20.10', '169.254.20.10']);
    const [addon] = nodeLocalDnsAddon({ cluster: c, instanceGroups: [] });
    expect(addon).toMatchObject({ name: 'nodelocaldns.addons.k8s.io', id: 'k8s-1.12', needsRollingUpdate: 'all' });
    const ds = addon.objects.find((o) => o.kind === 'DaemonSet') as unknown as { spec: { template: { spec: { containers: Array<{ args: string[]; image: string }> } } } };
    expect(ds.spec.template.spec.containers[0].args).toEqual(['-localip=169.254.20.10', '-conf=/etc/Corefile', '-upstreamsvc=kube-dns-upstream', '-setupiptables=false']);
    const corefile = (addon.objects.find((o) => o.kind === 'ConfigMap') as unknown as { data: { Corefile: string } }).data.Corefile;
    expect(corefile).toMatch(/^cluster\.local:53 \{\n/);
    expect(corefile).toContain('    forward . __PILLAR__CLUSTER__DNS__ {\n      force_tcp\n    }\n');
    expect(corefile).toContain('    health 169.254.20.10:3989\n');
    expect(corefile).toContain('in-addr.arpa:53 {');
    expect(corefile).toContain('    forward . __PILLAR__UPSTREAM__SERVERS__\n');
  });

  it('with kube-proxy in ipvs mode it forwards to the DNS service IP; forwardToKubeDNS sends everything to CoreDNS', () => {
    const c = complete({ nodeLocalDNS: { enabled: true, forwardToKubeDNS: true, localIP: '169.254.0.53' } }, { proxyMode: 'ipvs' });
    const corefile = (nodeLocalDnsAddon({ cluster: c, instanceGroups: [] })[0].objects.find((o) => o.kind === 'ConfigMap') as unknown as { data: { Corefile: string } }).data.Corefile;
    expect(corefile).toContain('forward . 100.64.0.10 {');
    expect(corefile).not.toContain('__PILLAR__');
    expect(corefile).not.toContain('in-addr.arpa:53');
    expect(corefile).toContain('bind 169.254.0.53');
  });
});

describe('kubeDNS.provider', () => {
  it("KubeDNS (kops's legacy addon, not rendered) is refused with its path and \"not supported yet\"", () => {
    let error: unknown;
    try {
      complete({ provider: 'KubeDNS' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toEqual([expect.objectContaining({ path: 'spec.kubeDNS.provider', message: expect.stringMatching(/^is not supported yet/) })]);
  });
});
