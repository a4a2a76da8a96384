import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli, tempDir, treeDigest } from '../helpers/cli';

/**
 * The error contract, proven on a corpus of bad inputs (flags and manifests). Every case must:
 * exit with status 1; print on stderr a message that starts with "Error: " and names what is wrong and
 * where (field path or flag, and for manifests `file:line:`); print no stack trace unless --verbose is
 * given; print nothing on stdout; and leave the state store byte-for-byte unchanged. The store holds one
 * valid cluster (minimal.example.com) so that "unchanged" means something and some cases can target it.
 */

/** A substring stderr must contain, or a pattern it must match. */
type Expectation = string | RegExp;

interface BadInput {
  name: string;
  /** Arguments; `@tmp` is replaced by the per-run temporary directory. `--state <store>` is appended unless `state` says otherwise. */
  args: string[];
  /** A manifest in test/fixtures/bad, passed as `-f test/fixtures/bad/<file>`. */
  file?: string;
  /** What stderr must say (every entry). */
  expect: Expectation[];
  /** What stderr must not say. */
  reject?: Expectation[];
  /** Extra environment; `@tmp` in values is replaced too. */
  env?: Record<string, string>;
  /** `false`: append no `--state` (the case passes its own). Default: the shared pre-populated store. */
  state?: false;
  /** The case passes --verbose and must print a stack trace. */
  stackTrace?: boolean;
}

const FIXTURES = 'test/fixtures/bad';
const CLUSTER = 'minimal.example.com';
/** A 300-character cluster name of valid labels: too long for DNS (and, as a store directory, for a file name). */
const LONG_NAME = `${[56, 59, 59, 59, 59].map((n) => 'n'.repeat(n)).join('.')}.com`;
/** A Node.js stack frame, as printed by Error.stack. */
const STACK_FRAME = /^\s+at .+\(.*:\d+:\d+\)$/m;
/** An "editor" that moves the stored subnet out of networkCIDR, every time it is opened. */
const BREAK_SUBNET_EDITOR = `"${process.execPath}" -e "const fs = require('fs'); const f = process.argv[1]; fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace('172.20.32.0/19', '10.9.0.0/19'))"`;

