import { LOAD_BALANCER_IPS_PLACEHOLDER } from '../../src/cloud/aws/tasks/launch-template-task';
import { renderUserData } from '../../src/model/aws/render-user-data';
import type { NodeupConfig } from '../../src/model/nodeup-config-builder';
import { parseBootConfig } from '../../src/nodeup/boot-config';
import { etcHostsRecords } from '../../src/nodeup/etc-hosts';
import { UnsafeNodeValueError } from '../../src/nodeup/unsafe-node-value-error';
import { KOPS_CONTROLLER_CA_FIXTURE } from '../helpers/kops-controller-ca-fixture';

// kops's BootConfig.APIServerIPs in the boot config user-data writes: read as a list of strings, and each
// checked as an IP where /etc/hosts is made, so a placeholder the cloud task did not replace (an address
// that never existed) is refused instead of written.

const BOOT = 'CloudProvider: gce\nClusterName: c.example.com\nConfigBase: gs://b/c.example.com\nInstanceGroupName: nodes\nInstanceGroupRole: Node\nNodeupConfigHash: abc\n';

it('reads APIServerIPs from the boot config, and ignores a value that is not a list of strings', () => {
  expect(parseBootConfig(`APIServerIPs:\n- 10.0.16.31\n${BOOT}`)?.APIServerIPs).toEqual(['10.0.16.31']);
  expect(parseBootConfig(BOOT)?.APIServerIPs).toBeUndefined();
  expect(parseBootConfig(`APIServerIPs: 10.0.16.31\n${BOOT}`)?.APIServerIPs).toBeUndefined();
});

it('maps the API internal name to the addresses on a worker, and refuses a placeholder that was never replaced', () => {
  const worker = { UsesNoneDNS: true, APIInternalName: 'api.internal.c.example.com', ClusterName: 'c.example.com' } as unknown as NodeupConfig;
  expect(etcHostsRecords({ ...worker, APIServerIPs: ['10.0.16.31'] })).toEqual([{ address: '10.0.16.31', name: 'api.internal.c.example.com' }]);
  expect(() => etcHostsRecords({ ...worker, APIServerIPs: ['api-us-central1-c-example-com.address.kforge.invalid'] })).toThrow(UnsafeNodeValueError);
});

it("AWS: a worker's user-data with the load balancer's addresses in place of the launch template's placeholder maps api.internal and kops-controller.internal to them", () => {
  const userData = renderUserData({
    clusterName: 'c.k8s.local',
    configBase: 's3://b/c.k8s.local',
    region: 'us-east-1',
    instanceGroup: 'nodes',
    role: 'Node',
    nodeupConfigHash: 'a'.repeat(64),
    configServer: { servers: ['https://kops-controller.internal.c.k8s.local:3988'], caCertificates: KOPS_CONTROLLER_CA_FIXTURE, via: 'api-c-k8s-local-abc.elb.us-east-1.amazonaws.com' },
    apiServerIps: [LOAD_BALANCER_IPS_PLACEHOLDER],
  });
  const bootOf = (script: string) => parseBootConfig((/<< '__EOF_KUBE_ENV'\n([\s\S]*?)\n__EOF_KUBE_ENV\n/.exec(script) ?? [])[1] ?? '');
  const worker = { UsesNoneDNS: true, APIInternalName: 'api.internal.c.k8s.local', ClusterName: 'c.k8s.local', ConfigServer: { Servers: [], CACertificates: '', Region: 'us-east-1' } } as unknown as NodeupConfig;
  // As the launch template task does once AWS made the interfaces (one line per address).
  const resolved = userData.split(`- ${LOAD_BALANCER_IPS_PLACEHOLDER}\n`).join('- 172.20.32.9\n- 172.20.64.10\n');
  const boot = bootOf(resolved);
  expect(boot?.APIServerIPs).toEqual(['172.20.32.9', '172.20.64.10']);
  expect(boot?.ConfigServer?.Servers).toEqual(['https://api-c-k8s-local-abc.elb.us-east-1.amazonaws.com:3988']);
  expect(etcHostsRecords({ ...worker, APIServerIPs: boot?.APIServerIPs })).toEqual([
    { address: '172.20.32.9', name: 'api.internal.c.k8s.local' },
    { address: '172.20.64.10', name: 'api.internal.c.k8s.local' },
    { address: '172.20.32.9', name: 'kops-controller.internal.c.k8s.local' },
    { address: '172.20.64.10', name: 'kops-controller.internal.c.k8s.local' },
  ]);
  // The placeholder itself, had it stayed, is no address.
  expect(() => etcHostsRecords({ ...worker, APIServerIPs: bootOf(userData)?.APIServerIPs })).toThrow(UnsafeNodeValueError);
});
