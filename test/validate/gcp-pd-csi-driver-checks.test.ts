import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import type { Cluster } from '../../src/api/types';
import { ValidationError } from '../../src/errors/validation-error';
import { completeCluster } from '../../src/ops/expand-cluster';
import { loadFixtureCluster } from '../helpers/load-fixture-cluster';

/**
 * `spec.cloudConfig.gcpPDCSIDriver`: completed on GCE as kops completes it (GCPPDCSIDriverOptionsBuilder), its
 * fields' shapes checked by the schema, and the block refused off GCE by path (kops's v1alpha2 conversion).
 */
const FIXTURES = path.join(__dirname, '..', 'fixtures');
const STORE = 'memfs://clusters.example.com';

const load = loadFixtureCluster;

const aws = (edit: (c: Cluster) => void = () => undefined) => load('kops-addons/minimal-1.33/in-v1alpha2.yaml', edit);
/** kops's minimal_gce without its `gcpPDCSIDriver: {enabled: false}`, then the edit. */
const gce = (edit: (c: Cluster) => void = () => undefined) =>
  load('kops-gce/minimal_gce/in-v1alpha2.yaml', (c) => {
    delete (c.spec.cloudConfig as Record<string, unknown>).gcpPDCSIDriver;
    edit(c);
  });

/** The paths of the validation errors completing the cluster raises (none: []). */
function errorPaths({ cluster, igs }: ReturnType<typeof aws>): string[] {
  try {
    completeCluster(cluster, igs, STORE);
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    return e.errors.map((f) => f.path);
  }
  return [];
}

const completed = ({ cluster, igs }: ReturnType<typeof aws>) => completeCluster(cluster, igs, STORE).spec.cloudConfig?.gcpPDCSIDriver;

describe('spec.cloudConfig.gcpPDCSIDriver', () => {
  it("is completed with kops's defaults on GCE: enabled, balanced-csi, the image table's version", () => {
    expect(completed(gce())).toEqual({ enabled: true, defaultStorageClassName: 'balanced-csi', version: 'v1.22.1' });
  });

  it("keeps enabled: false, and completes the rest as kops's minimal_gce completed spec has it", () => {
    const kops = yaml.load(fs.readFileSync(path.join(FIXTURES, 'kops-addons', 'minimal_gce', 'aws_s3_object_cluster-completed.spec_content'), 'utf8')) as Cluster;
    expect(completed(gce((c) => (c.spec.cloudConfig!.gcpPDCSIDriver = { enabled: false })))).toEqual(kops.spec.cloudConfig?.gcpPDCSIDriver);
    expect(kops.spec.cloudConfig?.gcpPDCSIDriver?.enabled).toBe(false);
  });

  it("keeps the user's version and default class", () => {
    expect(completed(gce((c) => (c.spec.cloudConfig!.gcpPDCSIDriver = { version: 'v1.20.0', defaultStorageClassName: 'balanced-storage' })))).toEqual({
      enabled: true,
      defaultStorageClassName: 'balanced-storage',
      version: 'v1.20.0',
    });
  });

  it.each([
    ['a version that is not a release tag', { version: 'latest' }, 'spec.cloudConfig.gcpPDCSIDriver.version'],
    ['a default class the driver does not render as default', { defaultStorageClassName: 'ssd-csi' }, 'spec.cloudConfig.gcpPDCSIDriver.defaultStorageClassName'],
  ])('refuses %s by path', (_what, value, at) => {
    expect(errorPaths(gce((c) => (c.spec.cloudConfig!.gcpPDCSIDriver = value as never)))).toEqual([at]);
  });

  it.each([{ enabled: true }, { enabled: false }])('is refused off GCE by path (%j), and not added by completion there', (value) => {
    expect(errorPaths(aws((c) => (c.spec.cloudConfig = { ...c.spec.cloudConfig, gcpPDCSIDriver: value })))).toEqual(['spec.cloudConfig.gcpPDCSIDriver']);
    expect(completed(aws())).toBeUndefined();
  });
});
