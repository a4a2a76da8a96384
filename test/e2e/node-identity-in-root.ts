import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DescribeAutoScalingGroupsCommand, AutoScalingClient } from '@aws-sdk/client-auto-scaling';
import { DescribeInstancesCommand, EC2Client } from '@aws-sdk/client-ec2';
import { GetRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import * as yaml from 'js-yaml';
import { nodeGroupIamName } from '../../src/model/aws/iam-names';
import { KeysetYaml } from '../../src/pki/keyset-yaml';
import { StatePaths } from '../../src/state/state-paths';
import { FakeImds, startFakeImds } from '../fakes/fake-imds';
import { opensslSubject, opensslVerify } from '../node-identity/node-identity-helpers';
import { BootstrapHarness, BUCKET, CLUSTER, GROUPS, sha256 } from './bootstrap-harness';

// A worker joins through the node-identity service running in the control-plane root (issue 19 §5), in
// real Debian roots: the control plane's user-data runs in a fresh root; `nodeup kops-controller` runs there
// from what it installed, with the control plane's boot config and moto's instance credentials, reading the
// store as the control plane does. The worker root holds the runtime and nodeup bundle the bootstrap
// installed, and a boot config naming only the ConfigServer; its nodeup runs with the credentials of an
// AssumeRole session of the worker group's role named after the instance moto launched for that group
// (what EC2 hands out through IMDS; served by test/fakes/fake-imds.ts), and with the state store pointed at
// a closed port: it cannot read the store at all. The worker's config comes from the service, checked
// against its hash, and so do its certificates.
//
// TEST-ONLY differences, and why: the harness's cluster has no DNS and no API load balancer (`--dns none`,
// spec.api.loadBalancer unset, so its stored worker config has no ConfigServer): the test stores the worker config as update writes it for a cluster with DNS
// (ConfigServer, no ConfigBase), with the service at its loopback address and kubelet's
// --hostname-override naming the instance's private DNS name (the chroot shares the test machine's
// hostname); `--listen 127.0.0.1:0 --sts-endpoint <moto>` (the service's own configuration).

/** The chroot command of the harness (inRoot), with extra environment, for a process that keeps running. */
function spawnInRoot(root: string, env: string[], argv: string[]): ChildProcess {
  const base = ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'];
  return spawn('chroot', [root, '/usr/bin/env', '-i', ...base, ...env, ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
}

function run(child: ChildProcess): Promise<{ status: number; out: string }> {
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ status: code ?? -1, out })));
}

