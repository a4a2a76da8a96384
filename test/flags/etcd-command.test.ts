import type { ClusterSpec } from '../../src/api/types';
import { etcdCommand } from '../../src/flags/etcd-command';
import { flagVerdict } from '../../src/flags/flag-support';

const spec: ClusterSpec = {
  etcdClusters: [
    { name: 'main', etcdMembers: [{ name: 'b', instanceGroup: 'cp-b' }, { name: 'a', instanceGroup: 'cp-a' }, { name: 'c', instanceGroup: 'cp-c' }] },
    { name: 'events', etcdMembers: [{ name: 'a', instanceGroup: 'cp-a' }] },
  ],
};

describe('etcdCommand', () => {
  it('renders a main member on kops ports with mutual TLS', () => {
    expect(etcdCommand(spec, 'x.example.com', 'main', 'a').argv).toEqual([
      '/usr/local/bin/etcd',
      '--advertise-client-urls=https://etcd-a.internal.x.example.com:4001',
      '--cert-file=/etc/kubernetes/pki/etcd-manager-main/server.crt',
      '--client-cert-auth=true',
      '--data-dir=/var/lib/etcd/main',
      '--initial-advertise-peer-urls=https://etcd-a.internal.x.example.com:2380',
      '--initial-cluster=a=https://etcd-a.internal.x.example.com:2380,b=https://etcd-b.internal.x.example.com:2380,c=https://etcd-c.internal.x.example.com:2380',
      '--initial-cluster-state=new',
      '--initial-cluster-token=etcd-cluster-main',
      '--key-file=/etc/kubernetes/pki/etcd-manager-main/server.key',
      '--listen-client-urls=https://0.0.0.0:4001',
      '--listen-peer-urls=https://0.0.0.0:2380',
      '--name=a',
      '--peer-cert-file=/etc/kubernetes/pki/etcd-manager-main/peer.crt',
      '--peer-client-cert-auth=true',
      '--peer-key-file=/etc/kubernetes/pki/etcd-manager-main/peer.key',
      '--peer-trusted-ca-file=/etc/kubernetes/pki/etcd-manager-main/etcd-peers-ca-main.crt',
      '--trusted-ca-file=/etc/kubernetes/pki/etcd-manager-main/etcd-clients-ca.crt',
    ]);
  });

  it('puts the events cluster on its own ports and names', () => {
    const argv = etcdCommand(spec, 'x.example.com', 'events', 'a').argv;
    expect(argv).toContain('--listen-client-urls=https://0.0.0.0:4002');
    expect(argv).toContain('--initial-cluster=a=https://etcd-events-a.internal.x.example.com:2381');
    expect(argv).toContain('--data-dir=/var/lib/etcd/events');
  });

  it.each(['3.5.34', '3.6.15', '3.7.2'])('renders only flags etcd %s accepts', (version) => {
    const argv = etcdCommand(spec, 'x.example.com', 'main', 'b').argv.slice(1);
    expect(argv.map((a) => flagVerdict('etcd', a, version)).filter((v) => !v.accepted)).toEqual([]);
  });

  it('rejects an unknown cluster or member', () => {
    expect(() => etcdCommand(spec, 'x.example.com', 'cilium', 'a')).toThrow('no etcd cluster "cilium"');
    expect(() => etcdCommand(spec, 'x.example.com', 'main', 'z')).toThrow('has no member "z"');
  });
});
