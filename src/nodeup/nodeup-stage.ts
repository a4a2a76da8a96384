import * as fs from 'node:fs';
import * as path from 'node:path';

/** Where nodeup records its stage under the root, for `validate cluster` and people on the machine. */
export const NODEUP_STATUS_PATH = '/var/lib/kforge/nodeup-status.json';

/** A stage of a nodeup run, in order; `failed: <code>` ends a run that stopped. */
export type NodeupStage = 'config-fetched' | 'keysets-read' | 'assets-installed' | 'files-written' | 'done' | `failed: ${string}`;

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
 * atomically, and one line `kforge-nodeup-stage: <stage>` to stderr and, when it can be opened for
 * writing, the console. Recording never fails the run: a status that cannot be written is reported on
 * stderr and the run goes on.
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
  const file = path.join(sinks.root, NODEUP_STATUS_PATH);
  const status = { stage, cluster: sinks.cluster, instanceGroup: sinks.instanceGroup, time: now.toISOString() };
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
    const temp = `${file}.kforge-${process.pid}.tmp`;
    fs.writeFileSync(temp, `${JSON.stringify(status, null, 2)}\n`, { mode: 0o644 });
    fs.renameSync(temp, file);
  } catch (e) {
    process.stderr.write(`warning: cannot record the nodeup stage in ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}\n`);
  }
}
