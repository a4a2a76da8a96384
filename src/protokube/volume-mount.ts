import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ProtokubeError } from './protokube-error';

/** Where to look for a volume's device, and how long to wait for it. */
export interface DeviceLookup {
  /** Where by-id links appear (`/dev/disk/by-id`); a test passes a directory of its own. */
  deviceDir: string;
  /** The device name the attach asked for (`/dev/xvdu`), used when no by-id link exists (Xen instances). */
  attachDevice: string;
  timeoutMs: number;
  pollMs?: number;
}

/**
 * The local device of an attached EBS volume, once it appears: on Nitro instances the NVMe device whose
 * serial is the volume id, linked as `<deviceDir>/nvme-Amazon_Elastic_Block_Store_vol<hex>`; else the
 * device name given to AttachVolume. Waits, because the attach finishes in the cloud before the kernel
 * sees the device.
 */
export async function waitForDevice(volumeId: string, lookup: DeviceLookup): Promise<string> {
  const candidates = [path.join(lookup.deviceDir, `nvme-Amazon_Elastic_Block_Store_${volumeId.replace('-', '')}`), lookup.attachDevice];
  const deadline = Date.now() + lookup.timeoutMs;
  for (;;) {
    const found = candidates.find((c) => fs.existsSync(c));
    if (found) return found;
    if (Date.now() >= deadline) {
      throw new ProtokubeError(`volume ${volumeId} is attached but no device appeared within ${Math.round(lookup.timeoutMs / 1000)} s (looked for ${candidates.join(' and ')})`);
    }
    await new Promise((r) => setTimeout(r, lookup.pollMs ?? 500));
  }
}

/** What ensureMounted did. */
export interface MountResult {
  device: string;
  target: string;
  formatted: boolean;
  mounted: boolean;
}

/**
 * Mounts `device` at `target`, formatting it (ext4) only when it holds no filesystem at all, as blkid's
 * low-level probe says: a volume with data, or with anything blkid recognises, is never formatted. A target
 * that already has this device mounted is left as it is. `target` is a host path: protokube passes the
 * directory RootWriter made under its root (mount follows symlinks, so an unchecked path could mount
 * outside it).
 */
export function ensureMounted(device: string, target: string): MountResult {
  const real = fs.realpathSync(device);
  fs.mkdirSync(target, { recursive: true });
  if (mountedAt(target)) return { device: real, target, formatted: false, mounted: false };
  let formatted = false;
  const found = filesystemType(real);
  if (found?.startsWith('partition table')) throw new ProtokubeError(`${device} holds a ${found}, not a filesystem; not formatting or mounting it`);
  if (found === undefined) {
    run('mkfs.ext4', ['-q', real], `formatting ${device}`);
    formatted = true;
  }
  run('mount', [real, target], `mounting ${device} at ${target}`);
  return { device: real, target, formatted, mounted: true };
}

/**
 * What blkid's low-level probe finds on a device: its filesystem type, `partition table <type>` for a
 * partitioned disk, undefined when it finds nothing at all (exit status 2): only then is it blank.
 */
export function filesystemType(device: string): string | undefined {
  const r = spawnSync('blkid', ['-p', '-o', 'export', device], { encoding: 'utf8' });
  if (r.error) throw new ProtokubeError(`cannot run blkid to check ${device}: ${r.error.message}`);
  if (r.status === 2) return undefined;
  if (r.status !== 0) throw new ProtokubeError(`blkid ${device} failed (exit ${r.status}): ${r.stderr.trim()}; not formatting it`);
  const fields = new Map(r.stdout.split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  // Anything blkid recognises (a partition table, a RAID member…) counts as in use: never format it.
  return fields.get('TYPE') ?? (fields.has('PTTYPE') ? `partition table ${fields.get('PTTYPE')}` : 'unknown');
}

/** Whether something is mounted exactly at `target` (per /proc/self/mountinfo). */
export function mountedAt(target: string): boolean {
  const want = fs.realpathSync(target);
  const info = fs.readFileSync('/proc/self/mountinfo', 'utf8');
  // Field 5 is the mount point, with spaces and other bytes octal-escaped.
  return info.split('\n').some((line) => unescapeMount(line.split(' ')[4] ?? '') === want);
}

function unescapeMount(s: string): string {
  return s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
}

function run(cmd: string, args: string[], what: string): void {
  const r = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.error) throw new ProtokubeError(`${what}: cannot run ${cmd}: ${r.error.message}`);
  if (r.status !== 0) throw new ProtokubeError(`${what}: ${cmd} exited ${r.status}: ${(r.stderr || r.stdout).trim()}`);
}
