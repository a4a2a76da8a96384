import { createPrivateKey, KeyObject, X509Certificate } from 'node:crypto';
import { UsageError } from '../errors/usage-error';
import { readLimited } from '../util/read-limited';
import { Keypair } from './keypair';

/** Reads a user-supplied CA certificate and key and checks they can serve as a kforge CA; UsageError naming the flag and file otherwise. */
export async function loadCaKeypairFiles(certFile: string, keyFile: string, now: Date = new Date()): Promise<Keypair> {
  const certText = await readFlagFile('--cert', certFile);
  const keyText = await readFlagFile('--key', keyFile);
  if (!certText.includes('-----BEGIN CERTIFICATE-----')) throw new UsageError(`--cert ${certFile}: not a PEM certificate (expected "-----BEGIN CERTIFICATE-----")`);
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certText);
  } catch {
    throw new UsageError(`--cert ${certFile}: the PEM certificate cannot be parsed`);
  }
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: 4,ENCRYPTED/.test(keyText)) throw new UsageError(`--key ${keyFile}: encrypted private keys are not supported; decrypt it first (openssl pkey -in ${keyFile} -out plain.pem)`);
  if (!/-----BEGIN (RSA |EC )?PRIVATE KEY-----/.test(keyText)) throw new UsageError(`--key ${keyFile}: not a PEM private key (expected "-----BEGIN PRIVATE KEY-----", RSA or EC)`);
  let key: KeyObject;
  try {
    key = createPrivateKey(keyText);
  } catch {
    throw new UsageError(`--key ${keyFile}: the PEM private key cannot be parsed`);
  }
  const problem = unsupportedKey(key);
  if (problem) throw new UsageError(`--key ${keyFile}: ${problem}; kforge accepts RSA (2048 bits or more) and ECDSA P-256 or P-384 keys`);
  if (!cert.checkPrivateKey(key)) throw new UsageError(`--key ${keyFile} does not belong to the certificate in --cert ${certFile} (the public keys differ)`);
  if (!cert.ca) throw new UsageError(`--cert ${certFile}: "${cert.subject.replace(/\n/g, ', ')}" is not a CA certificate: it needs basicConstraints CA:TRUE and, if it has a keyUsage extension, keyCertSign in it`);
  if (Date.parse(cert.validTo) <= now.getTime()) throw new UsageError(`--cert ${certFile}: the certificate expired on ${new Date(cert.validTo).toISOString()}`);
  if (Date.parse(cert.validFrom) > now.getTime() + 3600_000) throw new UsageError(`--cert ${certFile}: the certificate is not valid until ${new Date(cert.validFrom).toISOString()}`);
  // Like kops, the key id of an imported key is its certificate's serial number in decimal.
  const id = BigInt(`0x${cert.serialNumber}`).toString();
  return new Keypair(id, cert.toString(), key.export({ type: 'pkcs8', format: 'pem' }).toString());
}

function unsupportedKey(key: KeyObject): string | undefined {
  const d = key.asymmetricKeyDetails ?? {};
  if (key.asymmetricKeyType === 'rsa') return (d.modulusLength ?? 0) < 2048 ? `an RSA key of ${d.modulusLength} bits is too weak` : undefined;
  if (key.asymmetricKeyType === 'ec') return d.namedCurve === 'prime256v1' || d.namedCurve === 'secp384r1' ? undefined : `the curve ${d.namedCurve} is not supported`;
  return `${key.asymmetricKeyType} keys are not supported`;
}

/** The largest PEM file read (a certificate or key is a few KiB); a bigger one, or /dev/zero, is refused. */
const MAX_PEM_FILE_BYTES = 1024 * 1024;

async function readFlagFile(flag: string, file: string): Promise<string> {
  try {
    const read = await readLimited(file, MAX_PEM_FILE_BYTES);
    if (read.truncated) throw new UsageError(`${flag} ${file}: is larger than 1 MiB, too large for a PEM file`);
    return read.bytes.toString('utf8');
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'is a directory' : String(code ?? e);
    throw new UsageError(`${flag} ${file}: cannot read: ${why}`);
  }
}