const cases: BadInput[] = [
  // ---- manifests: reading and parsing -------------------------------------------------------------
  { name: 'invalid YAML syntax', args: ['create'], file: 'yaml-syntax.yaml', expect: [/yaml-syntax\.yaml:2[56]: /, 'invalid YAML'] },
  { name: 'a document that is not a mapping', args: ['create'], file: 'not-mapping.yaml', expect: ['not-mapping.yaml:36: ', 'document 2', 'must be a mapping', 'got string'] },
  { name: 'a manifest without objects', args: ['create'], file: 'empty.yaml', expect: ['empty.yaml', 'contains no objects'] },
  { name: 'wrong apiVersion', args: ['create'], file: 'wrong-apiversion.yaml', expect: ['wrong-apiversion.yaml:50: ', 'apiVersion: "kops.k8s.io/v1beta1" is not supported', 'kops.k8s.io/v1alpha2'] },
  { name: 'unknown kind', args: ['create'], file: 'unknown-kind.yaml', expect: ['unknown-kind.yaml:37: ', 'kind: "InstanceGroups" is not supported'] },
  { name: 'missing metadata.name', args: ['create'], file: 'missing-name.yaml', expect: ['missing-name.yaml:5: ', 'metadata.name: is required'] },
  { name: 'the same object twice in one file', args: ['create'], file: 'duplicate-objects.yaml', expect: ['duplicate-objects.yaml:67: ', 'instance group "nodes" of cluster "bad.example.com" is defined twice'] },
  {
    name: 'an InstanceGroup without cluster label in a file with two clusters',
    args: ['create'],
    file: 'ig-no-cluster-label.yaml',
    expect: [/ig-no-cluster-label\.yaml:7[67]: InstanceGroup\/nodes: metadata\.labels\["kops\.k8s\.io\/cluster"\]: is required/],
  },
  {
    name: 'same InstanceGroup name in two clusters of one file is fine; the real error is reported',
    args: ['create'],
    file: 'two-clusters-same-ig-name.yaml',
    expect: ['two-clusters-same-ig-name.yaml:83: InstanceGroup/nodes: spec.minSize: minSize 3 is greater than maxSize 2'],
    reject: ['defined twice'],
  },
  {
    name: 'a file with two clusters, the second invalid: nothing is written',
    args: ['create'],
    file: 'two-clusters-second-invalid.yaml',
    expect: ['two-clusters-second-invalid.yaml:83: InstanceGroup/nodes: spec.minSize: minSize 3 is greater than maxSize 2'],
  },
  { name: '-f of a missing file', args: ['create', '-f', 'test/fixtures/bad/no-such-file.yaml'], expect: ['-f test/fixtures/bad/no-such-file.yaml', 'no such file'] },
  { name: '-f of a directory', args: ['create', '-f', FIXTURES], expect: [`-f ${FIXTURES}`, 'is a directory'] },
  { name: 'create without -f', args: ['create'], expect: ['-f FILE is required'] },

  // ---- manifests: input limits (hostile input); the big inputs are generated into @tmp by writeHostileInputs --------
  {
    name: 'a YAML alias bomb in a free-form field',
    args: ['create'],
    file: 'alias-bomb.yaml',
    expect: [/alias-bomb\.yaml:\d+: spec\.kubeDNS\.affinity\.a\d/, 'more than 100,000 values once its 81 YAML aliases are expanded (the limit)'],
  },
  { name: 'bytes that are not UTF-8', args: ['create'], file: 'not-utf8.yaml', expect: ['not-utf8.yaml:8: ', 'the file is not valid UTF-8: byte 0xe9 at column 15'] },
  { name: 'mappings nested deeper than 64 levels', args: ['create'], file: 'too-deep.yaml', expect: [/too-deep\.yaml:\d+: /, 'nested more than 64 levels deep'] },
  { name: 'a 50 MB string: the file is over the 4 MiB limit', args: ['create', '-f', '@tmp/string-50mb.yaml'], expect: ['string-50mb.yaml:8: ', 'the file is larger than 4 MiB (4,194,304 bytes), the limit for a manifest'] },
  { name: 'a 50 MB list: the file is over the 4 MiB limit', args: ['create', '-f', '@tmp/list-50mb.yaml'], expect: ['list-50mb.yaml:', 'the file is larger than 4 MiB'] },
  { name: 'an endless input (/dev/zero) is read only to the limit', args: ['create', '-f', '/dev/zero'], expect: ['/dev/zero:1: ', 'the file is larger than 4 MiB'] },
  {
    name: 'a 300 KiB annotation: over the 256 KiB string limit',
    args: ['create', '-f', '@tmp/string-300k.yaml'],
    expect: ['string-300k.yaml:8: metadata.annotations.big: a string of 307,200 characters is longer than the 256 KiB limit'],
  },
  {
    name: 'a list of 130,000 items (once a stack overflow)',
    args: ['create', '-f', '@tmp/list-130k.yaml'],
    expect: [/list-130k\.yaml:\d+: the file holds more than 100,000 values \(the limit\)/],
    reject: ['Maximum call stack'],
  },
  { name: 'a list of 50,000 items: over the 10,000-item limit', args: ['create', '-f', '@tmp/list-50k.yaml'], expect: ['list-50k.yaml:18: spec.kubernetesApiAccess: a list of 50,000 items is longer than the 10,000-item limit'] },
  { name: 'a mapping of 12,000 keys: over the 10,000-key limit', args: ['create', '-f', '@tmp/keys-12k.yaml'], expect: ['keys-12k.yaml:7: metadata.annotations: a mapping of 12,000 keys has more than the 10,000-key limit'] },
  {
    name: 'an edited object that is not UTF-8 ends the edit and is kept',
    args: ['edit', 'cluster', CLUSTER],
    env: { EDITOR: `"${process.execPath}" -e "require('fs').appendFileSync(process.argv[1], Buffer.from([0x23, 0x20, 0xff, 0x0a]))"` },
    expect: ['the edited object (kept at ', 'edited object:', 'the file is not valid UTF-8: byte 0xff at column 3'],
  },

  // ---- names that become store keys: validated before the store is read -----------------------
  { name: 'an etcd cluster name with a slash', args: ['create'], file: 'etcd-name-slash.yaml', expect: ['etcd-name-slash.yaml:17: ', 'spec.etcdClusters[1].name: "ev/sub" is not valid as an etcd cluster name'] },
  { name: 'an instance group name of 70 characters', args: ['create'], file: 'ig-name-too-long.yaml', expect: ['ig-name-too-long.yaml:53: ', 'metadata.name: ', 'is 70 characters long; an instance group name has at most 63'] },
  {
    name: 'an InstanceGroup whose cluster label is a path',
    args: ['create'],
    file: 'ig-label-traversal.yaml',
    expect: ['ig-label-traversal.yaml:7: InstanceGroup/nodes2: metadata.labels["kops.k8s.io/cluster"]: "../../outside" is not a valid DNS name'],
    reject: ['not found'],
  },
  { name: 'create cluster with a 300-character name', args: ['create', 'cluster', LONG_NAME, '--zones', 'us-east-1a'], expect: ['cluster name "', 'is 300 characters long; a DNS name has at most 253'], reject: ['ENAMETOOLONG'] },
  { name: 'get cluster with a 300-character name', args: ['get', 'cluster', LONG_NAME], expect: ['is 300 characters long'], reject: ['ENAMETOOLONG'] },
  { name: 'get cluster --full with a path as the name', args: ['get', 'cluster', '../outside.example.com', '--full'], expect: ['cluster name "../outside.example.com" is not a valid DNS name'] },
  { name: 'edit cluster with a 300-character name', args: ['edit', 'cluster', LONG_NAME], env: { EDITOR: 'true' }, expect: ['is 300 characters long'], reject: ['ENAMETOOLONG'] },
  { name: 'delete cluster with a 300-character name', args: ['delete', 'cluster', LONG_NAME, '--yes'], expect: ['is 300 characters long'], reject: ['ENAMETOOLONG'] },
  { name: 'export kubeconfig with a 300-character name', args: ['export', 'kubeconfig', LONG_NAME, '--admin', '--kubeconfig', '@tmp/kubeconfig'], expect: ['is 300 characters long'], reject: ['ENAMETOOLONG'] },
  { name: 'get instancegroups --name with a 300-character name', args: ['get', 'ig', '--name', LONG_NAME], expect: ['is 300 characters long'], reject: ['ENAMETOOLONG'] },
  { name: 'create ig with a name that is a path', args: ['create', 'ig', '../../x', '--name', CLUSTER, '--subnet', 'us-east-1a'], expect: ['instance group name "../../x" is not valid as an instance group name'] },
  { name: 'create ig with a 300-character name', args: ['create', 'ig', 'n'.repeat(300), '--name', CLUSTER, '--subnet', 'us-east-1a'], expect: ['is 300 characters long; an instance group name has at most 63'] },
  { name: 'delete ig with a name that is a path', args: ['delete', 'ig', 'a/b', '--name', CLUSTER, '--yes'], expect: ['instance group name "a/b" is not valid'] },
  { name: 'edit ig with a 300-character name', args: ['edit', 'ig', 'n'.repeat(300), '--name', CLUSTER], env: { EDITOR: 'true' }, expect: ['is 300 characters long'] },
  { name: 'get ig with a name that is a path', args: ['get', 'ig', '../config', '--name', CLUSTER], expect: ['instance group name "../config" is not valid'] },
  { name: 'get keypairs with a keyset name that is a path', args: ['get', 'keypairs', '../private/kubernetes-ca', '--name', CLUSTER], expect: ['keyset name "../private/kubernetes-ca" is not valid as a keyset name'] },
  {
    name: 'create keypair with a keyset name that is a path',
    args: ['create', 'keypair', '../../../x', '--name', CLUSTER, '--cert', '@tmp/none.crt', '--key', '@tmp/none.key'],
    expect: ['keyset name "../../../x" is not valid as a keyset name'],
  },

  // ---- manifests: schema --------------------------------------------------------------------------
  { name: 'unknown field at the top of spec', args: ['create'], file: 'unknown-field-spec.yaml', expect: ['unknown-field-spec.yaml:21: ', 'spec.fooBar: unknown field'] },
  { name: 'unknown field in a subnet', args: ['create'], file: 'unknown-field-subnet.yaml', expect: ['unknown-field-subnet.yaml:31: ', 'spec.subnets[0].foo: unknown field'] },
  { name: 'unknown field in kubelet', args: ['create'], file: 'unknown-field-kubelet.yaml', expect: ['unknown-field-kubelet.yaml:22: ', 'spec.kubelet.maxPodz: unknown field'] },
  { name: 'unknown field in an InstanceGroup', args: ['create'], file: 'unknown-field-ig.yaml', expect: ['unknown-field-ig.yaml:57: ', 'InstanceGroup/nodes: spec.machineTyp: unknown field'] },
  { name: 'minSize is a string', args: ['create'], file: 'wrong-type-minsize.yaml', expect: ['wrong-type-minsize.yaml:59: ', 'spec.minSize: must be integer', '"two"'] },
  { name: 'networkCIDR is a number', args: ['create'], file: 'wrong-type-networkcidr.yaml', expect: ['wrong-type-networkcidr.yaml:21: ', 'spec.networkCIDR: must be string', 'number 5'] },
  { name: 'negative maxSize', args: ['create'], file: 'negative-maxsize.yaml', expect: ['negative-maxsize.yaml:58: ', /InstanceGroup\/nodes: spec\.maxSize: must be (>=|≥) 0/] },
  { name: 'invalid role', args: ['create'], file: 'invalid-role.yaml', expect: ['invalid-role.yaml:60: ', 'spec.role: "Worker" is not one of', '"Node"'] },
  { name: 'invalid networkCIDR', args: ['create'], file: 'bad-networkcidr.yaml', expect: ['bad-networkcidr.yaml:21: ', 'spec.networkCIDR: "172.20.0.0/33" is not a valid CIDR'] },
  { name: 'invalid subnet CIDR', args: ['create'], file: 'bad-subnet-cidr.yaml', expect: ['bad-subnet-cidr.yaml:32: ', 'spec.subnets[1].cidr: "172.20.300.0/19" is not a valid CIDR'] },
  { name: 'invalid nonMasqueradeCIDR', args: ['create'], file: 'bad-nonmasquerade-cidr.yaml', expect: ['bad-nonmasquerade-cidr.yaml:24: ', 'spec.nonMasqueradeCIDR: "100.64.0/10" is not a valid CIDR'] },
  { name: 'invalid kubernetesApiAccess entry', args: ['create'], file: 'bad-api-access.yaml', expect: ['bad-api-access.yaml:20: ', 'spec.kubernetesApiAccess[1]: "0.0.0.0/99" is not a valid CIDR'] },
  {
    name: 'several schema errors in three documents, all reported',
    args: ['create'],
    file: 'multi-schema-errors.yaml',
    expect: [
      '(5 errors)',
      'multi-schema-errors.yaml:16: Cluster/bad.example.com: spec.fooBar: unknown field',
      'multi-schema-errors.yaml:18: Cluster/bad.example.com: spec.networkCIDR: must be string',
      'multi-schema-errors.yaml:25: Cluster/bad.example.com: spec.subnets[0].type: "Publik" is not one of',
      'multi-schema-errors.yaml:35: InstanceGroup/master-us-east-1a: spec.maxSize: must be integer',
      'multi-schema-errors.yaml:48: InstanceGroup/nodes: spec.machineTyp: unknown field',
    ],
  },
  {
    name: 'one error in each of three documents, all reported',
    args: ['create'],
    file: 'multi-document-errors.yaml',
    expect: [
      '(3 errors)',
      'multi-document-errors.yaml:5: document 1: apiVersion: "kops.k8s.io/v1" is not supported',
      'multi-document-errors.yaml:27: document 2: kind: "InstanceGroupp" is not supported',
      'multi-document-errors.yaml:49: InstanceGroup/nodes: spec.subnet: unknown field',
    ],
  },

  // ---- manifests: whole-cluster validation --------------------------------------------------------
  { name: 'subnet outside networkCIDR', args: ['create'], file: 'subnet-outside-network.yaml', expect: ['subnet-outside-network.yaml:28: ', 'spec.subnets[0].cidr', 'not inside networkCIDR 172.20.0.0/16'] },
  { name: 'overlapping subnets', args: ['create'], file: 'overlapping-subnets.yaml', expect: ['overlapping-subnets.yaml:32: ', 'spec.subnets[1].cidr', 'overlaps subnet "us-east-1a"'] },
  { name: 'nonMasqueradeCIDR overlapping networkCIDR', args: ['create'], file: 'nonmasquerade-overlaps-network.yaml', expect: ['nonmasquerade-overlaps-network.yaml:24: ', 'spec.nonMasqueradeCIDR: 172.16.0.0/12 overlaps networkCIDR'] },
  { name: 'serviceClusterIPRange outside nonMasqueradeCIDR', args: ['create'], file: 'service-outside-nonmasquerade.yaml', expect: ['service-outside-nonmasquerade.yaml:25: ', 'spec.serviceClusterIPRange: 10.96.0.0/12 is not inside nonMasqueradeCIDR'] },
  { name: 'serviceClusterIPRange overlapping podCIDR', args: ['create'], file: 'service-overlaps-pod.yaml', expect: ['service-overlaps-pod.yaml:26: ', 'spec.serviceClusterIPRange: 100.100.0.0/16 overlaps', 'podCIDR 100.96.0.0/11'] },
  { name: 'zones in two regions', args: ['create'], file: 'zones-two-regions.yaml', expect: ['zones-two-regions.yaml:27: ', 'spec.subnets: all zones must be in one region', 'us-east-1', 'us-west-2'] },
  { name: 'duplicate subnet names', args: ['create'], file: 'duplicate-subnet-names.yaml', expect: ['duplicate-subnet-names.yaml:33: ', 'spec.subnets[1].name: duplicate subnet name "us-east-1a"'] },
  { name: 'InstanceGroup names a missing subnet', args: ['create'], file: 'ig-missing-subnet.yaml', expect: ['ig-missing-subnet.yaml:63: ', 'InstanceGroup/nodes: spec.subnets[1]: subnet "us-east-1b" is not defined'] },
  { name: 'etcd member on a missing InstanceGroup', args: ['create'], file: 'etcd-missing-ig.yaml', expect: ['etcd-missing-ig.yaml:15: ', 'spec.etcdClusters[1].etcdMembers[0].instanceGroup', '"master-us-east-1z" does not exist'] },
  { name: 'etcd member on a Node InstanceGroup', args: ['create'], file: 'etcd-on-node-ig.yaml', expect: ['etcd-on-node-ig.yaml:11: ', 'spec.etcdClusters[0].etcdMembers[0].instanceGroup', 'has role Node'] },
  { name: 'even number of etcd members', args: ['create'], file: 'etcd-even-members.yaml', expect: ['etcd-even-members.yaml:10: ', 'spec.etcdClusters[0].etcdMembers', 'has 2 members; an odd number is required'] },
  { name: 'minSize greater than maxSize', args: ['create'], file: 'minsize-gt-maxsize.yaml', expect: ['minsize-gt-maxsize.yaml:59: ', 'InstanceGroup/nodes: spec.minSize: minSize 3 is greater than maxSize 2'] },
  { name: 'no networking option', args: ['create'], file: 'no-networking.yaml', expect: ['no-networking.yaml:22: ', 'spec.networking: exactly one networking option is required'] },
  { name: 'two networking options', args: ['create'], file: 'two-networking.yaml', expect: ['two-networking.yaml:22: ', 'spec.networking: exactly one networking option may be set, found 2: calico, cni'] },
  { name: 'cluster name with upper-case letters', args: ['create'], file: 'name-uppercase.yaml', expect: ['name-uppercase.yaml:6: ', 'metadata.name: "Bad.Example.com" is not a valid DNS name'] },
  { name: 'cluster name without a dot', args: ['create'], file: 'name-no-dot.yaml', expect: ['name-no-dot.yaml:6: ', 'metadata.name: "badcluster" must be a fully-qualified DNS name'] },
  { name: 'cluster name with a 64-character label', args: ['create'], file: 'name-long-label.yaml', expect: ['name-long-label.yaml:6: ', 'metadata.name: ', 'is not a valid DNS name', '1–63 characters'] },
  { name: 'Kubernetes version too old', args: ['create'], file: 'k8s-too-old.yaml', expect: ['k8s-too-old.yaml:20: ', 'spec.kubernetesVersion: Kubernetes 1.20.0 is not supported (older than'] },
  {
    name: 'an IPv6 nonMasqueradeCIDR is refused clearly, not carved as IPv4',
    args: ['create'],
    file: 'ipv6-nonmasquerade.yaml',
    expect: ['ipv6-nonmasquerade.yaml:24: ', 'spec.nonMasqueradeCIDR: "::/0" is an IPv6 range: IPv6 and dual-stack clusters are not supported yet'],
    reject: ['is not inside'],
  },
  {
    name: 'a discovery store without a public HTTPS address',
    args: ['create'],
    file: 'bad-discovery-store.yaml',
    expect: ['bad-discovery-store.yaml:', 'spec.serviceAccountIssuerDiscovery.discoveryStore: "file:///srv/oidc" is not a discovery store'],
  },
  {
    name: 'a malformed AWS prefix list in an access list',
    args: ['create'],
    file: 'bad-prefix-list.yaml',
    expect: ['bad-prefix-list.yaml:', 'spec.sshAccess[1]: "pl-xyz" is not a valid CIDR or AWS managed prefix list'],
  },
  {
    name: 'an unsupported cloud is the one error reported',
    args: ['create'],
    file: 'unsupported-cloud.yaml',
    expect: [/unsupported-cloud\.yaml:\d+: Cluster\/bad\.example\.com: spec\.cloudProvider: "hetzner" is not supported: kforge builds clusters on aws and gce/, 'invalid (1 error)'],
    reject: ['cloudConfig', 'unknown field'],
  },
  {
    name: 'a DNS-name field with an empty label',
    args: ['create'],
    file: 'bad-public-name.yaml',
    expect: [/bad-public-name\.yaml:\d+: Cluster\/bad\.example\.com: spec\.masterPublicName: "api\.\.bad\.example\.com" is not a DNS name: it has an empty label/],
  },
  {
    name: 'a cluster name that leaves no room for api.internal.<name>',
    args: ['create'],
    file: 'name-too-long-derived.yaml',
    expect: [/name-too-long-derived\.yaml:\d+: .*metadata\.name: is 245 characters long: the API's internal name api\.internal\.<name> would be 258, longer than the 253 DNS allows; use at most 240/],
  },
  {
    name: 'a field kforge cannot honour is refused, not ignored (networking weave)',
    args: ['create'],
    file: 'networking-weave.yaml',
    expect: [/networking-weave\.yaml:\d+: Cluster\/bad\.example\.com: spec\.networking\.weave: is not supported yet: Weave was removed from kops/],
  },
  {
    name: 'an optional addon kforge does not render is refused, not ignored (clusterAutoscaler)',
    args: ['create'],
    file: 'optional-addon-cluster-autoscaler.yaml',
    expect: [/optional-addon-cluster-autoscaler\.yaml:\d+: Cluster\/bad\.example\.com: spec\.clusterAutoscaler: is not supported yet: the cluster-autoscaler addon is not rendered/],
  },
  {
    name: 'a networking option kforge does not render is refused with its path (canal)',
    args: ['create'],
    file: 'networking-canal.yaml',
    expect: [/networking-canal\.yaml:\d+: Cluster\/bad\.example\.com: spec\.networking\.canal: is not supported yet: kforge does not render kops's canal addon/],
  },
  {
    name: 'a cilium setting the cilium addon does not render is refused with its path',
    args: ['create'],
    file: 'networking-cilium-unrendered.yaml',
    expect: [/networking-cilium-unrendered\.yaml:\d+: Cluster\/bad\.example\.com: spec\.networking\.cilium\.enableNodePort: is not supported yet/],
  },
  {
    name: 'create cluster --networking kindnet is refused',
    args: ['create', 'cluster', 'kn.example.com', '--zones', 'us-east-1a', '--networking', 'kindnet'],
    expect: ['--networking: "kindnet" is not supported: kforge does not render kops\'s kindnet addon'],
  },
  {
    name: 'create cluster --networking weave is refused',
    args: ['create', 'cluster', 'w.example.com', '--zones', 'us-east-1a', '--networking', 'weave'],
    expect: ['--networking: "weave" is not supported: Weave was removed from kops'],
  },
  { name: 'Kubernetes version too new', args: ['create'], file: 'k8s-too-new.yaml', expect: ['k8s-too-new.yaml:20: ', 'spec.kubernetesVersion: Kubernetes 1.99.0 is not supported (newer than'] },
  { name: 'Kubernetes version that is not a version', args: ['create'], file: 'k8s-garbage.yaml', expect: ['k8s-garbage.yaml:20: ', 'spec.kubernetesVersion: "latest-and-greatest" is not a Kubernetes version'] },
  // ---- settings that map to flags the Kubernetes version removed ------------------------------------
  {
    name: 'kubelet setting whose flag Kubernetes 1.35 removed',
    args: ['create'],
    file: 'kubelet-removed-flag.yaml',
    expect: ['kubelet-removed-flag.yaml:21: ', 'spec.kubelet.podInfraContainerImage: --pod-infra-container-image was removed from kubelet in Kubernetes 1.35', '1.35.7', 'set spec.containerd.sandboxImage instead'],
  },
  {
    name: 'InstanceGroup kubelet setting whose flag the version does not accept',
    args: ['create'],
    file: 'ig-kubelet-removed-flag.yaml',
    expect: ['ig-kubelet-removed-flag.yaml:58: InstanceGroup/nodes: spec.kubelet.podInfraContainerImage: ', 'removed from kubelet in Kubernetes 1.35', '1.36.4'],
  },
  {
    name: 'kube-apiserver cloudProvider on Kubernetes 1.33+',
    args: ['create'],
    file: 'apiserver-cloud-provider.yaml',
    expect: ['apiserver-cloud-provider.yaml:21: ', 'spec.kubeAPIServer.cloudProvider: --cloud-provider was removed from kube-apiserver in Kubernetes 1.33', '1.34.10'],
  },
  {
    name: 'several whole-cluster errors, all reported',
    args: ['create'],
    file: 'multi-semantic-errors.yaml',
    expect: [
      '(5 errors)',
      'multi-semantic-errors.yaml:19: Cluster/bad.example.com: spec.kubernetesVersion: Kubernetes 1.20.0 is not supported',
      'multi-semantic-errors.yaml:29: Cluster/bad.example.com: spec.subnets[1].cidr: subnet "us-east-1b" range 10.20.64.0/19 is not inside networkCIDR',
      'multi-semantic-errors.yaml:13: Cluster/bad.example.com: spec.etcdClusters[0].etcdMembers: etcd cluster "main" has 2 members',
      'multi-semantic-errors.yaml:68: InstanceGroup/nodes: spec.minSize: minSize 3 is greater than maxSize 2',
      'multi-semantic-errors.yaml:72: InstanceGroup/nodes: spec.subnets[1]: subnet "us-east-1c" is not defined',
    ],
  },

  // ---- the existing cluster -----------------------------------------------------------------------
  { name: 'create -f of a cluster that exists', args: ['create', '-f', 'test/fixtures/kops/minimal.yaml'], expect: [`cluster "${CLUSTER}" already exists`, 'kforge replace -f'] },
  {
    name: 'replace -f with invalid edits of the existing cluster',
    args: ['replace'],
    file: 'replace-existing-invalid.yaml',
    expect: [
      '(2 errors)',
      'replace-existing-invalid.yaml:35: Cluster/minimal.example.com: spec.subnets[0].cidr: subnet "us-east-1a" range 172.20.32.0/19 is not inside networkCIDR 10.0.0.0/16',
      'replace-existing-invalid.yaml:51: InstanceGroup/nodes: spec.minSize: minSize 2 is greater than maxSize 1',
    ],
  },
  { name: 'replace -f of a cluster that does not exist', args: ['replace', '-f', 'test/fixtures/kops/ha.yaml'], expect: ['cluster "ha.example.com" not found', 'kforge create -f test/fixtures/kops/ha.yaml'] },
  { name: 'create -f of an InstanceGroup on a missing subnet of the existing cluster', args: ['create'], file: 'existing-cluster-ig-missing-subnet.yaml', expect: ['existing-cluster-ig-missing-subnet.yaml:16: ', 'InstanceGroup/more-nodes: spec.subnets[0]: subnet "us-east-1z" is not defined'] },
  { name: 'create cluster with the name of the existing cluster', args: ['create', 'cluster', CLUSTER, '--zones', 'us-east-1a'], expect: [`cluster "${CLUSTER}" already exists`] },
  { name: 'create ig with a subnet the cluster does not have', args: ['create', 'ig', 'extra', '--name', CLUSTER, '--subnet', 'us-west-2a'], expect: [/--subnet|spec\.subnets\[0\]/, 'subnet "us-west-2a" is not defined', 'InstanceGroup/extra'] },
  { name: 'create ig that exists already', args: ['create', 'ig', 'nodes', '--name', CLUSTER, '--subnet', 'us-east-1a'], expect: ['instance group "nodes" already exists in cluster "minimal.example.com"'] },
  { name: 'create ig with --min-size above --max-size', args: ['create', 'ig', 'extra', '--name', CLUSTER, '--subnet', 'us-east-1a', '--min-size', '5', '--max-size', '2'], expect: [/--min-size|spec\.minSize/, 'minSize 5 is greater than maxSize 2'] },
  { name: 'create ig with an invalid --role', args: ['create', 'ig', 'extra', '--name', CLUSTER, '--subnet', 'us-east-1a', '--role', 'Worker'], expect: ['--role', 'Worker', 'Node, ControlPlane'] },
  { name: 'create ig without --subnet', args: ['create', 'ig', 'extra', '--name', CLUSTER], expect: [/Missing required flag:?\s+-?-?subnet/] },
  {
    name: 'delete ig of a control-plane group that still has etcd members',
    args: ['delete', 'ig', 'master-us-east-1a', '--name', CLUSTER, '--yes'],
    expect: ['instance group "master-us-east-1a" cannot be deleted: etcd members still run on it: main/us-east-1a (spec.etcdClusters[0].etcdMembers[0]), events/us-east-1a (spec.etcdClusters[1].etcdMembers[0])'],
  },
  { name: 'delete ig that does not exist', args: ['delete', 'ig', 'nope', '--name', CLUSTER, '--yes'], expect: ['instance group "nope" not found in cluster "minimal.example.com"'] },
  {
    name: 'edit cluster whose result is invalid (editor gives up)',
    args: ['edit', 'cluster', CLUSTER],
    env: { EDITOR: BREAK_SUBNET_EDITOR },
    expect: ['spec.subnets[0].cidr', 'not inside networkCIDR'],
  },
  { name: 'edit cluster with an editor that fails', args: ['edit', 'cluster', CLUSTER], env: { EDITOR: 'false' }, expect: ['editor "false" exited with status 1', 'no changes made'] },
  { name: 'get cluster that does not exist', args: ['get', 'cluster', 'nope.example.com'], expect: ['cluster "nope.example.com" not found'] },
  { name: 'edit cluster that does not exist', args: ['edit', 'cluster', 'nope.example.com'], env: { EDITOR: 'true' }, expect: ['cluster "nope.example.com" not found'] },
  { name: 'delete cluster that does not exist', args: ['delete', 'cluster', 'nope.example.com', '--yes'], expect: ['cluster "nope.example.com" not found'] },
  { name: 'get ig that does not exist', args: ['get', 'ig', 'nope', '--name', CLUSTER], expect: ['instance group "nope" not found in cluster "minimal.example.com"'] },
  { name: 'get instancegroups without --name', args: ['get', 'instancegroups'], expect: ['the cluster name is required', '--name'] },

  // ---- create cluster flags -----------------------------------------------------------------------
  { name: 'create cluster without --zones', args: ['create', 'cluster', 'x.example.com'], expect: ['--zones: at least one zone is required'] },
  { name: 'create cluster without a name', args: ['create', 'cluster', '--zones', 'us-east-1a'], expect: ['the cluster name is required', '--name'] },
  { name: 'create cluster with the name twice', args: ['create', 'cluster', 'x.example.com', '--name', 'y.example.com', '--zones', 'us-east-1a'], expect: ['cluster name given twice', '--name'] },
  { name: 'create cluster with an invalid name', args: ['create', 'cluster', 'X.example.com', '--zones', 'us-east-1a'], expect: ['cluster name "X.example.com" is not a valid DNS name'] },
  { name: '--control-plane-count 2', args: ['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a', '--control-plane-count', '2'], expect: ['--control-plane-count: 2 control-plane nodes', 'odd number'] },
  { name: '--control-plane-count that is not a number', args: ['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a', '--control-plane-count', 'two'], expect: ['--control-plane-count', 'Expected an integer', 'two'] },
  { name: '--control-plane-zones not in --zones', args: ['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a', '--control-plane-zones', 'us-east-1d'], expect: ['--control-plane-zones: zone "us-east-1d" is not in --zones'] },
  { name: '--zones in two regions', args: ['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a,us-west-2a'], expect: [/--zones|spec\.subnets/, 'all zones must be in one region'] },
  { name: '--zones with a name that is not a zone', args: ['create', 'cluster', 'x.example.com', '--zones', 'nope'], expect: ['--zones: "nope" is not an AWS availability zone name (like us-east-1a); is there a typo?'] },
  { name: '--set spec.additionalSans with a non-ASCII name', args: ['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a', '--set', 'spec.additionalSans=bücher.example'], expect: ['spec.additionalSans[0]: "bücher.example" is neither an IP address nor a DNS name'] },
  { name: '--node-count -1', args: ['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a', '--node-count', '-1'], expect: ['--node-count: must be 0 or more, got -1'] },
  { name: '--networking bogus', args: ['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a', '--networking', 'bogus'], expect: ['--networking: "bogus" is not supported'] },
  { name: '--topology private with kubenet', args: ['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a', '--topology', 'private', '--networking', 'kubenet'], expect: ['--networking: kubenet does not work with --topology private'] },
  { name: '--bastion without private topology', args: ['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a', '--bastion'], expect: ['--bastion: a bastion needs --topology private'] },
  { name: '--dns-zone with --dns none', args: ['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a', '--dns-zone', 'example.com', '--dns', 'none'], expect: ['--dns-zone: cannot be used with --dns none'] },
  { name: '--dry-run without -o', args: ['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a', '--dry-run'], expect: ['--dry-run needs --output'] },
  { name: '-o without --dry-run', args: ['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a', '-o', 'yaml'], expect: ['--output is only used with --dry-run'] },
  {
    name: '--set a critical-pods shutdown period longer than the whole period (kubelet would refuse to start)',
    args: ['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a', '--set', 'spec.kubelet.shutdownGracePeriodCriticalPods=1m'],
    expect: ['spec.kubelet.shutdownGracePeriodCriticalPods: shutdownGracePeriodCriticalPods (1m) must not exceed shutdownGracePeriod (30s)'],
  },
  { name: '--set with an unknown field', args: ['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a', '--set', 'spec.fooBar=1'], expect: ['--set spec.fooBar: unknown field "fooBar"'] },
  { name: '--set with a bad value type', args: ['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a', '--set', 'spec.kubelet.maxPods=lots'], expect: ['--set spec.kubelet.maxPods: "lots" is not a number'] },
  { name: '--set without =', args: ['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a', '--set', 'spec.kubelet.maxPods'], expect: ['--set spec.kubelet.maxPods: expected path=value'] },
  { name: '--set of an unsupported Kubernetes version', args: ['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a', '--set', 'spec.kubernetesVersion=1.99.0'], expect: [/--set|spec\.kubernetesVersion/, 'Kubernetes 1.99.0 is not supported'] },
  { name: 'create ig --set with an unknown field', args: ['create', 'ig', 'extra', '--name', CLUSTER, '--subnet', 'us-east-1a', '--set', 'spec.fooBar=1'], expect: ['--set spec.fooBar: unknown field "fooBar"'] },
  { name: '--cloud-labels without =', args: ['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a', '--cloud-labels', 'team'], expect: ['--cloud-labels: "team" is not key=value'] },
  { name: '--ssh-public-key of a missing file', args: ['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a', '--ssh-public-key', '@tmp/no-such-key.pub'], expect: ['--ssh-public-key: cannot read', 'no-such-key.pub'] },
  { name: '--ssh-public-key of an endless file (/dev/zero)', args: ['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a', '--ssh-public-key', '/dev/zero'], expect: ['--ssh-public-key: /dev/zero is larger than 1 MiB'] },
  {
    name: 'create keypair --cert of an endless file (/dev/zero)',
    args: ['create', 'keypair', 'kubernetes-ca', '--name', CLUSTER, '--cert', '/dev/zero', '--key', '/dev/zero'],
    expect: ['--cert /dev/zero: is larger than 1 MiB, too large for a PEM file'],
  },
  { name: '--ssh-public-key of a private key', args: ['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a', '--ssh-public-key', '@tmp/id_ed25519'], expect: ['--ssh-public-key:', 'is a private key'] },
  { name: '--kubernetes-version 1.20.0', args: ['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a', '--kubernetes-version', '1.20.0'], expect: ['--kubernetes-version: ', 'Kubernetes 1.20.0 is not supported'] },
  { name: '--network-cidr 10.0.0.0/33', args: ['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a', '--network-cidr', '10.0.0.0/33'], expect: ['--network-cidr', '"10.0.0.0/33" is not a valid CIDR'] },
  { name: 'an unknown flag', args: ['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a', '--bogus-flag'], expect: ['Nonexistent flag: --bogus-flag'] },
  { name: 'an invalid -o value', args: ['get', 'clusters', '-o', 'xml'], expect: ['--output=xml', 'table, yaml, json'] },
  { name: '--state with an unsupported scheme', args: ['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a', '--state', 'ftp://x'], state: false, expect: ['--state: unsupported state store scheme "ftp://"'] },
  { name: '--state that is empty', args: ['get', 'clusters', '--state', ''], state: false, expect: ['--state: the state store location is empty'] },

  // ---- --verbose: a stack trace, still exit 1 -----------------------------------------------------
  { name: '--verbose prints the stack of a validation error', args: ['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a', '--control-plane-count', '2', '--verbose'], stackTrace: true, expect: ['--control-plane-count: 2 control-plane nodes'] },
  { name: '--verbose prints the stack of a not-found error', args: ['get', 'cluster', 'nope.example.com', '--verbose'], stackTrace: true, expect: ['cluster "nope.example.com" not found', 'NotFoundError'] },
];

/**
 * Inputs too big to commit, generated at run time from the minimal cluster: each breaks one input limit
 * (docs/getting-started.md, "Input limits").
 */
function writeHostileInputs(dir: string): void {
  const base = fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'bad', 'unknown-field-spec.yaml'), 'utf8').replace('  fooBar: true\n', '');
  const withAnnotations = (lines: string) => base.replace('  name: bad.example.com\n', `  name: bad.example.com\n  annotations:\n${lines}`);
  const withAccess = (n: number) => base.replace('  kubernetesApiAccess:\n  - 0.0.0.0/0\n', `  kubernetesApiAccess:\n${'  - 0.0.0.0/0\n'.repeat(n)}`);
  fs.writeFileSync(path.join(dir, 'string-50mb.yaml'), withAnnotations(`    big: ${'x'.repeat(50 * 1024 * 1024)}\n`));
  fs.writeFileSync(path.join(dir, 'string-300k.yaml'), withAnnotations(`    big: ${'x'.repeat(300 * 1024)}\n`));
  fs.writeFileSync(path.join(dir, 'list-50mb.yaml'), withAccess(Math.ceil((50 * 1024 * 1024) / 14)));
  fs.writeFileSync(path.join(dir, 'list-130k.yaml'), withAccess(130_000));
  fs.writeFileSync(path.join(dir, 'list-50k.yaml'), withAccess(50_000));
  fs.writeFileSync(path.join(dir, 'keys-12k.yaml'), withAnnotations(Array.from({ length: 12_000 }, (_, i) => `    k${i}: v\n`).join('')));
}

