import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { AutoScalingClient, DescribeAutoScalingGroupsCommand } from '@aws-sdk/client-auto-scaling';
import {
  DescribeInstancesCommand,
  DescribeInternetGatewaysCommand,
  DescribeLaunchTemplatesCommand,
  DescribeLaunchTemplateVersionsCommand,
  DescribeNetworkInterfacesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  DescribeVolumesCommand,
  DescribeVpcsCommand,
  EC2Client,
  Filter,
} from '@aws-sdk/client-ec2';
import { DescribeLoadBalancersCommand, ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { GetRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { CliResult, runCli, tempDir } from '../helpers/cli';
import { AWS_NO_CREDENTIALS, MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer, cliEnvOf } from '../helpers/moto-server';

// `update cluster` as users run it (bin/run.js) against a real moto_server, with an S3 state store: the
// acceptance path of issue 10.

const BUCKET = 'kforge-update-state';
const STORE = `s3://${BUCKET}`;
const LIFE = 'life.example.com';
const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };

let moto: MotoServer;
let s3: S3Client;
let ec2: EC2Client;
let iam: IAMClient;
let autoScaling: AutoScalingClient;
let home: string;
let env: NodeJS.ProcessEnv;

let savedWarningSetting: string | undefined;

beforeAll(async () => {
  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  // This process's own SDK clients would otherwise print the SDK's notice about future Node versions.
  savedWarningSetting = process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  home = tempDir('kforge-update-cli-');
  env = {
    ...cliEnvOf(moto, home),
    CI: 'true',
  };
  const client = { region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS };
  s3 = new S3Client({ ...client, forcePathStyle: true });
  ec2 = new EC2Client(client);
  iam = new IAMClient(client);
  autoScaling = new AutoScalingClient(client);
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
});

afterAll(async () => {
  s3?.destroy();
  ec2?.destroy();
  iam?.destroy();
  autoScaling?.destroy();
  await moto?.stop();
  if (home) fs.rmSync(home, { recursive: true, force: true });
  if (savedWarningSetting === undefined) delete process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
  else process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = savedWarningSetting;
});

const kforge = (args: string[], extra: NodeJS.ProcessEnv = {}): CliResult => runCli([...args, '--state', STORE], { env: { ...env, ...extra } });
const tagged = (name: string): Filter[] => [
  { Name: 'tag:KubernetesCluster', Values: [name] },
  { Name: `tag:kubernetes.io/cluster/${name}`, Values: ['owned'] },
];

/** The `AWS API: N calls (...)` summary line's call count. */
function apiCalls(r: CliResult): number {
  const m = /AWS API: (\d+) calls \((\d+) throttled, (\d+) retried\) in [\d.]+ s/.exec(r.stderr);
  if (!m) throw new Error(`no API summary in stderr:\n${r.stderr}`);
  return Number(m[1]);
}

/** The boot config (kube_env.yaml) a launch template's user-data writes for nodeup. */
function bootConfig(userData: string): { APIServerIPs?: string[]; InstanceGroupRole?: string } {
  const m = /^cat > "\S*kube_env\.yaml" << '__EOF_KUBE_ENV'\n([\s\S]*?)\n__EOF_KUBE_ENV$/m.exec(userData);
  if (!m) throw new Error(`no boot config in user-data:\n${userData}`);
  return yaml.load(m[1]) as { APIServerIPs?: string[]; InstanceGroupRole?: string };
}

/** Operations of a `--verbose` summary, by name. */
function operations(r: CliResult): Record<string, number> {
  const summary = r.stderr.slice(r.stderr.indexOf('AWS API:'));
  return Object.fromEntries([...summary.matchAll(/^ {2}(\w+):? (\d+)$/gm)].map((m) => [m[1], Number(m[2])]));
}

describe('update cluster against moto (S3 state store, AWS_ENDPOINT_URL)', () => {
  beforeAll(() => {
    const created = kforge(['create', 'cluster', LIFE, '--zones', 'us-east-1a', '--cloud', 'aws', '--dns', 'none']);
    expect(created.stderr).toBe('');
    expect(created.status).toBe(0);
  });

  it('plans without changing anything: kops-style sections, the --yes hint, the call summary, exit 2 with --detailed-exitcode', async () => {
    const plan = kforge(['update', 'cluster', LIFE]);
    expect(plan.status).toBe(0);
    // Each group's sizes are shown before --yes.
    expect(plan.stdout).toMatch(/^Will create resources:\n {2}AutoScalingGroup\n {4}control-plane-us-east-1a\.life\.example\.com\n {6}minSize {2}1\n {6}maxSize {2}1\n {4}nodes-us-east-1a\.life\.example\.com\n {6}minSize {2}\d+\n {6}maxSize {2}\d+\n/);
    expect(plan.stdout).toContain('\n  VPC\n    life.example.com\n');
    expect(plan.stdout).toMatch(/\d+ to create, 0 to modify, 0 to delete, \d+ unchanged\nMust specify --yes to apply changes\n$/);
    expect(apiCalls(plan)).toBeGreaterThan(0);
    // Plain lines in CI, one per step.
    expect(plan.stderr).toContain('find...\n');
    expect((await ec2.send(new DescribeVpcsCommand({ Filters: tagged(LIFE) }))).Vpcs).toEqual([]);
    expect(kforge(['update', 'cluster', LIFE, '--detailed-exitcode']).status).toBe(2);

    const json = kforge(['update', 'cluster', LIFE, '-o', 'json']);
    expect(json.status).toBe(0);
    const report = JSON.parse(json.stdout) as { cluster: string; hasChanges: boolean; applied: boolean; resources: Array<{ type: string; name: string; action: string }>; summary: Record<string, number> };
    expect(report).toMatchObject({ cluster: LIFE, hasChanges: true, applied: false });
    expect(report.resources).toContainEqual({ type: 'VPC', name: LIFE, action: 'create', changes: [{ field: 'cidr', to: '172.20.0.0/16' }] });
    expect(Object.keys(report.summary).sort()).toEqual(['create', 'delete', 'unchanged', 'update']);
  });

  it('--yes creates the resources once; a plain update then says "No changes" in at most 39 calls; a second --yes mutates nothing', async () => {
    const applied = kforge(['update', 'cluster', LIFE, '--yes']);
    expect(applied.status).toBe(0);
    expect(applied.stdout).toContain(`Cluster "${LIFE}" updated.`);
    expect(applied.stderr).toMatch(/apply\.\.\.\n {2}\[1\/\d+\] /);
    // kops's first-run report: the kubeconfig is written, then what to do next.
    expect(applied.stdout).toContain(`\nCluster is starting. It should be ready in a few minutes.\n\nSuggestions:\n * validate cluster: kforge validate cluster ${LIFE} --wait 10m\n`);
    expect(applied.stderr).toContain('Warning: exported kubeconfig with no user authentication');

    const vpcs = (await ec2.send(new DescribeVpcsCommand({ Filters: tagged(LIFE) }))).Vpcs ?? [];
    expect(vpcs).toHaveLength(1);
    const vpcFilter = [{ Name: 'vpc-id', Values: [vpcs[0].VpcId as string] }];
    expect((await ec2.send(new DescribeSubnetsCommand({ Filters: tagged(LIFE) }))).Subnets?.map((s) => s.VpcId)).toEqual([vpcs[0].VpcId]);
    const groups = (await ec2.send(new DescribeSecurityGroupsCommand({ Filters: [...tagged(LIFE), ...vpcFilter] }))).SecurityGroups ?? [];
    expect(groups.length).toBeGreaterThanOrEqual(2);
    expect((await ec2.send(new DescribeInternetGatewaysCommand({ Filters: tagged(LIFE) }))).InternetGateways).toHaveLength(1);
    const lts = (await ec2.send(new DescribeLaunchTemplatesCommand({ Filters: tagged(LIFE) }))).LaunchTemplates?.map((t) => t.LaunchTemplateName).sort();
    expect(lts).toEqual([`control-plane-us-east-1a.${LIFE}`, `nodes-us-east-1a.${LIFE}`]);
    const asgs = (await autoScaling.send(new DescribeAutoScalingGroupsCommand({}))).AutoScalingGroups?.filter((g) => g.Tags?.some((t) => t.Key === 'KubernetesCluster' && t.Value === LIFE)) ?? [];
    expect(asgs.map((g) => g.AutoScalingGroupName).sort()).toEqual([`control-plane-us-east-1a.${LIFE}`, `nodes-us-east-1a.${LIFE}`]);
    const running = (await ec2.send(new DescribeInstancesCommand({ Filters: [...tagged(LIFE), { Name: 'instance-state-name', Values: ['running'] }] }))).Reservations?.flatMap((r) => r.Instances ?? []) ?? [];
    // Running instances equal the desired sizes, group by group.
    expect(running.length).toBe(asgs.reduce((n, g) => n + (g.DesiredCapacity ?? 0), 0));
    // Public topology: the subnets give instances a public address, their only way out.
    expect(running.every((i) => typeof i.PublicIpAddress === 'string')).toBe(true);
    expect((await ec2.send(new DescribeSubnetsCommand({ Filters: tagged(LIFE) }))).Subnets?.map((x) => x.MapPublicIpOnLaunch)).toEqual([true]);
    for (const g of asgs) expect(running.filter((i) => i.Tags?.some((t) => t.Key === 'aws:autoscaling:groupName' && t.Value === g.AutoScalingGroupName) || g.Instances?.some((x) => x.InstanceId === i.InstanceId))).toHaveLength(g.DesiredCapacity ?? -1);
    const volumes = ((await ec2.send(new DescribeVolumesCommand({ Filters: tagged(LIFE) }))).Volumes ?? []).filter((v) => v.Tags?.some((t) => t.Key?.startsWith('k8s.io/etcd/')));
    expect(volumes.map((v) => [v.Encrypted, v.VolumeType])).toEqual([
      [true, 'gp3'],
      [true, 'gp3'],
    ]);
    const elbv2 = new ElasticLoadBalancingV2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS });
    try {
      const lbs = (await elbv2.send(new DescribeLoadBalancersCommand({}))).LoadBalancers ?? [];
      expect(lbs.map((l) => l.Type)).toEqual(['network']);
      // Without DNS a worker reaches the node-identity service through the load balancer's DNS name, put into
      // its user-data once the load balancer exists; the name TLS checks stays kops-controller.internal.<cluster>.
      const lb = (lbs[0].DNSName ?? '').toLowerCase();
      const version = (await ec2.send(new DescribeLaunchTemplateVersionsCommand({ LaunchTemplateName: `nodes-us-east-1a.${LIFE}`, Versions: ['$Latest'] }))).LaunchTemplateVersions?.[0];
      const userData = Buffer.from(version?.LaunchTemplateData?.UserData ?? '', 'base64').toString('utf8');
      expect(userData).toContain(`CONFIG_SERVER_CONNECT_TO="kops-controller.internal.${LIFE}:3988:${lb}:3988"\n`);
      expect(userData).toContain(`  Servers:\n  - https://${lb}:3988\n`);
      expect(userData).not.toContain('kforge.invalid');
      expect(userData).not.toContain('ConfigBase:');
      // kops's BootConfig.APIServerIPs: the load balancer's private interface addresses (moto makes none; the
      // proxy in front of it plays AWS, test/helpers/moto-nlb-interfaces.ts), which nodeup maps api.internal and
      // kops-controller.internal to. The control plane's boot config has none (127.0.0.1 for its own API).
      const enis = (await ec2.send(new DescribeNetworkInterfacesCommand({ Filters: [{ Name: 'description', Values: [`ELB net/${lbs[0].LoadBalancerName}/*`] }] }))).NetworkInterfaces ?? [];
      expect(enis).toHaveLength(1);
      const ips = enis.map((n) => n.PrivateIpAddress as string).sort();
      expect(ips[0]).toMatch(/^172\.20\./);
      expect(bootConfig(userData).APIServerIPs).toEqual(ips);
      const cp = (await ec2.send(new DescribeLaunchTemplateVersionsCommand({ LaunchTemplateName: `control-plane-us-east-1a.${LIFE}`, Versions: ['$Latest'] }))).LaunchTemplateVersions?.[0];
      const cpBoot = bootConfig(Buffer.from(cp?.LaunchTemplateData?.UserData ?? '', 'base64').toString('utf8'));
      expect(cpBoot.InstanceGroupRole).toBe('ControlPlane');
      expect(cpBoot.APIServerIPs).toBeUndefined();
    } finally {
      elbv2.destroy();
    }
    for (const role of [`masters.${LIFE}`, `nodes-nodes-us-east-1a.${LIFE}`]) expect((await iam.send(new GetRoleCommand({ RoleName: role }))).Role?.RoleName).toBe(role);
    const keys = (await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `${LIFE}/` }))).Contents?.map((o) => o.Key) ?? [];
    expect(keys).toEqual(expect.arrayContaining([`${LIFE}/cluster-completed.spec`, `${LIFE}/igconfig/node/nodes-us-east-1a/nodeupconfig.yaml`, `${LIFE}/kforge-version.txt`]));

    const noop = kforge(['update', 'cluster', LIFE, '--detailed-exitcode', '--verbose']);
    expect(noop.status).toBe(0);
    expect(noop.stdout).toMatch(/^No changes: cluster "life\.example\.com" is up to date \(\d+ resources\)\n$/);
    // 23 before the node-termination-handler, whose queue and four rules add 12 reads, and the node-identity service's
    // 3988 target group 3 more, and the load balancer's network interfaces (the workers' APIServerIPs) 1 more (the
    // same for any number of groups).
    expect(apiCalls(noop)).toBeLessThanOrEqual(39);
    expect(operations(noop).DescribeNetworkInterfaces).toBe(1);

    const again = kforge(['update', 'cluster', LIFE, '--yes', '--verbose']);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/^No changes/);
    expect(Object.keys(operations(again)).filter((op) => !/^(Describe|Get|List)/.test(op))).toEqual([]);
    expect((await ec2.send(new DescribeVpcsCommand({ Filters: tagged(LIFE) }))).Vpcs).toHaveLength(1);
  });

  it('--yes writes the kubeconfig as kops does: the API load balancer\'s DNS name for a --dns none cluster, an admin certificate with --admin', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'config');
    const elbv2 = new ElasticLoadBalancingV2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS });
    let dnsName: string | undefined;
    try {
      dnsName = (await elbv2.send(new DescribeLoadBalancersCommand({}))).LoadBalancers?.[0]?.DNSName;
    } finally {
      elbv2.destroy();
    }
    expect(dnsName).toMatch(/\.elb\.amazonaws\.com$/);
    const r = kforge(['update', 'cluster', LIFE, '--yes', '--admin=1h'], { KUBECONFIG: file });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`kforge has set your kubectl context to ${LIFE} (server https://${dnsName}) in ${file}`);
    expect(r.stdout).toMatch(/The admin certificate expires at /);
    expect(r.stderr).not.toContain('no user authentication');
    const kc = yaml.load(fs.readFileSync(file, 'utf8')) as { clusters: Array<{ cluster: { server: string; 'tls-server-name'?: string } }>; users: Array<{ user: Record<string, string> }> };
    expect(kc.clusters.map((c) => c.cluster.server)).toEqual([`https://${dnsName}`]);
    // The load balancer's AWS name is in no API certificate: TLS checks the internal name, which all are issued for (as kops).
    expect(kc.clusters.map((c) => c.cluster['tls-server-name'])).toEqual([`api.internal.${LIFE}`]);
    expect(Object.keys(kc.users[0].user).sort()).toEqual(['client-certificate-data', 'client-key-data']);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // export kubeconfig finds the same load balancer; --internal keeps the internal name.
    const other = path.join(dir, 'other');
    expect(kforge(['export', 'kubeconfig', LIFE, '--kubeconfig', other]).status).toBe(0);
    expect((yaml.load(fs.readFileSync(other, 'utf8')) as typeof kc).clusters[0].cluster.server).toBe(`https://${dnsName}`);
    expect(kforge(['export', 'kubeconfig', LIFE, '--internal', '--kubeconfig', other]).status).toBe(0);
    expect((yaml.load(fs.readFileSync(other, 'utf8')) as typeof kc).clusters[0].cluster.server).toBe(`https://api.internal.${LIFE}`);
    // --no-create-kube-config leaves the file alone; with --admin it is a usage error.
    const before = fs.readFileSync(file, 'utf8');
    expect(kforge(['update', 'cluster', LIFE, '--yes', '--no-create-kube-config'], { KUBECONFIG: file }).status).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    const both = kforge(['update', 'cluster', LIFE, '--yes', '--no-create-kube-config', '--admin'], { KUBECONFIG: file });
    expect(both.status).not.toBe(0);
    expect(both.stderr).toContain('--admin, --user and --internal write the kubeconfig; drop --no-create-kube-config');
    // A kubeconfig that cannot be written does not fail an update that was applied: it is a warning saying what to run.
    const unwritable = kforge(['update', 'cluster', LIFE, '--yes', '--admin'], { KUBECONFIG: '/dev/null/config' });
    expect(unwritable.status).toBe(0);
    expect(unwritable.stderr).toContain(`Warning: the kubeconfig was not written (`);
    expect(unwritable.stderr).toContain(`run "kforge export kubeconfig ${LIFE} --admin"`);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('an edit shows as per-file diffs of the managed files and a new launch template version; --yes applies it', async () => {
    expect(kforge(['set', 'cluster', LIFE, 'spec.kubelet.maxPods=50']).status).toBe(0);
    const plan = kforge(['update', 'cluster', LIFE, '--detailed-exitcode']);
    expect(plan.status).toBe(2);
    expect(plan.stdout).toMatch(/^Will modify resources:\n/);
    // The completed spec and every nodeup config change, each shown with its changed lines.
    expect(plan.stdout).toMatch(new RegExp(`\\n  ManagedFile\\n    ${LIFE.replace(/\./g, '\\.')}/cluster-completed\\.spec\\n(      .*\\n)*      \\+ +maxPods: 50\\n`));
    expect(plan.stdout).toContain(`    ${LIFE}/igconfig/node/nodes-us-east-1a/nodeupconfig.yaml\n`);
    // The user-data carries the nodeup config's hash: each launch template gets a new version.
    expect(plan.stdout).toMatch(new RegExp(`\\n  LaunchTemplate\\n    control-plane-us-east-1a\\.${LIFE.replace(/\./g, '\\.')}\\n      userDataSha256 `));
    expect(plan.stdout).not.toMatch(/Will create resources|PRIVATE KEY/);
    const applied = kforge(['update', 'cluster', LIFE, '--yes']);
    expect(applied.status).toBe(0);
    const versions = (await ec2.send(new DescribeLaunchTemplatesCommand({ Filters: tagged(LIFE) }))).LaunchTemplates?.map((t) => t.LatestVersionNumber);
    expect(versions).toEqual([2, 2]);
    expect(kforge(['update', 'cluster', LIFE]).stdout).toMatch(/^No changes/);
  });

  it('publishes the OIDC discovery documents to spec.serviceAccountIssuerDiscovery.discoveryStore, as managed files of the plan', async () => {
    const irsa = 'irsa.example.com';
    await s3.send(new CreateBucketCommand({ Bucket: 'kforge-oidc' }));
    const store = `s3://kforge-oidc/${irsa}`;
    const created = kforge(['create', 'cluster', irsa, '--zones', 'us-east-1a', '--cloud', 'aws', '--dns', 'none', '--set', `spec.serviceAccountIssuerDiscovery.discoveryStore=${store}`]);
    expect(created.stderr).toBe('');
    const plan = kforge(['update', 'cluster', irsa]);
    expect(plan.stdout).toContain(`  ManagedFile\n`);
    expect(plan.stdout).toContain(`    ${store}/.well-known/openid-configuration\n`);
    expect(plan.stdout).toContain(`    ${store}/openid/v1/jwks\n`);
    expect(kforge(['update', 'cluster', irsa, '--yes']).status).toBe(0);
    const read = async (key: string) => JSON.parse(await (await s3.send(new GetObjectCommand({ Bucket: 'kforge-oidc', Key: `${irsa}/${key}` }))).Body!.transformToString()) as Record<string, unknown>;
    const issuer = `https://kforge-oidc.s3.us-east-1.amazonaws.com/${irsa}`;
    expect(await read('.well-known/openid-configuration')).toMatchObject({ issuer, jwks_uri: `${issuer}/openid/v1/jwks` });
    const jwks = (await read('openid/v1/jwks')) as { keys: Array<{ kty: string; alg: string; kid: string }> };
    expect(jwks.keys.map((k) => [k.kty, k.alg])).toEqual([['RSA', 'RS256']]);
    // The API server signs with the key the JWKS publishes: the same issuer in its flags.
    const nodeup = await (await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: `${irsa}/igconfig/controlplane/control-plane-us-east-1a/nodeupconfig.yaml` }))).Body!.transformToString();
    expect(nodeup).toContain(`--service-account-issuer=${issuer}`);
    expect(kforge(['update', 'cluster', irsa]).stdout).toMatch(/^No changes/);
  });

  it('delete instancegroup --yes deletes the group’s ASG, launch template, role and profile at once (as kops); update then deletes only its nodeup config', async () => {
    expect(kforge(['create', 'instancegroup', 'extra', '--name', LIFE, '--subnet', 'us-east-1a', '--min-size', '1']).status).toBe(0);
    expect(kforge(['update', 'cluster', LIFE, '--yes']).status).toBe(0);
    const asgNames = async () =>
      ((await autoScaling.send(new DescribeAutoScalingGroupsCommand({}))).AutoScalingGroups ?? []).filter((g) => g.Tags?.some((t) => t.Key === 'KubernetesCluster' && t.Value === LIFE)).map((g) => g.AutoScalingGroupName).sort();
    expect(await asgNames()).toContain(`extra.${LIFE}`);
    const deleted = kforge(['delete', 'instancegroup', 'extra', '--name', LIFE, '--yes']);
    expect(deleted.status).toBe(0);
    expect(deleted.stdout).toContain(`Deleted autoscaling-group extra.${LIFE}\n`);
    expect(await asgNames()).toEqual([`control-plane-us-east-1a.${LIFE}`, `nodes-us-east-1a.${LIFE}`]);
    expect((await ec2.send(new DescribeLaunchTemplatesCommand({ Filters: tagged(LIFE) }))).LaunchTemplates?.map((t) => t.LaunchTemplateName).sort()).toEqual([
      `control-plane-us-east-1a.${LIFE}`,
      `nodes-us-east-1a.${LIFE}`,
    ]);
    await expect(iam.send(new GetRoleCommand({ RoleName: `nodes-extra.${LIFE}` }))).rejects.toMatchObject({ name: 'NoSuchEntityException' });

    const plan = kforge(['update', 'cluster', LIFE]);
    expect(plan.stdout).toContain(['Will delete resources:', '  ManagedFile', `    ${LIFE}/igconfig/node/extra/nodeupconfig.yaml`, '', '0 to create, 0 to modify, 1 to delete'].join('\n'));
    const applied = kforge(['update', 'cluster', LIFE, '--yes']);
    expect(applied.stderr).not.toMatch(/Error/);
    expect(kforge(['update', 'cluster', LIFE]).stdout).toMatch(/^No changes/);
  });

  it('delete cluster --yes then leaves nothing tagged for the cluster, no IAM role and no state', async () => {
    const listed = kforge(['delete', 'cluster', LIFE]);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(/^TYPE +NAME +ID\n/);
    expect(listed.stdout).toContain('Must specify --yes to delete cluster');
    const deleted = kforge(['delete', 'cluster', LIFE, '--yes']);
    expect(deleted.stderr).not.toMatch(/Error/);
    expect(deleted.status).toBe(0);
    expect((await ec2.send(new DescribeVpcsCommand({ Filters: tagged(LIFE) }))).Vpcs).toEqual([]);
    expect((await ec2.send(new DescribeSubnetsCommand({ Filters: tagged(LIFE) }))).Subnets).toEqual([]);
    expect((await ec2.send(new DescribeSecurityGroupsCommand({ Filters: tagged(LIFE) }))).SecurityGroups).toEqual([]);
    expect((await ec2.send(new DescribeLaunchTemplatesCommand({ Filters: tagged(LIFE) }))).LaunchTemplates).toEqual([]);
    expect((await ec2.send(new DescribeVolumesCommand({ Filters: tagged(LIFE) }))).Volumes?.filter((v) => v.State !== 'deleted')).toEqual([]);
    const running = (await ec2.send(new DescribeInstancesCommand({ Filters: [...tagged(LIFE), { Name: 'instance-state-name', Values: ['pending', 'running'] }] }))).Reservations ?? [];
    expect(running.flatMap((r) => r.Instances ?? [])).toEqual([]);
    const asgs = (await autoScaling.send(new DescribeAutoScalingGroupsCommand({}))).AutoScalingGroups?.filter((g) => g.Tags?.some((t) => t.Key === 'KubernetesCluster' && t.Value === LIFE));
    expect(asgs).toEqual([]);
    await expect(iam.send(new GetRoleCommand({ RoleName: `masters.${LIFE}` }))).rejects.toMatchObject({ name: 'NoSuchEntityException' });
    expect((await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `${LIFE}/` }))).Contents ?? []).toEqual([]);
  });

  it('fails at once without credentials, before any plan, and leaves the store as it was', async () => {
    const before = (await s3.send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents?.map((o) => `${o.Key}@${o.ETag}`);
    // The S3 store needs credentials too, so the run stops at the first store read: clearly, and before any plan.
    const r = kforge(['update', 'cluster', LIFE, '--yes'], { ...AWS_NO_CREDENTIALS });
    expect(r.status).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/no AWS credentials found/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect((await s3.send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents?.map((o) => `${o.Key}@${o.ETag}`)).toEqual(before);
  });

  it('with a local store, missing credentials fail at the STS check, before any plan is printed', () => {
    const store = path.join(home, 'local-store');
    const local = (args: string[], extra: NodeJS.ProcessEnv = {}): CliResult => runCli([...args, '--state', store], { env: { ...env, ...extra } });
    expect(local(['create', 'cluster', 'n.example.com', '--zones', 'us-east-1a', '--cloud', 'aws']).status).toBe(0);
    const r = local(['update', 'cluster', 'n.example.com'], { ...AWS_NO_CREDENTIALS });
    expect(r.status).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^(.*\.\.\.\n)*Error: no AWS credentials found: set AWS_PROFILE/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses update --yes with a local store before any cloud call or store write, naming s3:// and create state-store; a plan only warns', async () => {
    const dir = path.join(home, 'local-only-store');
    const store = `file://${dir}`;
    const local = (args: string[], extra: NodeJS.ProcessEnv = {}): CliResult => runCli([...args, '--state', store], { env: { ...env, ...extra } });
    expect(local(['create', 'cluster', 'local.example.com', '--zones', 'us-east-1a', '--cloud', 'aws']).status).toBe(0);
    const snapshot = (): string[] => fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort().map((f) => {
      const full = path.join(dir, f);
      return fs.statSync(full).isFile() ? `${f}:${fs.readFileSync(full, 'base64')}` : f;
    });
    const before = snapshot();
    // Without credentials: were any AWS call made first, the run would fail on credentials instead.
    const r = local(['update', 'cluster', 'local.example.com', '--yes'], { KFORGE_ALLOW_LOCAL_STATE_FOR_NODES: undefined, ...AWS_NO_CREDENTIALS });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/s3:\/\//);
    expect(r.stderr).toMatch(/kforge create state-store/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(snapshot()).toEqual(before);
    const vpcs = (await ec2.send(new DescribeVpcsCommand({ Filters: tagged('local.example.com') }))).Vpcs;
    expect(vpcs).toEqual([]);
    // The same refusal in-process, with its stable code.
    const { updateCluster } = await import('../../src/ops/update-cluster');
    const { openVfs } = await import('../../src/state/vfs/open-vfs');
    const refused = await updateCluster(openVfs(store), 'local.example.com', { yes: true, lock: { command: 'test', forceUnlock: false, ttlSeconds: 60 }, env: {} }).catch((e: unknown) => e);
    expect((refused as { code?: string }).code).toBe('STATE_STORE_NOT_FOR_NODES');
    expect(snapshot()).toEqual(before);
    // A plan still runs, and says why it could not be applied.
    const plan = local(['update', 'cluster', 'local.example.com'], { KFORGE_ALLOW_LOCAL_STATE_FOR_NODES: undefined });
    expect(plan.status).toBe(0);
    expect(plan.stderr).toMatch(/Warning: the state store file:\/\/\S+ is not one AWS nodes can read/);
    expect(plan.stdout).toMatch(/Must specify --yes/);
  });

  it('refuses a GCE cluster without a project before any cloud call, naming the field', () => {
    const gce = kforge(['create', 'cluster', 'g.example.com', '--zones', 'us-central1-a', '--cloud', 'gce']);
    if (gce.status !== 0) throw new Error(gce.stderr);
    const r = kforge(['update', 'cluster', 'g.example.com']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/spec\.project is required on GCE/);
    expect(r.stdout).toBe('');
  });
});

describe('create cluster --yes and --target terraform run update, as kops\'s create does', () => {
  const QUICK = 'quick.example.com';

  it('create cluster --yes creates the cloud resources and an admin kubeconfig in one command; delete --yes removes them', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'config');
    const r = kforge(['create', 'cluster', QUICK, '--zones', 'us-east-1a', '--dns', 'none', '--yes'], { KUBECONFIG: file });
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`Created cluster ${QUICK} in state store ${STORE}`);
    expect(r.stdout).toContain(`Cluster "${QUICK}" updated.`);
    expect(r.stdout).toMatch(/The admin certificate expires at /);
    const asgs = (await autoScaling.send(new DescribeAutoScalingGroupsCommand({}))).AutoScalingGroups?.filter((g) => g.Tags?.some((t) => t.Key === 'KubernetesCluster' && t.Value === QUICK)) ?? [];
    expect(asgs.map((g) => g.AutoScalingGroupName).sort()).toEqual([`control-plane-us-east-1a.${QUICK}`, `nodes-us-east-1a.${QUICK}`]);
    const kc = yaml.load(fs.readFileSync(file, 'utf8')) as { users: Array<{ user: Record<string, string> }> };
    expect(Object.keys(kc.users[0].user).sort()).toEqual(['client-certificate-data', 'client-key-data']);
    expect(kforge(['delete', 'cluster', QUICK, '--yes']).status).toBe(0);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('create cluster --target terraform --out writes kubernetes.tf and makes no mutating call', async () => {
    const out = tempDir();
    const r = kforge(['create', 'cluster', 'tf.example.com', '--zones', 'us-east-1a', '--dns', 'none', '--target', 'terraform', '--out', out, '--verbose']);
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`Terraform output written to ${out}: kubernetes.tf`);
    expect(fs.readFileSync(path.join(out, 'kubernetes.tf'), 'utf8')).toContain('resource "aws_autoscaling_group"');
    expect(Object.keys(operations(r)).filter((op) => !/^(Describe|Get|List)/.test(op))).toEqual([]);
    const bad = kforge(['create', 'cluster', 'tf2.example.com', '--zones', 'us-east-1a', '--out', out]);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('--out is for --target terraform');
    fs.rmSync(out, { recursive: true, force: true });
  });

  it('--discovery-store puts the cluster\'s discovery documents under <store>/<cluster>', () => {
    const r = kforge(['create', 'cluster', 'oidc.example.com', '--zones', 'us-east-1a', '--discovery-store', 's3://public-oidc/', '--dry-run', '-o', 'yaml']);
    expect(r.status).toBe(0);
    const cluster = (yaml.loadAll(r.stdout) as Array<{ kind: string; spec: { serviceAccountIssuerDiscovery?: object } }>).find((d) => d.kind === 'Cluster');
    expect(cluster?.spec.serviceAccountIssuerDiscovery).toEqual({ discoveryStore: 's3://public-oidc/oidc.example.com' });
  });
});
