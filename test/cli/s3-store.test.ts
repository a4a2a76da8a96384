import {
  GetBucketEncryptionCommand,
  GetBucketOwnershipControlsCommand,
  GetBucketVersioningCommand,
  GetObjectAclCommand,
  GetObjectCommand,
  GetPublicAccessBlockCommand,
  HeadObjectCommand,
  ListBucketsCommand,
  ListObjectsV2Command,
  ListObjectVersionsCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { spawnSync } from 'node:child_process';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { CliResult, expectCleanFailure, ROOT, runCli, runCliAsync, startCli, tempDir } from '../helpers/cli';
import { AWS_NO_CREDENTIALS, MotoServer, startMotoServer } from '../helpers/moto-server';
import { CLUSTER_KEYSETS, singleZoneClusterObjects, singleZoneUserObjects } from '../helpers/cluster-layout';
import { builtNodeupArtifact } from '../../src/model/nodeup-artifacts';

// The update of an s3:// store uploads this build's nodeup bundle for the nodes (node-bootstrap.md).
const NODEUP_SHA256 = builtNodeupArtifact().sha256;
import { writeManagedFilesOf } from '../helpers/write-managed-files';

// The CLI as users run it (bin/run.js, built dist/) against a real moto_server.

const BUCKET = 'kforge-state';
const STORE = `s3://${BUCKET}/some/prefix`;
const DEMO = 'demo.k8s.local';
const LOCK_KEY = `some/prefix/${DEMO}/kforge-lock.json`;
const PUBLIC_GROUPS = ['http://acs.amazonaws.com/groups/global/AllUsers', 'http://acs.amazonaws.com/groups/global/AuthenticatedUsers'];
const HOLDER = `${os.userInfo().username}@${os.hostname()}`;

let moto: MotoServer;
let s3: S3Client;
let savedWarningSetting: string | undefined;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  moto = await startMotoServer();
  // This process's own S3 client would otherwise print the SDK's notice about future Node versions.
  savedWarningSetting = process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  home = tempDir('kforge-s3-cli-');
  // Nothing from the developer's own AWS setup may leak into the child processes.
  env = {
    ...moto.env,
    AWS_EC2_METADATA_DISABLED: 'true',
    HOME: home,
    AWS_PROFILE: undefined,
    AWS_SESSION_TOKEN: undefined,
    AWS_ENDPOINT_URL_S3: undefined,
    AWS_CONFIG_FILE: path.join(home, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: path.join(home, 'no-aws-credentials'),
    KFORGE_STATE_S3_KMS_KEY_ID: undefined,
    KFORGE_LOCK_TTL_SECONDS: undefined,
    KUBECONFIG: undefined,
    KUBE_EDITOR: undefined,
    EDITOR: 'true',
  };
  s3 = new S3Client({ region: 'us-east-1', endpoint: moto.endpoint, forcePathStyle: true, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
});

afterAll(async () => {
  s3?.destroy();
  await moto?.stop();
  if (home) fs.rmSync(home, { recursive: true, force: true });
  if (savedWarningSetting === undefined) delete process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
  else process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = savedWarningSetting;
});

const kforge = (args: string[], extra: NodeJS.ProcessEnv = {}): CliResult => runCli(args, { env: { ...env, ...extra } });

async function listKeys(bucket: string, prefix = ''): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
    keys.push(...(page.Contents ?? []).map((o) => o.Key ?? ''));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys.sort();
}

/** Every version and delete marker in the bucket plus the bucket list: any write at all changes it. */
async function snapshot(): Promise<string[]> {
  const buckets = ((await s3.send(new ListBucketsCommand({}))).Buckets ?? []).map((b) => `bucket ${b.Name}`);
  const out = await s3.send(new ListObjectVersionsCommand({ Bucket: BUCKET }));
  expect(out.IsTruncated).toBeFalsy();
  const versions = [...(out.Versions ?? []), ...(out.DeleteMarkers ?? [])].map((v) => `${v.Key}@${v.VersionId}`);
  return [...buckets, ...versions].sort();
}

async function objectExists(key: string): Promise<boolean> {
  return (await listKeys(BUCKET, key)).includes(key);
}

async function readText(key: string): Promise<string> {
  const out = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return (await out.Body?.transformToString()) ?? '';
}

describe('create state-store s3://', () => {
  it('creates a versioned, private, encrypted bucket, and refuses an existing one', async () => {
    const r = kforge(['create', 'state-store', `s3://${BUCKET}`]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`Created state store s3://${BUCKET}`);
    expect((await s3.send(new GetBucketVersioningCommand({ Bucket: BUCKET }))).Status).toBe('Enabled');
    expect((await s3.send(new GetPublicAccessBlockCommand({ Bucket: BUCKET }))).PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      IgnorePublicAcls: true,
      BlockPublicPolicy: true,
      RestrictPublicBuckets: true,
    });
    const rules = (await s3.send(new GetBucketEncryptionCommand({ Bucket: BUCKET }))).ServerSideEncryptionConfiguration?.Rules ?? [];
    expect(rules.map((x) => x.ApplyServerSideEncryptionByDefault?.SSEAlgorithm)).toEqual(['AES256']);
    const ownership = (await s3.send(new GetBucketOwnershipControlsCommand({ Bucket: BUCKET }))).OwnershipControls?.Rules ?? [];
    expect(ownership.map((x) => x.ObjectOwnership)).toEqual(['BucketOwnerEnforced']);

    const again = kforge(['create', 'state-store', `s3://${BUCKET}`]);
    expectCleanFailure(again);
    expect(again.stderr).toContain(`bucket "${BUCKET}" already exists`);
  });
});

