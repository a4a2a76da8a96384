import * as yaml from 'js-yaml';
import { buildNodeupConfig, type NodeupConfig } from '../../src/model/nodeup-config-builder';
import { GCE_CLOUD_CONFIG_PATH } from '../../src/model/gce/gce-cloud-config-path';
import { cloudConfigFiles } from '../../src/nodeup/cloud-config-file';
import { NodeupConfigError } from '../../src/nodeup/nodeup-config-error';
import { parseNodeupConfig } from '../../src/nodeup/parse-nodeup-config';
import { UnsafeNodeValueError } from '../../src/nodeup/unsafe-node-value-error';
import { completeKopsCase } from '../helpers/kops-addon-case';

// nodeup's /etc/kubernetes/cloud.config (kops's nodeup/pkg/model/cloudconfig.go), on nodeup configs kforge builds
// for kops's minimal_gce case and for an AWS case, each through YAML and the parser as a node reads it
// (test/nodeup/nodeup-gce.test.ts runs the whole nodeup on a GCE control-plane machine).

function configs(name: string): Record<string, NodeupConfig> {
  const { cluster, instanceGroups } = completeKopsCase(name);
  return Object.fromEntries(instanceGroups.map((ig) => [ig.metadata.name, parseNodeupConfig(yaml.dump(buildNodeupConfig(cluster, ig)), `${ig.metadata.name}.yaml`)]));
}

const cloudConfig = (config: NodeupConfig) => cloudConfigFiles(config).find((f) => f.path === GCE_CLOUD_CONFIG_PATH);

describe('the cloud config nodeup writes', () => {
  const gce = configs('minimal_gce');

  it("is kops's [global] section on a GCE control-plane node", () => {
    // kops writes node-tags, node-instance-prefix, multizone in this order, one `key = value` line each.
    expect(cloudConfig(gce['master-us-test1-a'])).toEqual({ path: '/etc/kubernetes/cloud.config', mode: 0o644, content: '[global]\nnode-tags = minimal-gce-example-com-k8s-io-role-node\nmultizone = true\n' });
  });

  it('names the file the cloud-controller-manager reads', () => {
    // The same constant is the CCM's --cloud-config and hostPath (test/model/addons/gcp-cloud-controller-addon.test.ts compares them with kops's).
    expect(GCE_CLOUD_CONFIG_PATH).toBe('/etc/kubernetes/cloud.config');
  });

  it('carries node-instance-prefix and multizone false when the spec sets them', () => {
    const { cluster, instanceGroups } = completeKopsCase('minimal_gce', (c) => (c.spec.cloudConfig = { ...c.spec.cloudConfig, multizone: false, nodeInstancePrefix: 'nodes-' }));
    const cp = buildNodeupConfig(cluster, instanceGroups.find((g) => g.metadata.name === 'master-us-test1-a')!);
    expect(cloudConfig(cp)?.content).toBe('[global]\nnode-tags = minimal-gce-example-com-k8s-io-role-node\nnode-instance-prefix = nodes-\nmultizone = false\n');
  });

  it('is not written on a worker (its kubelet runs with --cloud-provider=external and reads none), as kops', () => {
    expect(gce.nodes.nodeTags).toBe('minimal-gce-example-com-k8s-io-role-node');
    expect(cloudConfig(gce.nodes)).toBeUndefined();
  });

  it('is not written on AWS', () => {
    const aws = configs('minimal-1.33');
    for (const c of Object.values(aws)) {
      expect([c.multizone, c.nodeTags, c.nodeInstancePrefix]).toEqual([undefined, undefined, undefined]);
      expect(cloudConfig(c)).toBeUndefined();
    }
  });

  it('refuses a config whose options have the wrong type, naming each field', () => {
    const text = yaml.dump({ ...gce['master-us-test1-a'], multizone: 'yes', nodeTags: 7 });
    expect(() => parseNodeupConfig(text, 'cp.yaml')).toThrow(NodeupConfigError);
    expect(() => parseNodeupConfig(text, 'cp.yaml')).toThrow(/multizone: must be true or false[\s\S]*nodeTags: must be a non-empty string/);
  });

  it('refuses a value that would add a line to the file, and writes nothing', () => {
    const bad = { ...gce['master-us-test1-a'], nodeTags: 'tag\n[other]\nx = y' };
    expect(() => cloudConfigFiles(bad)).toThrow(UnsafeNodeValueError);
  });
});
