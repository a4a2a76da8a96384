import type { NodeupConfig } from '../../src/model/nodeup-config-builder';
import { ETC_HOSTS_BEGIN, ETC_HOSTS_END, etcHostsFile } from '../../src/nodeup/etc-hosts';

// The pure /etc/hosts editor: only nodeup's block changes, every other byte stays.

const worker = (ips?: string[], none = true) => ({ InstanceGroupRole: 'Node', APIInternalName: 'api.internal.c.k8s.local', UsesNoneDNS: none || undefined, APIServerIPs: ips }) as unknown as NodeupConfig;
const controlPlane = { InstanceGroupRole: 'ControlPlane', APIInternalName: 'api.internal.c.k8s.local', UsesNoneDNS: true, APIServerConfig: { PublicName: 'api.c.k8s.local' } } as unknown as NodeupConfig;
const block = (...lines: string[]) => [ETC_HOSTS_BEGIN, ...lines, ETC_HOSTS_END, ''].join('\n');

describe('etcHostsFile', () => {
  it('appends the block to a file ending in a newline, keeping its mode', () => {
    expect(etcHostsFile(controlPlane, { content: '127.0.0.1 localhost\n', mode: 0o100600 })).toEqual({
      path: '/etc/hosts',
      mode: 0o600,
      content: `127.0.0.1 localhost\n${block('127.0.0.1\tapi.internal.c.k8s.local', '127.0.0.1\tapi.c.k8s.local')}`,
    });
  });

  it('replaces a block in place and leaves the text around it as it is', () => {
    const before = 'a\n';
    const after = 'b\n# tail without newline';
    const r = etcHostsFile(worker(['10.0.0.5']), { content: `${before}${block('1.2.3.4\told')}${after}`, mode: 0o644 });
    expect(r?.content).toBe(`${before}${block('10.0.0.5\tapi.internal.c.k8s.local')}${after}`);
  });

  it('removes its block when there is nothing to map, and writes nothing when it has no block', () => {
    expect(etcHostsFile(worker(undefined, false), { content: `x\n${block('1.2.3.4\told')}y\n`, mode: 0o644 })?.content).toBe('x\ny\n');
    expect(etcHostsFile(worker(undefined, true), { content: 'x\n', mode: 0o644 })).toBeUndefined();
    expect(etcHostsFile(worker(['10.0.0.5'], false), { content: 'x\n', mode: 0o644 })).toBeUndefined();
  });

  it('a worker served by the node-identity service also maps kops-controller.internal to the API addresses (its 3988 listener)', () => {
    const served = { ...worker(['10.0.0.5', '10.0.1.5']), ClusterName: 'c.k8s.local', ConfigServer: { Servers: ['https://kops-controller.internal.c.k8s.local:3988'], CACertificates: '', Region: 'us-east-1' } } as NodeupConfig;
    expect(etcHostsFile(served)?.content).toBe(
      block('10.0.0.5\tapi.internal.c.k8s.local', '10.0.1.5\tapi.internal.c.k8s.local', '10.0.0.5\tkops-controller.internal.c.k8s.local', '10.0.1.5\tkops-controller.internal.c.k8s.local'),
    );
  });

  it('creates the file when there is none', () => {
    expect(etcHostsFile(worker(['10.0.0.5']))?.content).toBe(block('10.0.0.5\tapi.internal.c.k8s.local'));
  });
});
