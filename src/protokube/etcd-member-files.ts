import { X509Certificate } from 'node:crypto';
import * as yaml from 'js-yaml';
import type { ClusterSpec } from '../api/types';
import { etcdCommand } from '../flags/etcd-command';
import type { NodeFile } from '../nodeup/node-file';
import { ISSUED_VALIDITY_MS } from '../pki/cluster-pki';
import { issueKeypair } from '../pki/issue-keypair';
import type { Keyset } from '../pki/keyset';

/** Where kubelet reads static pods. */
const MANIFESTS_DIR = '/etc/kubernetes/manifests';
// A certificate closer than this to its end is issued again (a pass runs every minute, so any margin works).
const RENEW_BEFORE_MS = 30 * 24 * 3600 * 1000;

/** One etcd member this machine runs: which etcd cluster, which member, and where its volume is mounted. */
export interface EtcdMemberInput {
  clusterName: string;
  spec: ClusterSpec;
  /** The etcd cluster (`main`, `events`). */
  etcdName: string;
  /** The member name, from the volume's `k8s.io/etcd/<etcd>` tag. */
  memberName: string;
  /** This machine's internal address: a SAN of its server and peer certificates. */
  internalIp: string;
  /** The mount point of the member's volume on the host, e.g. `/mnt/master-vol-0123`. */
  mountPath: string;
  /** `etcd-clients-ca`: signs the server certificate (kube-apiserver's client certificate comes from it too). */
  clientsCa: Keyset;
  /** `etcd-peers-ca-<etcd>`: signs the peer certificate. */
  peersCa: Keyset;
  /** The member's certificate files as they are on the node, by path; unchanged certificates are kept. */
  existing?: ReadonlyMap<string, string>;
  now?: Date;
}

/** The stable DNS name of a member (kops's): `etcd-<member>` for main, `etcd-<etcd>-<member>` for the others. */
export function etcdMemberHost(clusterName: string, etcdName: string, memberName: string): string {
  return `${etcdName === 'main' ? 'etcd' : `etcd-${etcdName}`}-${memberName}.internal.${clusterName}`;
}

/** The directory of one etcd cluster's certificates on the node, as etcdCommand's flags name it. */
export function etcdPkiDir(etcdName: string): string {
  return `/etc/kubernetes/pki/etcd-manager-${etcdName}`;
}

/**
 * The files of one etcd member: its static pod manifest (the argv etcdCommand renders, the data dir on the
 * member's volume) and its TLS material: the two CA bundles, a server certificate from `etcd-clients-ca`
 * and a peer certificate from `etcd-peers-ca-<etcd>`, both for the member's stable name and this machine's
 * address, with keys generated here (private keys never leave the machine). A certificate already on the
 * node that the same CA signed for the same names is kept, so a second pass changes nothing.
 */
export async function etcdMemberFiles(input: EtcdMemberInput): Promise<NodeFile[]> {
  const { etcdName, memberName } = input;
  const dir = etcdPkiDir(etcdName);
  const host = etcdMemberHost(input.clusterName, etcdName, memberName);
  const files: NodeFile[] = [
    { path: `${dir}/etcd-clients-ca.crt`, mode: 0o644, content: input.clientsCa.certificateBundle() },
    { path: `${dir}/etcd-peers-ca-${etcdName}.crt`, mode: 0o644, content: input.peersCa.certificateBundle() },
  ];
  // Clients reach a member by its name, by the machine's address, or on the machine itself (kube-apiserver).
  files.push(...(await memberCertificate(input, `${dir}/server`, input.clientsCa, [host, 'localhost'], [input.internalIp, '127.0.0.1'])));
  // etcd checks a peer's certificate against the address it connects from; members on one host (and
  // kubeadm's defaults) connect from 127.0.0.1, so the loopback names are in the peer certificate too.
  files.push(...(await memberCertificate(input, `${dir}/peer`, input.peersCa, [host, 'localhost'], [input.internalIp, '127.0.0.1'])));
  files.push({ path: `${MANIFESTS_DIR}/etcd-${etcdName}.manifest`, mode: 0o644, content: yaml.dump(etcdPod(input), { lineWidth: -1, noRefs: true }) });
  return files;
}

