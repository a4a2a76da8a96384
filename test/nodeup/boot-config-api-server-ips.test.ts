import type { NodeupConfig } from '../../src/model/nodeup-config-builder';
import { parseBootConfig } from '../../src/nodeup/boot-config';
import { etcHostsRecords } from '../../src/nodeup/etc-hosts';
import { UnsafeNodeValueError } from '../../src/nodeup/unsafe-node-value-error';

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
