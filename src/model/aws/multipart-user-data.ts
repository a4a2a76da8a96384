import type { UserData } from '../../api/types';

// kops sets the boundary explicitly (pkg/model/resources/nodeup.go), so the archive is deterministic.
const BOUNDARY = 'MIMEBOUNDARY';

/**
 * kops's AWSMultipartMIME: with `additionalUserData`, the user-data is a MIME multipart archive (cloud-init
 * runs each part) holding the boot script as `nodeup.sh` (none for a bastion) and then each of the group's
 * parts, byte for byte as Go's multipart writer writes them (CRLF, headers in canonical sorted order).
 * Without additional parts the boot script is returned as it is.
 */
export function multipartUserData(bootScript: string | undefined, additional: readonly UserData[] | undefined): string | undefined {
  if (!additional || additional.length === 0) return bootScript;
  const parts: Array<{ name: string; type: string; content: string }> = [];
  if (bootScript !== undefined) parts.push({ name: 'nodeup.sh', type: 'text/x-shellscript', content: bootScript });
  for (const d of additional) parts.push({ name: d.name ?? '', type: d.type ?? '', content: d.content ?? '' });
  let out = `Content-Type: multipart/mixed; boundary="${BOUNDARY}"\r\nMIME-Version: 1.0\r\n\r\n`;
  parts.forEach((p, i) => {
    out += `${i === 0 ? '' : '\r\n'}--${BOUNDARY}\r\n`;
    out += `Content-Disposition: attachment; filename="${p.name}"\r\nContent-Transfer-Encoding: 7bit\r\nContent-Type: ${p.type}\r\nMime-Version: 1.0\r\n\r\n`;
    out += p.content;
  });
  return `${out}\r\n--${BOUNDARY}--\r\n`;
}