/** The member's data directory on the host: on its volume, so a replacement machine finds the data. */
export function etcdDataHostPath(mountPath: string): string {
  return `${mountPath}/data`;
}

function etcdPod(input: EtcdMemberInput): object {
  const { etcdName } = input;
  const { argv } = etcdCommand(input.spec, input.clusterName, input.etcdName, input.memberName);
  const etcd = (input.spec.etcdClusters ?? []).find((e) => e.name === etcdName);
  const requests: Record<string, string> = {};
  if (etcd?.cpuRequest) requests.cpu = String(etcd.cpuRequest);
  if (etcd?.memoryRequest) requests.memory = String(etcd.memoryRequest);
  const dataDir = `/var/lib/etcd/${etcdName}`;
  const name = `etcd-${etcdName}`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'kube-system', labels: { 'k8s-app': name } },
    spec: {
      hostNetwork: true,
      priorityClassName: 'system-node-critical',
      tolerations: [{ key: 'CriticalAddonsOnly', operator: 'Exists' }],
      containers: [
        {
          name: 'etcd',
          image: `registry.k8s.io/etcd:${etcd?.version ?? ''}-0`,
          command: argv,
          resources: { requests },
          volumeMounts: [
            { name: 'data', mountPath: dataDir, readOnly: false },
            { name: 'pki', mountPath: etcdPkiDir(etcdName), readOnly: true },
          ],
        },
      ],
      volumes: [
        { name: 'data', hostPath: { path: etcdDataHostPath(input.mountPath), type: 'DirectoryOrCreate' } },
        { name: 'pki', hostPath: { path: etcdPkiDir(etcdName), type: 'Directory' } },
      ],
    },
  };
}

async function memberCertificate(input: EtcdMemberInput, base: string, ca: Keyset, dnsNames: string[], ips: string[]): Promise<NodeFile[]> {
  const certPath = `${base}.crt`;
  const keyPath = `${base}.key`;
  const now = input.now ?? new Date();
  const oldCert = input.existing?.get(certPath);
  const oldKey = input.existing?.get(keyPath);
  if (oldCert && oldKey && stillGood(oldCert, ca, dnsNames, ips, now)) {
    return [
      { path: certPath, mode: 0o644, content: oldCert },
      { path: keyPath, mode: 0o600, content: oldKey },
    ];
  }
  const issued = await issueKeypair(
    // Both usages: a peer dials other peers with it, and etcd's own gRPC gateway dials the server with it.
    { subject: { commonName: dnsNames[0] }, usage: 'client-server', validityMs: ISSUED_VALIDITY_MS, dnsNames, ipAddresses: ips, now },
    ca.primary(),
  );
  return [
    { path: certPath, mode: 0o644, content: issued.certificatePem },
    { path: keyPath, mode: 0o600, content: issued.privateKeyPem as string },
  ];
}

/** Whether a certificate on the node was signed by the CA's primary key for exactly these names, and is not near its end. */
function stillGood(pem: string, ca: Keyset, dnsNames: string[], ips: string[], now: Date): boolean {
  try {
    const cert = new X509Certificate(pem);
    if (!cert.verify(ca.primary().certificate.publicKey)) return false;
    if (Date.parse(cert.validTo) - now.getTime() < RENEW_BEFORE_MS) return false;
    const want = [...dnsNames.map((d) => `DNS:${d}`), ...ips.map((ip) => `IP Address:${ip}`)].sort();
    const have = (cert.subjectAltName ?? '').split(', ').filter(Boolean).sort();
    return JSON.stringify(want) === JSON.stringify(have);
  } catch {
    return false;
  }
}