/** The describe body: `harness` gives the running harness (made in the test file's beforeAll). */
export function nodeIdentityInRootSuite(harness: () => BootstrapHarness): void {
  let h: BootstrapHarness;
  let cpRoot: string;
  let workerRoot: string;
  let controller: ChildProcess;
  let log = '';
  let imds: FakeImds;
  let instance: { id: string; privateDnsName: string };
  let worker: { status: number; out: string };
  let kubernetesCa: string;
  let originalConfig: string;
  const configKey = StatePaths.nodeupConfig(CLUSTER, 'Node', GROUPS.nodes);

  beforeAll(async () => {
    h = harness();
    const client = { region: 'us-east-1', endpoint: h.moto.endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } };
    const read = async (key: string): Promise<string> => (await (await h.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))).Body?.transformToString()) ?? '';
    cpRoot = h.freshRoot('ni-control-plane');
    const cp = await h.bootstrap(cpRoot, GROUPS.controlPlane);
    if (cp.status !== 0) throw new Error(`the control plane's user-data failed:\n${cp.out}`);

    // The service, as kforge-kops-controller.service runs it, with the control plane's instance credentials (moto's IMDS).
    controller = spawnInRoot(cpRoot, [`AWS_ENDPOINT_URL_S3=${h.moto.endpoint}`, `AWS_ENDPOINT_URL_EC2=${h.moto.endpoint}`, `AWS_ENDPOINT_URL_STS=${h.moto.endpoint}`, `AWS_EC2_METADATA_SERVICE_ENDPOINT=${h.moto.endpoint}`], [
      '/opt/kforge/bin/nodeup', 'kops-controller', '--conf=/opt/kforge/conf/kube_env.yaml', '--listen', '127.0.0.1:0', '--sts-endpoint', h.moto.endpoint,
    ]);
    controller.stdout?.on('data', (d: Buffer) => (log += d.toString()));
    controller.stderr?.on('data', (d: Buffer) => (log += d.toString()));
    const deadline = Date.now() + 60_000;
    while (!/listening on 127\.0\.0\.1:(\d+)/.test(log) && controller.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const port = Number(/listening on 127\.0\.0\.1:(\d+)/.exec(log)?.[1]);
    if (!port) throw new Error(`kops-controller did not start in the control-plane root:\n${log}`);

    // The machine moto launched for the worker group, and the credentials EC2 would hand it (its role, its id as the session).
    const asg = new AutoScalingClient(client);
    const ec2 = new EC2Client(client);
    const iam = new IAMClient(client);
    const sts = new STSClient(client);
    try {
      const id = (await asg.send(new DescribeAutoScalingGroupsCommand({ AutoScalingGroupNames: [`${GROUPS.nodes}.${CLUSTER}`] }))).AutoScalingGroups?.[0]?.Instances?.[0]?.InstanceId as string;
      const described = (await ec2.send(new DescribeInstancesCommand({ InstanceIds: [id] }))).Reservations?.[0]?.Instances?.[0];
      instance = { id, privateDnsName: (described?.PrivateDnsName ?? '').toLowerCase() };
      const arn = (await iam.send(new GetRoleCommand({ RoleName: nodeGroupIamName(GROUPS.nodes, CLUSTER) }))).Role?.Arn;
      const c = (await sts.send(new AssumeRoleCommand({ RoleArn: arn, RoleSessionName: id }))).Credentials;
      imds = await startFakeImds(nodeGroupIamName(GROUPS.nodes, CLUSTER), { accessKeyId: c?.AccessKeyId ?? '', secretAccessKey: c?.SecretAccessKey ?? '', sessionToken: c?.SessionToken ?? '', expiration: c?.Expiration?.toISOString() ?? '' });
    } finally {
      asg.destroy();
      ec2.destroy();
      iam.destroy();
      sts.destroy();
    }

    // The worker config as update writes it with DNS, the service at its loopback address (see above).
    const controllerCa = KeysetYaml.parse(await read(StatePaths.issuedKeyset(CLUSTER, 'kops-controller-ca')), 'kops-controller-ca', 'kops-controller-ca').primary().certificatePem;
    kubernetesCa = KeysetYaml.parse(await read(StatePaths.issuedKeyset(CLUSTER, 'kubernetes-ca')), 'kubernetes-ca', 'kubernetes-ca').primary().certificatePem;
    originalConfig = await read(configKey);
    const config = yaml.load(originalConfig) as Record<string, unknown> & { ComponentFlags: Record<string, string[]>; KeypairIDs: Record<string, string> };
    const servers = [`https://127.0.0.1:${port}`];
    delete config.ConfigBase;
    config.channels = [];
    config.ConfigServer = { CACertificates: controllerCa, Region: 'us-east-1', Servers: servers };
    config.KeypairIDs = { 'kubernetes-ca': config.KeypairIDs['kubernetes-ca'] as string };
    config.ComponentFlags = { ...config.ComponentFlags, kubelet: [...(config.ComponentFlags.kubelet ?? []), `--hostname-override=${instance.privateDnsName}`] };
    const stored = yaml.dump(config, { sortKeys: true, lineWidth: -1 });
    await h.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: configKey, Body: stored }));

    workerRoot = h.freshRoot('ni-worker');
    for (const d of ['opt/kforge/node', 'opt/kforge/bin', 'opt/kforge/conf']) fs.mkdirSync(path.join(workerRoot, d), { recursive: true });
    fs.cpSync(path.join(cpRoot, 'opt/kforge/node'), path.join(workerRoot, 'opt/kforge/node'), { recursive: true, verbatimSymlinks: true });
    fs.copyFileSync(path.join(cpRoot, 'opt/kforge/bin/nodeup'), path.join(workerRoot, 'opt/kforge/bin/nodeup'));
    fs.chmodSync(path.join(workerRoot, 'opt/kforge/bin/nodeup'), 0o755);
    const boot = { CloudProvider: 'aws', ClusterName: CLUSTER, ConfigServer: { CACertificates: controllerCa, Region: 'us-east-1', Servers: servers }, InstanceGroupName: GROUPS.nodes, InstanceGroupRole: 'Node', NodeupConfigHash: sha256(stored) };
    fs.writeFileSync(path.join(workerRoot, 'opt/kforge/conf/kube_env.yaml'), yaml.dump(boot));
    // The store is unreachable for the worker (a closed port); STS is moto; the instance role comes from the fake IMDS.
    worker = await run(
      spawnInRoot(workerRoot, ['AWS_ENDPOINT_URL_S3=http://127.0.0.1:9', `AWS_ENDPOINT_URL_STS=${h.moto.endpoint}`, `AWS_ENDPOINT_URL_EC2=http://127.0.0.1:9`, `AWS_EC2_METADATA_SERVICE_ENDPOINT=${imds.endpoint}`, 'AWS_REGION=us-east-1'], [
        '/opt/kforge/bin/nodeup', '--conf=/opt/kforge/conf/kube_env.yaml',
      ]),
    );
  }, 600_000);

  afterAll(async () => {
    // The service must be gone before its root is unmounted.
    if (controller && controller.exitCode === null && controller.signalCode === null) {
      const exited = new Promise((r) => controller.once('close', r));
      controller.kill('SIGTERM');
      await exited;
    }
    await imds?.stop();
    if (originalConfig) await h.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: configKey, Body: originalConfig }));
    if (cpRoot) h.removeRoot(cpRoot);
    if (workerRoot) h.removeRoot(workerRoot);
  });

  it('the worker gets its config and a kubelet certificate for exactly its own name from the service in the control-plane root, with no key in its boot config and no store', async () => {
    expect([worker.status, worker.out]).toEqual([0, expect.stringContaining('kforge-nodeup-stage: certificates-issued')]);
    expect(fs.readFileSync(path.join(workerRoot, 'opt/kforge/conf/kube_env.yaml'), 'utf8')).not.toMatch(/PRIVATE KEY|ConfigBase|s3:\/\//);
    const kc = yaml.load(fs.readFileSync(path.join(workerRoot, 'var/lib/kubelet/kubeconfig'), 'utf8')) as { users: Array<{ user: Record<string, string> }> };
    const cert = Buffer.from(kc.users[0]?.user['client-certificate-data'] ?? '', 'base64').toString();
    expect(opensslVerify(kubernetesCa, [cert]).status).toBe(0);
    expect(opensslSubject(cert)).toBe(`subject=CN=system:node:${instance.privateDnsName},O=system:nodes`);
    expect(fs.existsSync(path.join(workerRoot, 'var/lib/kubelet/bootstrap-kubeconfig'))).toBe(false);
    const deadline = Date.now() + 10_000;
    while (!/ 200 issued /.test(log) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(log).toContain(`200 sent the nodeup config of group ${GROUPS.nodes} for node ${instance.privateDnsName} (instance ${instance.id}`);
    expect(log).toContain(`200 issued kube-proxy, kubelet for node ${instance.privateDnsName} (instance ${instance.id}, group ${GROUPS.nodes}`);
    // Only the worker's instance role reached the node: it asked the fake IMDS, and nothing else.
    expect(imds.requests).toContain(`GET /latest/meta-data/iam/security-credentials/${nodeGroupIamName(GROUPS.nodes, CLUSTER)}`);
  });
}
