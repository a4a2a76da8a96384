import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import * as yaml from 'js-yaml';
import { UsageError } from '../errors/usage-error';

/** A named kubeconfig entry (`clusters[]`, `users[]`, `contexts[]`). */
export interface NamedEntry {
  name: string;
  [field: string]: unknown;
}

/** What one export adds to a kubeconfig. */
export interface KubeconfigEntries {
  cluster: NamedEntry;
  /** Omitted when the context refers to a user defined elsewhere (`--user`). */
  user?: NamedEntry;
  context: NamedEntry;
}

/** The kubeconfig file to write: --kubeconfig, else the first existing file in $KUBECONFIG (else its first), else ~/.kube/config. */
export async function kubeconfigPath(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  if (flag) return path.resolve(flag);
  const listed = (env.KUBECONFIG ?? '').split(path.delimiter).filter((p) => p !== '');
  for (const p of listed) {
    if (await fs.stat(p).then(() => true, () => false)) return path.resolve(p);
  }
  return listed.length > 0 ? path.resolve(listed[0]) : path.join(env.HOME ?? os.homedir(), '.kube', 'config');
}

/**
 * Merges entries into a kubeconfig file: same-named entries are replaced, every other cluster, user and
 * context is kept, and current-context is set. The file is replaced atomically with mode 0600, since it
 * may hold a private key; an unreadable or malformed file is an error, never overwritten.
 */
export async function mergeKubeconfig(file: string, entries: KubeconfigEntries): Promise<void> {
  const config = await readConfig(file);
  upsert(config, 'clusters', entries.cluster);
  if (entries.user) upsert(config, 'users', entries.user);
  upsert(config, 'contexts', entries.context);
  config['current-context'] = entries.context.name;
  const text = yaml.dump(config, { lineWidth: -1, noRefs: true });
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.kforge-${randomBytes(6).toString('hex')}`);
  try {
    await fs.writeFile(temp, text, { mode: 0o600, flag: 'wx' });
    await fs.chmod(temp, 0o600);
    await fs.rename(temp, file);
  } catch (e) {
    await fs.rm(temp, { force: true });
    throw new UsageError(`--kubeconfig ${file}: cannot write: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
}

/** Reads the users already defined in a kubeconfig (to tell whether a context has credentials). */
export async function existingUser(file: string, name: string): Promise<NamedEntry | undefined> {
  const config = await readConfig(file);
  return (config.users as NamedEntry[]).find((u) => u.name === name);
}

/** Reads a cluster entry already defined in a kubeconfig (to tell a first export from a later one). */
export async function existingCluster(file: string, name: string): Promise<NamedEntry | undefined> {
  const config = await readConfig(file);
  return (config.clusters as NamedEntry[]).find((c) => c.name === name);
}

async function readConfig(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return emptyConfig();
    throw new UsageError(`--kubeconfig ${file}: cannot read: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  let doc: unknown;
  try {
    doc = yaml.load(text);
  } catch (e) {
    const mark = (e as { mark?: { line: number } }).mark;
    throw new UsageError(`${file}${mark ? `:${mark.line + 1}` : ''}: not valid YAML; fix or move the file, kforge will not overwrite it`);
  }
  if (doc === undefined || doc === null) return emptyConfig();
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new UsageError(`${file}: not a kubeconfig (expected a mapping with clusters, users and contexts); kforge will not overwrite it`);
  const config = doc as Record<string, unknown>;
  for (const list of ['clusters', 'users', 'contexts']) {
    if (config[list] === undefined || config[list] === null) config[list] = [];
    if (!Array.isArray(config[list])) throw new UsageError(`${file}: "${list}" is not a list; kforge will not overwrite it`);
  }
  config.apiVersion ??= 'v1';
  config.kind ??= 'Config';
  return config;
}

function emptyConfig(): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Config', clusters: [], users: [], contexts: [], preferences: {} };
}

function upsert(config: Record<string, unknown>, list: string, entry: NamedEntry): void {
  const items = config[list] as NamedEntry[];
  const i = items.findIndex((e) => e && e.name === entry.name);
  if (i >= 0) items[i] = entry;
  else items.push(entry);
}
