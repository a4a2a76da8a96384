import { CreateHostedZoneCommand, Route53Client } from '@aws-sdk/client-route-53';
import { CreateVpcCommand, EC2Client } from '@aws-sdk/client-ec2';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { runCli, tempDir, CliResult } from '../helpers/cli';
import { AWS_NO_CREDENTIALS, MotoServer, startMotoServer } from '../helpers/moto-server';

// `create cluster NAME --dns public|private` without --dns-zone finds the Route 53 zone by walking up the
// name, as kops's FindDNSHostedZone does, against moto's Route 53: accepted and resolved at create, never
// accepted at create and refused at update.

let moto: MotoServer;
let route53: Route53Client;
let ec2: EC2Client;
let dir: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  moto = await startMotoServer();
  const client = { region: 'us-east-1', endpoint: moto.endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } };
  route53 = new Route53Client(client);
  ec2 = new EC2Client(client);
  const zone = async (key: string, name: string, privateVpc?: string) => {
    const out = await route53.send(
      new CreateHostedZoneCommand({
        Name: name,
        CallerReference: key,
        ...(privateVpc ? { VPC: { VPCId: privateVpc, VPCRegion: 'us-east-1' }, HostedZoneConfig: { PrivateZone: true } } : {}),
      }),
    );
    ids[key] = (out.HostedZone?.Id ?? '').replace(/^\/hostedzone\//, '');
  };
  const vpc = (await ec2.send(new CreateVpcCommand({ CidrBlock: '10.7.0.0/16' }))).Vpc?.VpcId as string;
  await zone('example', 'example.com');
  await zone('sub', 'sub.example.com');
  await zone('private', 'example.com', vpc);
  await zone('twin-1', 'twin.org');
  await zone('twin-2', 'twin.org');
  dir = tempDir();
});

afterAll(async () => {
  route53?.destroy();
  ec2?.destroy();
  await moto?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const create = (name: string, args: string[], extra: NodeJS.ProcessEnv = {}): CliResult =>
  runCli(['create', 'cluster', name, '--zones', 'us-east-1a', '--state', dir, ...args], { env: { ...moto.env, AWS_EC2_METADATA_DISABLED: 'true', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...extra } });
const storedZone = (name: string): string | undefined => (yaml.load(fs.readFileSync(path.join(dir, name, 'config'), 'utf8')) as { spec: { dnsZone?: string } }).spec.dnsZone;

it('--dns public takes the longest public zone that is a suffix of the name, by id', () => {
  const r = create('a.sub.example.com', ['--dns', 'public']);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect(storedZone('a.sub.example.com')).toBe(ids.sub);
  expect(create('b.example.com', ['--dns', 'public']).status).toBe(0);
  expect(storedZone('b.example.com')).toBe(ids.example);
});

it('--dns private takes the private zone, even where a public one has the same name', () => {
  expect(create('p.example.com', ['--dns', 'private', '--topology', 'private']).status).toBe(0);
  expect(storedZone('p.example.com')).toBe(ids.private);
});

it('no matching zone, or two of the same name, is an error on --dns-zone that writes nothing', () => {
  const none = create('x.other.net', ['--dns', 'public']);
  expect(none.status).not.toBe(0);
  expect(none.stderr).toContain('--dns-zone: no public Route 53 hosted zone is a suffix of "x.other.net": create one (e.g. "other.net") first');
  expect(none.stderr).not.toMatch(/\n\s+at /);
  const twins = create('x.twin.org', ['--dns', 'public']);
  expect(twins.status).not.toBe(0);
  expect(twins.stderr).toContain(`--dns-zone: 2 public Route 53 hosted zones named "twin.org" match "x.twin.org" (${[ids['twin-1'], ids['twin-2']].sort().join(', ')})`);
  expect(fs.existsSync(path.join(dir, 'x.other.net'))).toBe(false);
  expect(fs.existsSync(path.join(dir, 'x.twin.org'))).toBe(false);
});

it('--dns-zone given, or --dns none, makes no AWS call: it works without credentials', () => {
  expect(create('c.example.com', ['--dns-zone', 'example.com'], AWS_NO_CREDENTIALS).status).toBe(0);
  expect(create('d.example.com', ['--dns', 'none'], AWS_NO_CREDENTIALS).status).toBe(0);
  const needs = create('e.example.com', ['--dns', 'public'], AWS_NO_CREDENTIALS);
  expect(needs.status).not.toBe(0);
  expect(needs.stderr).toMatch(/no AWS credentials found: .*; finding the Route 53 zone of e\.example\.com needs them \(or give --dns-zone\); nothing was written/);
  expect(fs.existsSync(path.join(dir, 'e.example.com'))).toBe(false);
});