describe(`create cluster ${DEMO} --state ${STORE}`, () => {
  it('writes exactly the cluster objects (update the PKI and managed files), each encrypted with AES256 and without public grants', async () => {
    const r = kforge(['create', 'cluster', DEMO, '--zones', 'us-east-1a', '--state', STORE]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`Created cluster ${DEMO} in state store ${STORE}`);
    expect(await listKeys(BUCKET)).toEqual(singleZoneUserObjects(`some/prefix/${DEMO}/`, 'us-east-1a'));
    await writeManagedFilesOf(STORE, DEMO, env);
    const keys = await listKeys(BUCKET);
    expect(keys).toEqual(singleZoneClusterObjects(`some/prefix/${DEMO}/`, 'us-east-1a', NODEUP_SHA256));
    expect(keys.filter((k) => k.includes('/pki/private/'))).toHaveLength(CLUSTER_KEYSETS.length);
    expect(keys.filter((k) => k.includes('/pki/issued/'))).toHaveLength(CLUSTER_KEYSETS.length);
    for (const key of keys) {
      const head = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
      expect({ key, sse: head.ServerSideEncryption }).toEqual({ key, sse: 'AES256' });
      const acl = await s3.send(new GetObjectAclCommand({ Bucket: BUCKET, Key: key }));
      const grantees = (acl.Grants ?? []).map((g) => g.Grantee);
      expect(grantees.filter((g) => g?.URI !== undefined && PUBLIC_GROUPS.includes(g.URI))).toEqual([]);
      // Only the bucket owner: ACLs are disabled (BucketOwnerEnforced) and kforge sends none.
      expect(grantees.every((g) => g?.Type === 'CanonicalUser' && g.ID === acl.Owner?.ID)).toBe(true);
    }
    expect(await readText(`some/prefix/${DEMO}/pki/private/kubernetes-ca/keyset.yaml`)).toContain('privateMaterial');
    expect(await readText(`some/prefix/${DEMO}/pki/issued/kubernetes-ca/keyset.yaml`)).not.toContain('privateMaterial');
  });

  it('get clusters, get all -o yaml and get keypairs read it back from the s3 store', () => {
    const list = kforge(['get', 'clusters', '--state', STORE]);
    expect(list.status).toBe(0);
    expect(list.stdout.trim().split('\n')).toEqual([expect.stringMatching(/^NAME\s+CLOUD\s+ZONES$/), expect.stringMatching(/^demo\.k8s\.local\s+aws\s+us-east-1a$/)]);

    // A cluster with its instance groups, as "replace -f" takes it.
    const one = kforge(['get', 'all', DEMO, '-o', 'yaml', '--state', STORE]);
    expect(one.status).toBe(0);
    const docs = yaml.loadAll(one.stdout) as Array<{ kind: string; metadata: { name: string }; spec: { cloudProvider?: string } }>;
    expect(docs.map((d) => `${d.kind}/${d.metadata.name}`)).toEqual([`Cluster/${DEMO}`, 'InstanceGroup/control-plane-us-east-1a', 'InstanceGroup/nodes-us-east-1a']);
    expect(docs[0].spec.cloudProvider).toBe('aws');
    const full = kforge(['get', 'cluster', DEMO, '--full', '-o', 'yaml', '--state', STORE]);
    expect(full.status).toBe(0);
    expect((yaml.load(full.stdout) as { spec: { configBase: string } }).spec.configBase).toBe(`${STORE}/${DEMO}`);

    const kp = kforge(['get', 'keypairs', '--name', DEMO, '-o', 'json', '--state', STORE]);
    expect(kp.stderr).toBe('');
    expect(kp.status).toBe(0);
    const rows = JSON.parse(kp.stdout) as Array<{ keyset: string; primary: boolean }>;
    expect(rows.map((x) => x.keyset).sort()).toEqual(CLUSTER_KEYSETS);
    expect(rows.every((x) => x.primary)).toBe(true);
    expect(kp.stdout).not.toContain('PRIVATE KEY');
  });
});

