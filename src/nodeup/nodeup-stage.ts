import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeRootEscapeError } from './node-root-escape-error';
import { RootWriter } from './root-writer';

/** Where nodeup records its stage under the root, for `validate cluster` and people on the machine. */
export const NODEUP_STATUS_PATH = '/var/lib/kforge/nodeup-status.json';

/** A stage of a nodeup run, in order; `failed: <code>` ends a run that stopped. */
export type NodeupStage = 'config-fetched' | 'keysets-read' | 'assets-installed' | 'certificates-issued' | 'files-written' | 'done' | `failed: ${string}`;

/** Where the stage line goes besides stderr: the serial console, which EC2's GetConsoleOutput shows without any permission on the node. */
export interface StageSinks {
  root: string;
  /** The console device; default `/dev/console` when the root is `/`, none otherwise (a --root run is not the machine's boot). */
  console?: string;
  /** What the stage is of, recorded in the status file. */
  cluster?: string;
  instanceGroup?: string;
  /** A dry run writes nothing: the line goes to stderr only. */
  dryRun?: boolean;
  /** Writes the stage line to stderr. */
  stderr?: (line: string) => void;
}

/**
 * Records a stage: `<root>/var/lib/kforge/nodeup-status.json` (stage, cluster, group, time) replaced
 * atomically through the RootWriter, and one line `kforge-nodeup-stage: <stage>` to stderr and, when it
 * can be opened for writing, the console. A status that cannot be written is reported on stderr and the run
 * goes on, except a path through a symlink out of the root: that throws NodeRootEscapeError.
 */
export function recordStage(stage: NodeupStage, sinks: StageSinks, now: Date = new Date()): void {
  const line = `kforge-nodeup-stage: ${stage}`;
  (sinks.stderr ?? ((l: string) => process.stderr.write(`${l}\n`)))(line);
  if (sinks.dryRun) return;
  const consolePath = sinks.console ?? (path.resolve(sinks.root) === '/' ? '/dev/console' : undefined);
  if (consolePath) {
    try {
      fs.appendFileSync(consolePath, `${line}\n`);
    } catch {
      // No console (a container, no permission): stderr and the status file carry the stage.
    }
  }
  const status = { stage, cluster: sinks.cluster, instanceGroup: sinks.instanceGroup, time: now.toISOString() };
  const writer = new RootWriter(sinks.root);
  try {
    writer.writeFile(NODEUP_STATUS_PATH, `${JSON.stringify(status, null, 2)}\n`, 0o644);
  } catch (e) {
    // A symlink out of the root is not a disk problem to shrug off: the run stops, naming it.
    if (e instanceof NodeRootEscapeError) throw e;
    process.stderr.write(`warning: cannot record the nodeup stage in ${writer.shown(NODEUP_STATUS_PATH)}: ${e instanceof Error ? e.message : String(e)}\n`);
  }
}
