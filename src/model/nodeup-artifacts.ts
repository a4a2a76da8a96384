import * as fs from 'node:fs';
import * as path from 'node:path';
import { KforgeError } from '../errors/kforge-error';
import { remapFileUrl } from '../expand/components/images';
import { StatePaths } from '../state/state-paths';
import { packageRoot } from '../util/package-root';

/** A machine architecture user-data knows. */
export type BootArch = 'amd64' | 'arm64';

/** One file user-data downloads: its sha256 and the URLs to try in order (mirrors of the same bytes). */
export interface BootDownload {
  sha256: string;
  urls: string[];
}

/** What user-data installs before nodeup runs: the pinned Node.js runtime per architecture, and the nodeup bundle it runs. */
export interface NodeupArtifacts {
  runtime: Record<BootArch, BootDownload>;
  /** One JavaScript file, the same on every architecture. */
  nodeup: BootDownload;
}

/** The pinned Node.js runtime (an LTS release): the version the nodeup bundle is built for (esbuild target NODE_RUNTIME_TARGET). */
export const NODE_RUNTIME_VERSION = '24.15.0';

/** esbuild's target for the nodeup bundle: the pinned runtime's major version (scripts/build-nodeup.js reads it from dist/). */
export const NODE_RUNTIME_TARGET = 'node24';

// sha256 of node-v24.15.0-linux-{x64,arm64}.tar.xz as nodejs.org publishes them in
// https://nodejs.org/dist/v24.15.0/SHASUMS256.txt. This machine cannot reach nodejs.org: the values are
// the ones bazel-contrib/rules_nodejs pins for 24.15.0 (nodejs/private/node_versions.bzl at commit
// 87554ddb466475adb180c8ff7c8139a8494a8e58), which it copies from that SHASUMS256.txt. 24.x is the
// "Krypton" LTS line, supported until 2028-04-30 (nodejs/Release schedule.json); 26.x entered LTS on
// 2026-10-28 but no source reachable here publishes nodejs.org's SHASUMS256 values for any 26.x release,
// and a runtime whose published hash cannot be checked is not pinned. Node 20 reached end of life in April 2026.
const NODE_RUNTIME_SHA256: Record<BootArch, string> = {
  amd64: '472655581fb851559730c48763e0c9d3bc25975c59d518003fc0849d3e4ba0f6',
  arm64: 'f3d5a797b5d210ce8e2cb265544c8e482eaedcb8aa409a8b46da7e8595d0dda0',
};

// nodejs.org serves every release under both paths: two URLs, one set of bytes.
const NODE_MIRRORS = ['https://nodejs.org/dist', 'https://nodejs.org/download/release'];

/**
 * Where a published nodeup bundle would be found without a state store to deliver it: kforge has no public
 * artifact host, and the `.invalid` host never resolves. Used only when `spec.configBase` is not `s3://`
 * (update uploads the bundle to an S3 state store, see nodeupInStateStore) and for the path a
 * `spec.assets.fileRepository` serves (`kforge/<version>/nodeup`). See docs/node-bootstrap.md.
 */
export const NODEUP_BASE_URL = 'https://artifacts.kforge.invalid';

/** The nodeup artifact is missing from dist/ (no build) or not what the build writes (NODEUP_ARTIFACT_MISSING), or an override is malformed (INVALID_NODEUP_ARTIFACT). */
export class NodeupArtifactError extends KforgeError {
  constructor(code: 'NODEUP_ARTIFACT_MISSING' | 'INVALID_NODEUP_ARTIFACT', message: string) {
    super(code, message);
  }
}

/** What scripts/build-nodeup.js records about the bundle it built. */
interface BuiltArtifact {
  file: string;
  sha256: string;
}

/** dist/nodeup-artifact/nodeup-artifact.json, as written by scripts/build-nodeup.js for this build. */
export function builtNodeupArtifact(root: string = packageRoot()): BuiltArtifact & { path: string } {
  const file = path.join(root, 'dist', 'nodeup-artifact', 'nodeup-artifact.json');
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new NodeupArtifactError('NODEUP_ARTIFACT_MISSING', `${file}: cannot read the nodeup artifact's description (${(e as Error).message}); run "npm run build"`);
  }
  const a = data as Partial<BuiltArtifact>;
  if (typeof a.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(a.sha256) || a.file !== 'nodeup') throw new NodeupArtifactError('NODEUP_ARTIFACT_MISSING', `${file}: not a nodeup artifact description; run "npm run build"`);
  return { file: a.file, sha256: a.sha256, path: path.join(path.dirname(file), a.file) };
}