describe('KFORGE_STATE_S3_KMS_KEY_ID', () => {
  it('encrypts the bucket default and every object with aws:kms and that key', async () => {
    // A real key in moto's KMS; moto routes by X-Amz-Target and does not check the signature.
    const res = await fetch(moto.endpoint, {
      method: 'POST',
      headers: {
        'X-Amz-Target': 'TrentService.CreateKey',
        'Content-Type': 'application/x-amz-json-1.1',
        Authorization: 'AWS4-HMAC-SHA256 Credential=test/20260101/us-east-1/kms/aws4_request, SignedHeaders=host, Signature=0',
      },
      body: JSON.stringify({ Description: 'kforge state' }),
    });
    expect(res.status).toBe(200);
    const keyId = ((await res.json()) as { KeyMetadata: { KeyId: string } }).KeyMetadata.KeyId;
    const kms = { KFORGE_STATE_S3_KMS_KEY_ID: keyId };

    expect(kforge(['create', 'state-store', 's3://kforge-kms'], kms).status).toBe(0);
    const rule = (await s3.send(new GetBucketEncryptionCommand({ Bucket: 'kforge-kms' }))).ServerSideEncryptionConfiguration?.Rules?.[0];
    expect(rule?.ApplyServerSideEncryptionByDefault).toEqual({ SSEAlgorithm: 'aws:kms', KMSMasterKeyID: keyId });

    const r = kforge(['create', 'cluster', 'kms.k8s.local', '--zones', 'us-east-1a', '--state', 's3://kforge-kms/k'], kms);
    expect(r.status).toBe(0);
    expect(await listKeys('kforge-kms')).toEqual(singleZoneUserObjects('k/kms.k8s.local/', 'us-east-1a'));
    await writeManagedFilesOf('s3://kforge-kms/k', 'kms.k8s.local', { ...env, ...kms });
    const keys = await listKeys('kforge-kms');
    expect(keys).toEqual(singleZoneClusterObjects('k/kms.k8s.local/', 'us-east-1a', NODEUP_SHA256));
    for (const key of keys) {
      const head = await s3.send(new HeadObjectCommand({ Bucket: 'kforge-kms', Key: key }));
      expect({ key, sse: head.ServerSideEncryption, kmsKey: head.SSEKMSKeyId }).toEqual({ key, sse: 'aws:kms', kmsKey: keyId });
    }
  });
});

