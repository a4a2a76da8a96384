import type { Cluster } from '../../src/api/types';
import { ValidationError } from '../../src/errors/validation-error';
import { completeCluster } from '../../src/ops/expand-cluster';
import { loadFixtureCluster } from '../helpers/load-fixture-cluster';

/**
 * `spec.cloudConfig`: the EBS CSI driver's settings are completed as kops completes them and checked as kops
 * checks them; the cloud.config options kforge does not write are refused by path (the GCP PD CSI driver's block:
 * test/validate/gcp-pd-csi-driver-checks.test.ts).
 */

const load = loadFixtureCluster;

const aws = (edit: (c: Cluster) => void = () => undefined) => load('kops-addons/minimal-1.33/in-v1alpha2.yaml', edit);
const gce = (edit: (c: Cluster) => void = () => undefined) => load('kops-gce/minimal_gce/in-v1alpha2.yaml', edit);

/** The paths and messages of the validation errors completing the cluster raises (none: []). */
function errors({ cluster, igs }: ReturnType<typeof aws>): Array<{ path: string; message: string }> {
  try {
    completeCluster(cluster, igs, 'memfs://clusters.example.com');
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    return e.errors.map((f) => ({ path: f.path, message: f.message }));
  }
  return [];
}

describe('spec.cloudConfig.awsEBSCSIDriver', () => {
  it("is completed with kops's defaults on AWS: enabled, and the image table's version", () => {
    const { cluster, igs } = aws();
    expect(completeCluster(cluster, igs, 'memfs://clusters.example.com').spec.cloudConfig?.awsEBSCSIDriver).toEqual({ enabled: true, version: 'v1.58.0' });
  });

  it("keeps the user's settings, and (as kops) adds only the version", () => {
    const { cluster, igs } = aws((c) => {
      c.spec.cloudConfig = { awsEBSCSIDriver: { version: 'v1.50.0', hostNetwork: true, volumeAttachLimit: 20 } };
    });
    expect(completeCluster(cluster, igs, 'memfs://clusters.example.com').spec.cloudConfig?.awsEBSCSIDriver).toEqual({ version: 'v1.50.0', hostNetwork: true, volumeAttachLimit: 20 });
  });

  it('refuses enabled: false, as kops does', () => {
    expect(errors(aws((c) => { c.spec.cloudConfig = { awsEBSCSIDriver: { enabled: false } }; })).map((e) => e.path)).toEqual(['spec.cloudConfig.awsEBSCSIDriver.enabled']);
  });

  it('is refused off AWS, and not added by completion there', () => {
    expect(errors(gce((c) => { c.spec.cloudConfig = { ...c.spec.cloudConfig, awsEBSCSIDriver: { enabled: true } }; })).map((e) => e.path)).toEqual(['spec.cloudConfig.awsEBSCSIDriver']);
    const { cluster, igs } = gce();
    expect(completeCluster(cluster, igs, 'memfs://clusters.example.com').spec.cloudConfig?.awsEBSCSIDriver).toBeUndefined();
  });
});

// multizone, nodeTags and nodeInstancePrefix are used on GCE (nodeup's cloud.config): test/validate/gce-cloud-config-checks.test.ts.
describe('spec.cloudConfig fields kforge does not use', () => {
  const refused: Array<[string, Record<string, unknown>, () => ReturnType<typeof aws>]> = [
    ['disableSecurityGroupIngress', { disableSecurityGroupIngress: true }, aws],
    ['elbSecurityGroup', { elbSecurityGroup: 'sg-0123456789abcdef0' }, aws],
    ['nodeIPFamilies', { nodeIPFamilies: ['ipv4'] }, aws],
  ];
  it.each(refused)('refuses %s by path, "not supported yet"', (field, value, base) => {
    const input = base();
    input.cluster.spec.cloudConfig = { ...input.cluster.spec.cloudConfig, ...value };
    const found = errors(input).filter((e) => e.path === `spec.cloudConfig.${field}`);
    expect(found).toHaveLength(1);
    expect(found[0].message).toMatch(/^is not supported yet: /);
  });
});