/** The package version, the folder of a published nodeup bundle. */
function kforgeVersion(root: string): string {
  return (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

/** A `<sha256>@<url>[,<url>...]` override from the environment (mirrors after the first URL), or undefined; anything else is an error naming the variable. */
function override(env: NodeJS.ProcessEnv, name: string): BootDownload | undefined {
  const v = env[name];
  if (v === undefined || v === '') return undefined;
  const m = /^([0-9a-f]{64})@(https?:\/\/[^\s,]+(?:,https?:\/\/[^\s,]+)*)$/.exec(v);
  if (!m) throw new NodeupArtifactError('INVALID_NODEUP_ARTIFACT', `${name}: ${JSON.stringify(v)} is not "<sha256>@<url>[,<url>...]"`);
  return { sha256: m[1], urls: m[2].split(',') };
}

/** The state store a boot script can read with the instance's own identity: S3 on AWS (the role), GCS on GCE (the service account). */
export type BootStoreScheme = 's3' | 'gs';

/** Whether the nodeup bundle is delivered through the state store: the cloud's store only, unless KFORGE_NODEUP or a file repository names another place. */
function deliveredByStateStore(configBase: string | undefined, fileRepository: string | undefined, env: NodeJS.ProcessEnv, scheme: BootStoreScheme): configBase is string {
  return !fileRepository && !override(env, 'KFORGE_NODEUP') && new RegExp(`^${scheme}://[^/]+/.`).test(configBase ?? '');
}

/** The nodeup bundle `update cluster` uploads into the state store: its key there (relative to the store), its sha256 and its file in dist/. */
export interface StateStoreNodeup {
  key: string;
  sha256: string;
  file: string;
}

/**
 * The nodeup bundle of this build as a state-store object, when user-data fetches it from there: the
 * cluster's `spec.configBase` is `s3://` and neither `spec.assets.fileRepository` nor KFORGE_NODEUP names
 * another place; otherwise undefined. The key is content-addressed (`<cluster>/assets/nodeup/<sha256>/nodeup`),
 * so it is written once and never changed, and every build's bundle has its own.
 */
export function nodeupInStateStore(cluster: string, configBase: string | undefined, fileRepository: string | undefined, env: NodeJS.ProcessEnv = process.env, root: string = packageRoot(), scheme: BootStoreScheme = 's3'): StateStoreNodeup | undefined {
  if (!deliveredByStateStore(configBase, fileRepository, env, scheme)) return undefined;
  const built = builtNodeupArtifact(root);
  return { key: StatePaths.nodeupArtifact(cluster, built.sha256), sha256: built.sha256, file: built.path };
}

/**
 * The runtime and nodeup downloads for user-data: the pinned Node.js release (nodejs.org and its mirror
 * path) and this build's nodeup bundle with the sha256 the build computed. With a file repository every
 * URL is moved onto it, path kept (remapFileUrl, as for every other asset), and only it is used (a
 * private mirror is often the only thing a node can reach), as kops does. As kops's NODEUP_URL and
 * NODEUP_HASH, the environment of the command rendering user-data can name other files: KFORGE_NODEUP,
 * KFORGE_NODE_RUNTIME_AMD64, KFORGE_NODE_RUNTIME_ARM64, each `<sha256>@<url>[,<mirror url>...]`; the
 * node checks whatever hash it is given. Otherwise, with an `s3://` configBase, nodeup's URL is its object
 * in the state store (`<configBase>/assets/nodeup/<sha256>/nodeup`, uploaded by update), which user-data
 * reads with the instance role (on GCE, `scheme` `gs`: a `gs://` configBase, read with the service account).
 */
export function nodeupArtifacts(fileRepository: string | undefined, env: NodeJS.ProcessEnv = process.env, root: string = packageRoot(), configBase?: string, scheme: BootStoreScheme = 's3'): NodeupArtifacts {
  const runtime = (arch: BootArch): BootDownload => {
    const file = `v${NODE_RUNTIME_VERSION}/node-v${NODE_RUNTIME_VERSION}-linux-${arch === 'amd64' ? 'x64' : 'arm64'}.tar.xz`;
    const urls = NODE_MIRRORS.map((m) => `${m}/${file}`);
    return override(env, `KFORGE_NODE_RUNTIME_${arch.toUpperCase()}`) ?? { sha256: NODE_RUNTIME_SHA256[arch], urls: fileRepository ? [remapFileUrl(urls[0], fileRepository)] : urls };
  };
  const nodeup = (): BootDownload => {
    const fromEnv = override(env, 'KFORGE_NODEUP');
    if (fromEnv) return fromEnv;
    const built = builtNodeupArtifact(root);
    // configBase is `<store>/<cluster>`, and StatePaths keys start with the cluster's name.
    if (deliveredByStateStore(configBase, fileRepository, env, scheme)) return { sha256: built.sha256, urls: [`${configBase.replace(/\/+$/, '')}/${StatePaths.nodeupArtifact('', built.sha256).slice(1)}`] };
    return { sha256: built.sha256, urls: [remapFileUrl(`${NODEUP_BASE_URL}/kforge/${kforgeVersion(root)}/nodeup`, fileRepository)] };
  };
  return { runtime: { amd64: runtime('amd64'), arm64: runtime('arm64') }, nodeup: nodeup() };
}
