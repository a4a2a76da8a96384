import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import * as fs from 'node:fs';
import * as https from 'node:https';
import * as os from 'node:os';
import * as path from 'node:path';
import { EC2Client, RunInstancesCommand, TerminateInstancesCommand } from '@aws-sdk/client-ec2';
import { IAMClient, CreateRoleCommand } from '@aws-sdk/client-iam';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import type { AwsCredentials } from '../../src/node-identity/aws-identity-token';
import { BOOTSTRAP_API_VERSION } from '../../src/node-identity/node-identity-server';
import type { MotoServer } from '../helpers/moto-server';

/** moto's built-in account (every moto ARN carries it). */
export const MOTO_ACCOUNT = '123456789012';
const IMAGE = 'ami-0a0b1c2d3e4f50001'; // test/fixtures/moto-amis.json (MOTO_WITH_DEFAULT_IMAGE)

/** AWS clients for a moto server with its dummy credentials. */
export function motoClients(moto: MotoServer): { ec2: EC2Client; iam: IAMClient; sts: STSClient } {
  const config = { endpoint: moto.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } };
  return { ec2: new EC2Client(config), iam: new IAMClient(config), sts: new STSClient(config) };
}

/** A running instance tagged as kforge's launch templates tag a group's instances. */
export async function launchInstance(ec2: EC2Client, cluster: string, group: string): Promise<{ id: string; privateDnsName: string }> {
  const out = await ec2.send(
    new RunInstancesCommand({
      ImageId: IMAGE,
      MinCount: 1,
      MaxCount: 1,
      InstanceType: 't3.medium',
      TagSpecifications: [{ ResourceType: 'instance', Tags: [{ Key: 'KubernetesCluster', Value: cluster }, { Key: `kubernetes.io/cluster/${cluster}`, Value: 'owned' }, { Key: 'kops.k8s.io/instancegroup', Value: group }] }],
    }),
  );
  const i = out.Instances?.[0];
  return { id: i?.InstanceId ?? '', privateDnsName: i?.PrivateDnsName ?? '' };
}

/** Terminates an instance (moto makes it `terminated` at once). */
export async function terminate(ec2: EC2Client, id: string): Promise<void> {
  await ec2.send(new TerminateInstancesCommand({ InstanceIds: [id] }));
}

/** Creates a role (idempotent per test file: call once per name). */
export async function createRole(iam: IAMClient, name: string): Promise<string> {
  const out = await iam.send(new CreateRoleCommand({ RoleName: name, AssumeRolePolicyDocument: '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"ec2.amazonaws.com"},"Action":"sts:AssumeRole"}]}' }));
  return out.Role?.Arn ?? '';
}

/**
 * The credentials EC2 gives an instance of `roleArn` through IMDS: an AssumeRole session named after the
 * instance id, which is what EC2 itself does (moto then answers GetCallerIdentity with
 * assumed-role/<role>/<instance id> for them, as AWS does).
 */
export async function instanceRoleCredentials(sts: STSClient, roleArn: string, instanceId: string): Promise<AwsCredentials> {
  const out = await sts.send(new AssumeRoleCommand({ RoleArn: roleArn, RoleSessionName: instanceId }));
  const c = out.Credentials;
  return { accessKeyId: c?.AccessKeyId ?? '', secretAccessKey: c?.SecretAccessKey ?? '', sessionToken: c?.SessionToken };
}

/** A bootstrap body for a fresh ECDSA key made "on the node". */
export function bootstrapBody(nodeName: string, certs: string[] = ['kubelet']): { body: string; privateKeys: Record<string, string> } {
  const publics: Record<string, string> = {};
  const privateKeys: Record<string, string> = {};
  for (const c of certs) {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    publics[c] = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    privateKeys[c] = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  }
  return { body: JSON.stringify({ apiVersion: BOOTSTRAP_API_VERSION, nodeName, certs: publics }), privateKeys };
}

/** POSTs to the service over TLS pinned to its CA, with the serving name's SNI. */
export function post(port: number, ca: string, body: string | Buffer, authorization?: string, servername = 'kops-controller.internal.a.example.com'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      { host: '127.0.0.1', port, path: '/bootstrap', method: 'POST', ca, servername, headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** `openssl verify -x509_strict` of certificates against a CA file; returns the exit status and output. */
export function opensslVerify(caPem: string, certPems: string[]): { status: number; output: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kforge-ni-'));
  fs.writeFileSync(path.join(dir, 'ca.crt'), caPem);
  const files = certPems.map((pem, i) => {
    const f = path.join(dir, `c${i}.crt`);
    fs.writeFileSync(f, pem);
    return f;
  });
  try {
    return { status: 0, output: execFileSync('openssl', ['verify', '-x509_strict', '-CAfile', path.join(dir, 'ca.crt'), ...files], { encoding: 'utf8' }) };
  } catch (e) {
    const err = e as { status: number; stdout: string; stderr: string };
    return { status: err.status, output: `${err.stdout}${err.stderr}` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** `openssl x509 -noout -subject -nameopt RFC2253` of a certificate. */
export function opensslSubject(certPem: string): string {
  return execFileSync('openssl', ['x509', '-noout', '-subject', '-nameopt', 'RFC2253'], { input: certPem, encoding: 'utf8' }).trim();
}
