import * as fs from 'node:fs';
import * as path from 'node:path';
import { KforgeError } from '../errors/kforge-error';
import { remapFileUrl } from '../expand/components/images';
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

/** The pinned Node.js runtime (an LTS release): the version the nodeup bundle is built for (esbuild target node20). */
export const NODE_RUNTIME_VERSION = '20.18.0';

// sha256 of node-v20.18.0-linux-{x64,arm64}.tar.xz as nodejs.org publishes them in
// https://nodejs.org/dist/v20.18.0/SHASUMS256.txt.
const NODE_RUNTIME_SHA256: Record<BootArch, string> = {
  amd64: '4543670b589593f8fa5f106111fd5139081da42bb165a9239f05195e405f240a',
  arm64: 'a9ce85675ba33f00527f6234d90000946c0936fb4fca605f1891bb5f4fe6fb0a',
};

// nodejs.org serves every release under both paths: two URLs, one set of bytes.
const NODE_MIRRORS = ['https://nodejs.org/dist', 'https://nodejs.org/download/release'];

/**
 * Where a published nodeup bundle is found. kforge has no public artifact host: the `.invalid` host never
 * resolves, so a cluster needs `spec.assets.fileRepository` (a mirror holding `kforge/<version>/nodeup`)
 * or KFORGE_NODEUP. See docs/node-bootstrap.md.
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

/**
 * The runtime and nodeup downloads for user-data: the pinned Node.js release (nodejs.org and its mirror
 * path) and this build's nodeup bundle with the sha256 the build computed. With a file repository every
 * URL is moved onto it, path kept (remapFileUrl, as for every other asset), and only it is used (a
 * private mirror is often the only thing a node can reach), as kops does. As kops's NODEUP_URL and
 * NODEUP_HASH, the environment of the command rendering user-data can name other files: KFORGE_NODEUP,
 * KFORGE_NODE_RUNTIME_AMD64, KFORGE_NODE_RUNTIME_ARM64, each `<sha256>@<url>[,<mirror url>...]`; the
 * node checks whatever hash it is given.
 */
export function nodeupArtifacts(fileRepository: string | undefined, env: NodeJS.ProcessEnv = process.env, root: string = packageRoot()): NodeupArtifacts {
  const runtime = (arch: BootArch): BootDownload => {
    const file = `v${NODE_RUNTIME_VERSION}/node-v${NODE_RUNTIME_VERSION}-linux-${arch === 'amd64' ? 'x64' : 'arm64'}.tar.xz`;
    const urls = NODE_MIRRORS.map((m) => `${m}/${file}`);
    return override(env, `KFORGE_NODE_RUNTIME_${arch.toUpperCase()}`) ?? { sha256: NODE_RUNTIME_SHA256[arch], urls: fileRepository ? [remapFileUrl(urls[0], fileRepository)] : urls };
  };
  const nodeup = (): BootDownload => {
    const fromEnv = override(env, 'KFORGE_NODEUP');
    if (fromEnv) return fromEnv;
    const built = builtNodeupArtifact(root);
    return { sha256: built.sha256, urls: [remapFileUrl(`${NODEUP_BASE_URL}/kforge/${kforgeVersion(root)}/nodeup`, fileRepository)] };
  };
  return { runtime: { amd64: runtime('amd64'), arm64: runtime('arm64') }, nodeup: nodeup() };
}
