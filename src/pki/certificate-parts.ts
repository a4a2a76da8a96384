import { X509Certificate } from 'node:crypto';
import { DerElement, derChildren, readDer } from './der-reader';

/** The parts of an existing certificate that issuing needs and Node's X509Certificate does not expose. */
export interface CertificateParts {
  /** The subject Name's exact DER bytes. */
  subjectDer: Buffer;
  /** The subjectKeyIdentifier extension's value, if present. */
  subjectKeyId?: Buffer;
}

/** Extracts the subject DER and subjectKeyIdentifier from a certificate; throws RangeError on malformed DER. */
export function certificateParts(cert: X509Certificate): CertificateParts {
  const tbs = derChildren(readDer(cert.raw))[0];
  const fields = derChildren(tbs);
  // With the optional [0] version present, the subject is field 5; without it, field 4.
  const offset = fields[0].tag === 0xa0 ? 1 : 0;
  const subjectDer = Buffer.from(fields[offset + 4].raw);
  const extTag = fields.find((f) => f.tag === 0xa3);
  let subjectKeyId: Buffer | undefined;
  if (extTag) {
    for (const ext of derChildren(derChildren(extTag)[0])) {
      const [oid, ...rest] = derChildren(ext);
      if (oidOf(oid) === '2.5.29.14') {
        const value = rest[rest.length - 1];
        subjectKeyId = Buffer.from(readDer(value.content).content);
      }
    }
  }
  return { subjectDer, subjectKeyId };
}

function oidOf(el: DerElement): string {
  const b = el.content;
  const parts = [Math.floor(b[0] / 40), b[0] % 40];
  let v = 0;
  for (let i = 1; i < b.length; i++) {
    v = v * 128 + (b[i] & 0x7f);
    if (!(b[i] & 0x80)) {
      parts.push(v);
      v = 0;
    }
  }
  return parts.join('.');
}
