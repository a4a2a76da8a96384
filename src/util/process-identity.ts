import * as fs from 'node:fs';

/**
 * What makes a pid recorded by one process comparable with the pids another process sees: the boot
 * (a pid of an earlier boot means nothing now) and the pid namespace (a container, or `unshare --pid`,
 * numbers its processes afresh, so pid 7 there is another process than pid 7 here). Each field is
 * undefined where /proc does not tell (not Linux, /proc not mounted).
 */
export interface ProcessIdentity {
  /** /proc/sys/kernel/random/boot_id. */
  bootId?: string;
  /** The inode of the pid namespace, e.g. `pid:[4026531836]` (readlink /proc/<pid>/ns/pid). */
  pidNamespace?: string;
  /** The process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat): tells a reused pid apart. */
  startTime?: string;
}

/** The identity of this process. */
export function selfIdentity(): ProcessIdentity {
  return { bootId: readTrimmed('/proc/sys/kernel/random/boot_id'), pidNamespace: pidNamespaceOf('self'), startTime: startTimeOf('self') };
}

/** The pid namespace of `pid` as this process sees it; undefined when it cannot be read (gone, another user's, no /proc). */
export function pidNamespaceOf(pid: number | 'self'): string | undefined {
  try {
    return fs.readlinkSync(`/proc/${pid}/ns/pid`);
  } catch {
    return undefined;
  }
}

/** The start time (clock ticks since boot) of `pid` as this process sees it; undefined when it cannot be read. */
export function startTimeOf(pid: number | 'self'): string | undefined {
  const stat = readTrimmed(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  // Field 2 (comm) is in parentheses and may hold spaces and parentheses: count fields after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields after comm start at field 3, so field 22 is index 19.
  const value = fields[19];
  return value !== undefined && /^\d+$/.test(value) ? value : undefined;
}

function readTrimmed(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
