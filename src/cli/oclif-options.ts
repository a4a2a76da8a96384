import * as path from 'node:path';
import { Command, Errors, Interfaces, Plugin } from '@oclif/core';
import type * as Snapshot from './oclif-snapshot';
import { stdinIsEmpty } from './stdin-is-empty';

/**
 * The root plugin as oclif's discovery found it at build time (scripts/oclif-snapshot.js): its command
 * manifest serves the command table and help, and a command's class is loaded only when it runs.
 */
class SnapshotPlugin extends Plugin {
  constructor(
    root: string,
    snapshot: (typeof Snapshot)['SNAPSHOT'],
    private readonly loaders: (typeof Snapshot)['COMMAND_LOADERS'],
  ) {
    super({ root, name: snapshot.plugin.name, isRoot: true, pjson: snapshot.pjson });
    const s = snapshot.plugin;
    Object.assign(this, {
      root,
      pjson: snapshot.pjson,
      isRoot: true,
      alreadyLoaded: true,
      name: s.name,
      alias: s.alias,
      version: s.version,
      type: s.type,
      tag: s.tag,
      valid: s.valid,
      hooks: s.hooks,
      moduleType: s.moduleType,
      commandIDs: s.commandIDs,
      manifest: s.manifest,
    });
    // As Plugin.load() lists them: the manifest's entries, each loading its class on demand, in the order
    // its localeCompare sort gave at build time (that sort's first call alone costs several milliseconds).
    this.commands = s.commandOrder.map((id) => {
      const c = s.manifest.commands[id];
      return { ...c, load: async () => this.findCommand(id, { must: true }), pluginAlias: s.alias, pluginType: c.pluginType === 'jit' ? 'jit' : s.type };
    });
  }

  override async load(): Promise<void> {
    // Everything load() would find is in the snapshot.
  }

  override async findCommand(id: string, opts: { must: true }): Promise<Command.Class>;
  override async findCommand(id: string, opts?: { must: boolean }): Promise<Command.Class | undefined>;
  override async findCommand(id: string, opts?: { must: boolean }): Promise<Command.Class | undefined> {
    const loader = Object.hasOwn(this.loaders, id) ? this.loaders[id] : undefined;
    if (!loader) {
      if (opts?.must) Errors.error(`command ${id} not found`);
      return undefined;
    }
    const cmd = loader();
    // What Plugin.findCommand sets on a class it loads.
    cmd.id = id;
    cmd.plugin = this;
    // oclif reads stdin for a missing optional argument (a pipe's text becomes the argument). When stdin
    // is known to give nothing, reading it could only find nothing, at the cost of opening it.
    const args = Object.values(cmd.args ?? {});
    if (args.length > 0 && stdinIsEmpty()) for (const arg of args) arg.ignoreStdin = true;
    return cmd;
  }
}

/**
 * Options for oclif's Config.load: the build-time snapshot of the CLI's plugin when there is one, so oclif
 * skips reading package.json, plugin discovery and loading every command; else the package root, which
 * makes oclif discover everything itself (a checkout where only tsc has run).
 */
export async function oclifOptions(): Promise<Interfaces.LoadOptions> {
  // dist/cli and dist/bundle are both two levels below the package root.
  const root = path.resolve(__dirname, '..', '..');
  let snapshot: typeof Snapshot;
  try {
    snapshot = await import('./oclif-snapshot');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' && String((e as Error).message).includes('oclif-snapshot')) return root;
    throw e;
  }
  const plugin = new SnapshotPlugin(root, snapshot.SNAPSHOT, snapshot.COMMAND_LOADERS);
  return { root, pjson: snapshot.SNAPSHOT.pjson, plugins: new Map([[plugin.name, plugin]]) };
}