describe('bad inputs: exit 1, "Error: " with what and where, no stack trace, store unchanged', () => {
  let tmp: string;
  let store: string;

  /** Creates the shared store's one cluster from the kops minimal fixture. */
  const populate = () => {
    fs.rmSync(store, { recursive: true, force: true });
    fs.mkdirSync(store, { recursive: true });
    const r = runCli(['create', '-f', 'test/fixtures/kops/minimal.yaml', '--state', store], { env: { HOME: tmp } });
    if (r.status !== 0) throw new Error(`cannot populate the store: ${r.stderr}`);
  };

  beforeAll(() => {
    tmp = tempDir('kforge-bad-inputs-');
    store = path.join(tmp, 'store');
    populate();
    writeHostileInputs(tmp);
    fs.writeFileSync(path.join(tmp, 'id_ed25519'), '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ==\n-----END OPENSSH PRIVATE KEY-----\n', { mode: 0o600 });
  });

  afterAll(() => {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('has a pre-populated store and a corpus of at least 45 cases with fixtures that exist', () => {
    expect(fs.existsSync(path.join(store, CLUSTER, 'config'))).toBe(true);
    expect(fs.existsSync(path.join(store, CLUSTER, 'instancegroup', 'master-us-east-1a'))).toBe(true);
    expect(cases.length).toBeGreaterThanOrEqual(45);
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
    for (const c of cases) if (c.file) expect(fs.existsSync(path.join(__dirname, '..', 'fixtures', 'bad', c.file))).toBe(true);
  });

  test.each(cases)('$name', (c) => {
    const sub = (s: string) => s.replace(/@tmp/g, tmp);
    const args = [...c.args.map(sub), ...(c.file ? ['-f', `${FIXTURES}/${c.file}`] : []), ...(c.state === false ? [] : ['--state', store])];
    const env: NodeJS.ProcessEnv = { HOME: tmp, TMPDIR: tmp, KUBE_EDITOR: undefined, EDITOR: 'false' };
    for (const [k, v] of Object.entries(c.env ?? {})) env[k] = sub(v);
    const before = treeDigest(store);
    const r = runCli(args, { env });
    const after = treeDigest(store);
    if (after !== before) populate(); // keep the next cases independent of this one's damage
    const report = `kforge ${args.join(' ')}\n--- exit ${r.status}\n--- stderr:\n${r.stderr}--- stdout:\n${r.stdout}`;

    expect({ report, status: r.status }).toEqual({ report, status: 1 });
    expect(r.stderr.startsWith('Error: ')).toBe(true);
    for (const e of c.expect) {
      if (typeof e === 'string') expect(r.stderr).toContain(e);
      else expect(r.stderr).toMatch(e);
    }
    for (const e of c.reject ?? []) {
      if (typeof e === 'string') expect(r.stderr).not.toContain(e);
      else expect(r.stderr).not.toMatch(e);
    }
    if (c.stackTrace) {
      expect(r.stderr).toMatch(STACK_FRAME);
    } else {
      expect(r.stderr).not.toMatch(STACK_FRAME);
      expect(r.stderr).not.toContain('node:internal');
    }
    expect(r.stdout).toBe('');
    expect(after).toBe(before);
  });
});