describe('two simultaneous create cluster runs', () => {
  it('exactly one wins; the store holds one complete cluster', async () => {
    const args = ['create', 'cluster', 'race.k8s.local', '--zones', 'us-east-1a', '--state', STORE];
    const results = await Promise.all([runCliAsync(args, env), runCliAsync(args, env)]);
    expect(results.map((r) => r.status).sort()).toEqual([0, 1]);
    const loser = results.find((r) => r.status === 1) as CliResult;
    // The loser either finds the winner's lock or, if it came after, the finished cluster.
    expect(loser.stderr).toMatch(/^Error: cluster "race\.k8s\.local" (already exists|is locked by .* running "kforge create cluster race\.k8s\.local)/);
    expect(loser.stderr).not.toContain('    at ');
    const keys = await listKeys(BUCKET, 'some/prefix/race.k8s.local/');
    expect(keys).toEqual(singleZoneUserObjects('some/prefix/race.k8s.local/', 'us-east-1a'));
    const config = yaml.load(await readText('some/prefix/race.k8s.local/config')) as { kind: string; metadata: { name: string } };
    expect([config.kind, config.metadata.name]).toEqual(['Cluster', 'race.k8s.local']);
    expect(kforge(['get', 'cluster', 'race.k8s.local', '--state', STORE]).status).toBe(0);
  });
});

describe('export kubeconfig --admin from the s3 store', () => {
  it('writes a 0600 kubeconfig whose client certificate chains to the cluster CA and expires within 24 h', () => {
    const dir = tempDir('kforge-s3-kc-');
    const file = path.join(dir, 'kc');
    const r = kforge(['export', 'kubeconfig', DEMO, '--admin', '--kubeconfig', file, '--state', STORE]);
    // Not applied to AWS: the load balancer that would name the server does not exist yet.
    expect(r.stderr).toMatch(/^Warning: cluster "[^"]+" has no DNS name for its API and no load balancer yet[^\n]*\n$/);
    expect(r.status).toBe(0);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const kc = yaml.load(fs.readFileSync(file, 'utf8')) as {
      clusters: Array<{ name: string; cluster: Record<string, string> }>;
      users: Array<{ name: string; user: Record<string, string> }>;
    };
    const decode = (b64: string | undefined) => Buffer.from(b64 ?? '', 'base64').toString();
    const caPem = decode(kc.clusters.find((c) => c.name === DEMO)?.cluster['certificate-authority-data']);
    const user = kc.users.find((u) => u.name === DEMO)?.user ?? {};
    const certPem = decode(user['client-certificate-data']);
    fs.writeFileSync(path.join(dir, 'ca.pem'), caPem);
    fs.writeFileSync(path.join(dir, 'admin.pem'), certPem);
    const verify = spawnSync('openssl', ['verify', '-CAfile', path.join(dir, 'ca.pem'), path.join(dir, 'admin.pem')], { encoding: 'utf8' });
    expect(verify.stdout.trim()).toBe(`${path.join(dir, 'admin.pem')}: OK`);
    expect(verify.status).toBe(0);
    const cert = new X509Certificate(certPem);
    expect(cert.subject).toContain('O=system:masters');
    expect(cert.checkPrivateKey(createPrivateKey(decode(user['client-key-data'])))).toBe(true);
    const hoursLeft = (Date.parse(cert.validTo) - Date.now()) / 3_600_000;
    expect(hoursLeft).toBeLessThan(24);
    expect(hoursLeft).toBeGreaterThan(17);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('the cluster lock in the s3 store', () => {
  it('a second process fails fast naming the holder while the first edits; the lock is gone afterwards', async () => {
    const editor = path.join(home, 'slow-editor.sh');
    fs.writeFileSync(editor, '#!/bin/sh\nsleep 5\nexit 0\n', { mode: 0o755 });
    const first = startCli(['edit', 'cluster', DEMO, '--state', STORE], { ...env, EDITOR: editor });
    const deadline = Date.now() + 15_000;
    while (!(await objectExists(LOCK_KEY))) {
      if (first.finished() || Date.now() > deadline) throw new Error(`no lock object appeared: ${JSON.stringify(await first.done)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const lease = JSON.parse(await readText(LOCK_KEY)) as { holder: string; pid: number; command: string; ttlSeconds: number };
    expect(lease.pid).toBe(first.pid);
    expect(lease.holder).toBe(HOLDER);
    expect(lease.command).toBe(`kforge edit cluster ${DEMO} --state ${STORE}`);
    expect(lease.ttlSeconds).toBe(60);

    const started = Date.now();
    const second = await runCliAsync(['edit', 'cluster', DEMO, '--state', STORE], { ...env, EDITOR: 'true' });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(first.finished()).toBe(false);
    expectCleanFailure(second);
    expect(second.stderr).toContain(`Error: cluster "${DEMO}" is locked by ${HOLDER} (pid ${first.pid}) running "kforge edit cluster ${DEMO}`);
    expect(second.stderr).toContain('--force-unlock');

    const done = await first.done;
    expect(done.stderr).toBe('');
    expect(done.status).toBe(0);
    expect(done.stdout).toContain('Edit cancelled, no changes made');
    expect(await objectExists(LOCK_KEY)).toBe(false);
  });

  const putLease = (renewedAgoMs: number, holder: string, pid: number) => {
    const at = (ms: number) => new Date(Date.now() - ms).toISOString();
    const body = JSON.stringify({ holder, pid, command: `kforge edit cluster ${DEMO}`, acquiredAt: at(renewedAgoMs + 60_000), renewedAt: at(renewedAgoMs), ttlSeconds: 60 });
    return s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: LOCK_KEY, Body: body, ServerSideEncryption: 'AES256' }));
  };

  it('a stale lease is taken over with a warning that it expired', async () => {
    await putLease(10 * 60_000, 'ghost@old-host', 4242);
    const r = kforge(['edit', 'cluster', DEMO, '--state', STORE]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Edit cancelled, no changes made');
    expect(r.stderr).toMatch(/^Warning: taking over the expired lock of cluster "demo\.k8s\.local" from ghost@old-host \(pid 4242\)/);
    expect(await objectExists(LOCK_KEY)).toBe(false);
  });

  it('a live lease stops delete cluster --yes; --force-unlock proceeds with a warning', async () => {
    await putLease(0, 'someone@elsewhere', 31337);
    const versionsBefore = await snapshot();
    const refused = kforge(['delete', 'cluster', DEMO, '--yes', '--state', STORE]);
    expectCleanFailure(refused);
    expect(refused.stderr).toContain(`Error: cluster "${DEMO}" is locked by someone@elsewhere (pid 31337) running "kforge edit cluster ${DEMO}"`);
    expect(refused.stderr).toContain('--force-unlock');
    expect(await snapshot()).toEqual(versionsBefore);

    const forced = kforge(['delete', 'cluster', DEMO, '--yes', '--force-unlock', '--state', STORE]);
    expect(forced.status).toBe(0);
    expect(forced.stderr).toMatch(/^Warning: --force-unlock: taking the lock of cluster "demo\.k8s\.local" from someone@elsewhere \(pid 31337\)/);
    expect(forced.stdout).toContain(`Deleted cluster: "${DEMO}" (${singleZoneClusterObjects('', 'us-east-1a', NODEUP_SHA256).length} state objects)`);
    expect(await listKeys(BUCKET, `some/prefix/${DEMO}/`)).toEqual([]);
  });
});

describe('bad inputs with an s3 store: a clear error and nothing written', () => {
  const create = (state: string, zones = 'us-east-1a', name = 'bad.k8s.local') => ['create', 'cluster', name, '--zones', zones, '--state', state];
  const cases: Array<{ name: string; args: string[]; env?: NodeJS.ProcessEnv; expect: Array<string | RegExp> }> = [
    {
      name: 'a bucket that does not exist',
      args: create('s3://kforge-no-such-bucket'),
      expect: ['bucket "kforge-no-such-bucket" does not exist', 'kforge create state-store s3://kforge-no-such-bucket'],
    },
    { name: 'an invalid bucket name', args: create('s3://Bad_Bucket'), expect: ['"s3://Bad_Bucket" is not a valid S3 state store URL'] },
    { name: 'an unknown scheme', args: create('ftp://x'), expect: ['unsupported state store scheme "ftp://"', 's3://', 'gs://', 'file://'] },
    { name: 'no AWS credentials', args: create(STORE), env: AWS_NO_CREDENTIALS, expect: [/credentials/i, `s3://${BUCKET}`] },
    { name: 'an invalid spec (--zones nope)', args: create(STORE, 'nope'), expect: ['nope'] },
    { name: 'an invalid spec (--set spec.networkCIDR=172.20.0.0/33)', args: [...create(STORE, 'us-east-1a', 'cidr.k8s.local'), '--set', 'spec.networkCIDR=172.20.0.0/33'], expect: ['is not a valid CIDR'] },
    // Not even the lock is written (a versioned bucket would keep its versions).
    { name: 'an invalid manifest (create -f, an even etcd member count)', args: ['create', '-f', path.join(ROOT, 'test', 'fixtures', 'bad', 'etcd-even-members.yaml'), '--state', STORE], expect: ['etcd'] },
  ];

  it.each(cases)('$name', async (c) => {
    const before = await snapshot();
    const r = kforge(c.args, c.env);
    expectCleanFailure(r);
    for (const e of c.expect) expect(r.stderr).toMatch(e);
    expect(await snapshot()).toEqual(before);
  });
});

describe('--verbose with an s3:// store', () => {
  it('logs each state-store call with its duration and outcome, on stderr', () => {
    const r = kforge(['get', 'clusters', '--state', STORE, '--verbose']);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`^store: list ${STORE.replace(/[/.]/g, '\\$&')}/\\* \\d+ ms ok$`, 'm'));
  });
});
