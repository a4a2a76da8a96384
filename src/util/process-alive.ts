/**
 * Whether a process of this host with that pid is running. A pid reused since by another process reads
 * as alive, which errs on the side of waiting. EPERM means it exists but belongs to another user.
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
