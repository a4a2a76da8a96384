import { createHash } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import { UsageError } from '../errors/usage-error';
import { readLimited } from '../util/read-limited';

/** The largest SSH public key file read (a key is well under 16 KiB); a bigger one, or /dev/zero, is refused. */
const MAX_KEY_FILE_BYTES = 1024 * 1024;

/** An SSH public key read from a file, with kops's fingerprint (md5 of the key blob, hex). */
export interface SshPublicKey {
  text: string;
  fingerprint: string;
}

const KEY_TYPES = ['ssh-rsa', 'ssh-ed25519', 'ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp384', 'ecdsa-sha2-nistp521', 'sk-ssh-ed25519@openssh.com'];

/** Reads and checks an OpenSSH public key file; refuses private keys loudly. */
export async function readSshPublicKey(file: string): Promise<SshPublicKey> {
  const full = path.resolve(file.startsWith('~/') ? path.join(os.homedir(), file.slice(2)) : file);
  let read;
  try {
    read = await readLimited(full, MAX_KEY_FILE_BYTES);
  } catch (e) {
    throw new UsageError(`--ssh-public-key: cannot read ${full}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  if (read.truncated) throw new UsageError(`--ssh-public-key: ${full} is larger than 1 MiB; an OpenSSH public key is one short line`);
  const text = read.bytes.toString('utf8').trim();
  if (text.includes('PRIVATE KEY')) throw new UsageError(`--ssh-public-key: ${full} is a private key; pass the .pub file`);
  const [type, blob] = text.split(/\s+/);
  if (!KEY_TYPES.includes(type) || !blob || !/^[A-Za-z0-9+/]+=*$/.test(blob)) {
    throw new UsageError(`--ssh-public-key: ${full} is not an OpenSSH public key (expected "${KEY_TYPES.slice(0, 2).join('" or "')} AAAA…")`);
  }
  return { text: `${text}\n`, fingerprint: createHash('md5').update(Buffer.from(blob, 'base64')).digest('hex') };
}
