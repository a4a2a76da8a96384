import type { Cluster } from '../../../src/api/types';
import type { KubeObject } from '../../../src/model/addons/addon';
import { awsEbsCsiDriverAddon } from '../../../src/model/addons/aws-ebs-csi-driver-addon';
import { completeKopsCase, kopsAddonObjects } from '../../helpers/kops-addon-case';

/**
 * The EBS CSI driver against kops's own rendered manifest (test/fixtures/kops-addons, kops commit
 * 268927e26409f861634e18f3632c9dd483c350cf), every object whole, for every case (each renders the driver: kops
 * does on AWS). The cases' `snapshotController`, which kforge refuses at validation, is put back on the
 * completed spec so the controller's csi-snapshotter sidecar is compared too.
 */
const FILE = 'aws-ebs-csi-driver.addons.k8s.io-k8s-1.17_content';
const CASES = ['many-addons', 'many-addons-ccm', 'minimal-1.33', 'privatecalico', 'privatecilium', 'privatecilium-eni', 'privateflannel'];
const SNAPSHOTS = new Set(['many-addons', 'many-addons-ccm']);

const key = (o: KubeObject): string => `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`;

function render(name: string, edit?: (c: Cluster) => void): KubeObject[] {
  const { cluster, instanceGroups } = completeKopsCase(name, edit);
  // Validation refuses the field (the snapshot controller is not rendered yet): set on the completed spec.
  if (SNAPSHOTS.has(name)) cluster.spec.snapshotController = { enabled: true };
  const addons = awsEbsCsiDriverAddon({ cluster, instanceGroups });
  expect(addons.map((a) => [a.name, a.id])).toEqual([['aws-ebs-csi-driver.addons.k8s.io', 'k8s-1.17']]);
  return addons[0].objects;
}

type Workload = { spec: { replicas?: number; template: { metadata: { annotations?: Record<string, string> }; spec: { hostNetwork: boolean; containers: Array<{ name: string; args: string[] }> } } } };
const workload = (objects: KubeObject[], kind: string): Workload => objects.find((o) => o.kind === kind) as unknown as Workload;
const args = (objects: KubeObject[], kind: string, name: string): string[] => workload(objects, kind).spec.template.spec.containers.find((c) => c.name === name)?.args ?? [];

describe.each(CASES)('aws-ebs-csi-driver addon: %s', (name) => {
  it('renders every object as kops does, in kops\'s order', () => {
    const mine = render(name);
    const kops = kopsAddonObjects(name, FILE);
    expect(mine.map(key)).toEqual(kops.map(key));
    for (const [i, o] of kops.entries()) expect({ [key(o)]: mine[i] }).toEqual({ [key(o)]: o });
  });
});

describe('aws-ebs-csi-driver addon settings', () => {
  it('takes the version, attach limit and pod annotations from spec.cloudConfig.awsEBSCSIDriver', () => {
    const objects = render('minimal-1.33', (c) => {
      c.spec.cloudConfig = { awsEBSCSIDriver: { version: 'v1.50.0', volumeAttachLimit: 25, podAnnotations: { 'z.example.com/b': '2', 'a.example.com/a': '1' } } };
    });
    const node = workload(objects, 'DaemonSet');
    expect(node.spec.template.spec.containers[0]).toMatchObject({ name: 'ebs-plugin', image: 'registry.k8s.io/provider-aws/aws-ebs-csi-driver:v1.50.0' });
    expect(args(objects, 'DaemonSet', 'ebs-plugin')).toEqual([
      'node',
      '--endpoint=$(CSI_ENDPOINT)',
      '--csi-mount-point-prefix=/var/lib/kubelet/plugins/kubernetes.io/csi/ebs.csi.aws.com/',
      '--volume-attach-limit=25',
      '--logging-format=text',
      '--v=5',
    ]);
    for (const kind of ['DaemonSet', 'Deployment']) {
      expect(Object.entries(workload(objects, kind).spec.template.metadata.annotations ?? {})).toEqual([['a.example.com/a', '1'], ['z.example.com/b', '2']]);
    }
    expect(objects.every((o) => o.metadata.labels?.['app.kubernetes.io/version'] === undefined || o.metadata.labels['app.kubernetes.io/version'] === 'v1.50.0')).toBe(true);
  });

  it('tags volumes with the cloud labels, sorted after KubernetesCluster as kops does', () => {
    const objects = render('minimal-1.33', (c) => {
      c.spec.cloudLabels = { Team: 'storage', Owner: 'ops' };
    });
    expect(args(objects, 'Deployment', 'ebs-plugin')).toContain('--extra-tags=KubernetesCluster=minimal.example.com,Owner=ops,Team=storage');
  });

  it('runs two controllers with more than one control-plane group', () => {
    const { cluster, instanceGroups } = completeKopsCase('minimal-1.33');
    const cp = instanceGroups.find((ig) => ig.spec.role === 'ControlPlane' || ig.spec.role === 'Master');
    if (!cp) throw new Error('minimal-1.33 has no control-plane group');
    const ha = [...instanceGroups, { ...cp, metadata: { ...cp.metadata, name: `${cp.metadata.name}-b` } }];
    const [addon] = awsEbsCsiDriverAddon({ cluster, instanceGroups: ha });
    expect(workload(addon.objects, 'Deployment').spec.replicas).toBe(2);
  });

  it("sets kops's node-allocatable update period on the CSIDriver from Kubernetes 1.35", () => {
    const csiDriver = (version: string) => render('minimal-1.33', (c) => { c.spec.kubernetesVersion = version; }).find((o) => o.kind === 'CSIDriver')?.spec;
    expect(csiDriver('1.35.7')).toEqual({ attachRequired: true, podInfoOnMount: false, nodeAllocatableUpdatePeriodSeconds: 10 });
    expect(csiDriver('1.34.10')).toEqual({ attachRequired: true, podInfoOnMount: false });
  });

  it('is not rendered on GCE', () => {
    const { cluster } = completeKopsCase('minimal-1.33');
    expect(awsEbsCsiDriverAddon({ cluster: { ...cluster, spec: { ...cluster.spec, cloudProvider: 'gce' } }, instanceGroups: [] })).toEqual([]);
  });
});
