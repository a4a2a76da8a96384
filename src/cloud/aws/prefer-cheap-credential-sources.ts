import * as fs from 'node:fs';

/**
 * Off EC2, the SDK's last credential source, the instance metadata service, costs 1-3 s to time out where
 * packets to it are dropped (a laptop); the machine's firmware says whether it can be there, so the probe
 * is skipped elsewhere. AWS_EC2_METADATA_DISABLED, when set, decides instead.
 */
export function preferCheapCredentialSources(env: NodeJS.ProcessEnv): void {
  if (env.AWS_EC2_METADATA_DISABLED !== undefined || process.env.AWS_EC2_METADATA_DISABLED !== undefined) return;
  if (!mayBeEc2()) process.env.AWS_EC2_METADATA_DISABLED = 'true';
}

/** Whether this may be an EC2 instance: on Linux its DMI vendor or Xen UUID says so; other systems are assumed not. */
function mayBeEc2(): boolean {
  if (process.platform !== 'linux') return false;
  for (const file of ['/sys/class/dmi/id/sys_vendor', '/sys/class/dmi/id/bios_vendor', '/sys/class/dmi/id/board_vendor', '/sys/hypervisor/uuid']) {
    try {
      const text = fs.readFileSync(file, 'utf8').trim().toLowerCase();
      if (text.includes('amazon') || text.startsWith('ec2')) return true;
    } catch {
      // Unreadable or absent: this file says nothing.
    }
  }
  return false;
}
