import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Thin wrappers around the openssl CLI, the independent judge of the certificates kforge builds.
 * Shared by the PKI unit tests and the keypair CLI tests.
 */

/** Runs openssl; throws with its stderr when it exits non-zero. */
export function openssl(args: string[], cwd?: string): string {
  const r = spawnSync('openssl', args, { encoding: 'utf8', cwd });
  if (r.status !== 0) throw new Error(`openssl ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

/**
 * `openssl verify -x509_strict -CAfile ca cert [-purpose p]`: returns what openssl printed (stdout and
 * stderr, trimmed), so a test can expect exactly `<cert>: OK` and see openssl's reason when it is not.
 */
export function verify(caFile: string, certFile: string, purpose?: 'sslclient' | 'sslserver'): string {
  const r = spawnSync('openssl', ['verify', '-x509_strict', ...(purpose ? ['-purpose', purpose] : []), '-CAfile', caFile, certFile], { encoding: 'utf8' });
  return `${r.stdout}${r.stderr}`.trim();
}

/** One X.509v3 extension as `openssl x509 -noout -ext` prints it. */
export interface OpensslExtension {
  critical: boolean;
  /** The value lines, trimmed and joined with ", ". */
  value: string;
}

/** The extensions openssl reads from a certificate file, by openssl's display name (e.g. "Key Usage"). */
export function extensions(certFile: string): Record<string, OpensslExtension> {
  const out = openssl(['x509', '-noout', '-ext', 'basicConstraints,keyUsage,extendedKeyUsage,subjectAltName,subjectKeyIdentifier,authorityKeyIdentifier', '-in', certFile]);
  const result: Record<string, OpensslExtension> = {};
  let current: OpensslExtension | undefined;
  for (const line of out.split('\n')) {
    if (line.trim() === '') continue;
    const header = /^X509v3 (.+?):( critical)?\s*$/.exec(line);
    if (header) {
      current = { critical: header[2] !== undefined, value: '' };
      result[header[1]] = current;
    } else if (current) {
      current.value = current.value ? `${current.value}, ${line.trim()}` : line.trim();
    }
  }
  return result;
}

/** The comma-separated entries of an extension value (key usages, SANs), or [] when absent. */
export function entries(ext: OpensslExtension | undefined): string[] {
  return ext ? ext.value.split(',').map((s) => s.trim()).filter((s) => s !== '') : [];
}

/** The full `openssl x509 -noout -text` dump (UTF-8 names). */
export function certText(certFile: string): string {
  return openssl(['x509', '-noout', '-text', '-nameopt', 'utf8,sep_comma_plus_space', '-in', certFile]);
}

/** Writes a PEM to `dir/name` and returns the path. */
export function writePem(dir: string, name: string, pem: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, pem);
  return file;
}

/**
 * A self-signed CA made by `openssl req -x509 -newkey <newkey>`: the certificate and key file paths.
 * keyUsage defaults to keyCertSign, cRLSign, digitalSignature (critical).
 */
export function opensslCa(dir: string, name: string, newkey: string[], subject: string, keyUsage = 'critical,keyCertSign,cRLSign,digitalSignature'): { cert: string; key: string } {
  const cert = path.join(dir, `${name}.crt`);
  const key = path.join(dir, `${name}.key`);
  openssl(['req', '-x509', ...newkey, '-nodes', '-keyout', key, '-out', cert, '-subj', subject, '-days', '365', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', `keyUsage=${keyUsage}`]);
  return { cert, key };
}

/** Every PEM certificate in a bundle, parsed. */
export function bundleCertificates(bundle: string): X509Certificate[] {
  return (bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n?/g) ?? []).map((pem) => new X509Certificate(pem));
}

/** A certificate's serial number in decimal (kops's and kforge's key id). */
export function decimalSerial(cert: X509Certificate): string {
  return BigInt(`0x${cert.serialNumber}`).toString();
}

/**
 * Whether text holds a private key: in clear, or base64-encoded the way keyset files store PEM material
 * (a literal search for "PRIVATE KEY" would miss a leaked `privateMaterial`).
 */
export function containsPrivateKey(text: string): boolean {
  if (text.includes('PRIVATE KEY')) return true;
  for (const token of text.match(/[A-Za-z0-9+/=]{40,}/g) ?? []) {
    if (Buffer.from(token, 'base64').toString('latin1').includes('PRIVATE KEY')) return true;
  }
  return false;
}
