import { generateKeyPairSync, KeyObject, X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import { newCluster } from '../../src/create/new-cluster';
import { expandCluster } from '../../src/ops/expand-cluster';
import { buildCertificate, CertificateSpec, CertificateSubject } from '../../src/pki/certificate-builder';
import { Der } from '../../src/pki/der';
import { derChildren, readDer } from '../../src/pki/der-reader';
import { issueKeypair } from '../../src/pki/issue-keypair';
import { issueApiServerCertificate } from '../../src/pki/issue-serving-certificate';
import type { Keypair } from '../../src/pki/keypair';
import { loadCaKeypairFiles } from '../../src/pki/load-keypair-files';
import { tempDir } from '../helpers/cli';
import { certText, decimalSerial, entries, extensions, openssl, opensslCa, verify, writePem } from './openssl';

/**
 * kforge encodes certificates itself (src/pki/der.ts); these tests push the encoder to its edges and
 * let openssl judge the result: long-form lengths, INTEGER sign bytes, GeneralizedTime, IPv6, UTF-8,
 * and issuers whose Name and key identifier come from certificates kforge did not make.
 */

const YEAR_MS = 365 * 24 * 3600 * 1000;
let dir: string;
beforeAll(() => {
  dir = tempDir('kforge-der-');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('Der (bytes)', () => {
  it.each([
    [0, '00'],
    [127, '7f'],
    [128, '8180'],
    [255, '81ff'],
    [256, '820100'],
    [65535, '82ffff'],
    [65536, '83010000'],
  ])('encodes a length of %i as %s and reads it back', (len, header) => {
    const el = Der.octetString(Buffer.alloc(len, 0xab));
    expect(el.subarray(1, 1 + header.length / 2).toString('hex')).toBe(header);
    expect(el.length).toBe(1 + header.length / 2 + len);
    const back = readDer(el);
    expect([back.tag, back.content.length, back.raw.length]).toEqual([0x04, len, el.length]);
  });

  it.each([
    [0n, '020100'],
    [1n, '020101'],
    [127n, '02017f'],
    [128n, '02020080'],
    [255n, '020200ff'],
    [256n, '02020100'],
    [0x8000000000000000n, '0209008000000000000000'],
  ])('encodes INTEGER %s minimally, with a 0x00 byte when the high bit is set', (value, hex) => {
    expect(Der.integer(value).toString('hex')).toBe(hex);
  });

  it('refuses a negative INTEGER', () => {
    expect(() => Der.integer(-1n)).toThrow(RangeError);
  });

  it.each([
    ['1950-01-01T00:00:00.000Z', 0x17, '500101000000Z'],
    ['2049-12-31T23:59:59.999Z', 0x17, '491231235959Z'],
    ['2050-01-01T00:00:00.000Z', 0x18, '20500101000000Z'],
    ['1949-12-31T23:59:59.000Z', 0x18, '19491231235959Z'],
    ['2126-07-04T12:30:45.000Z', 0x18, '21260704123045Z'],
  ])('encodes %s as tag %i "%s" (UTCTime until 2049, then GeneralizedTime)', (iso, tag, text) => {
    const el = readDer(Der.time(new Date(iso)));
    expect([el.tag, el.content.toString('ascii')]).toEqual([tag, text]);
  });

  it('encodes OIDs with multi-byte arcs, KeyUsage bits, and sorts SET OF', () => {
    expect(Der.oid('1.2.840.10045.4.3.2').toString('hex')).toBe('06082a8648ce3d040302');
    expect(Der.oid('2.5.29.17').toString('hex')).toBe('0603551d11');
    // digitalSignature(0), keyCertSign(5), cRLSign(6): 1000 0110, one unused bit.
    expect(Der.namedBits([0, 5, 6]).toString('hex')).toBe('03020186');
    expect(Der.namedBits([0]).toString('hex')).toBe('03020780');
    expect(Der.namedBits([0, 2]).toString('hex')).toBe('030205a0');
    expect(Der.set(Der.integer(2n), Der.integer(1n)).toString('hex')).toBe('3106020101020102');
    expect(derChildren(readDer(Der.sequence(Der.null(), Der.boolean(true)))).map((c) => c.raw.toString('hex'))).toEqual(['0500', '0101ff']);
  });

  it('refuses truncated DER', () => {
    expect(() => readDer(Buffer.from('3005020101', 'hex'))).toThrow(RangeError);
    expect(() => readDer(Buffer.from('30', 'hex'))).toThrow(RangeError);
    expect(() => readDer(Buffer.from('3080', 'hex'))).toThrow(RangeError);
  });
});

describe('edge-case certificates that openssl must accept', () => {
  let ca: Keypair;
  let caFile: string;
  const ecKey = (): KeyObject => generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey;
  const leaf = (over: Partial<CertificateSpec>, name: string): { file: string; cert: X509Certificate } => {
    const now = Date.now();
    const spec: CertificateSpec = { subject: { commonName: name }, serial: 1000n, notBefore: new Date(now - 60_000), notAfter: new Date(now + YEAR_MS), publicKey: ecKey(), usage: 'client', ...over };
    const pem = buildCertificate(spec, ca.signer());
    return { file: writePem(dir, `${name}.crt`, pem), cert: new X509Certificate(pem) };
  };

  beforeAll(async () => {
    // The CA's own name is long and UTF-8, so issuing copies a Name with long-form lengths.
    ca = await issueKeypair({ subject: { commonName: `CA ünïcode ${'c'.repeat(150)}`, organization: ['Ørganisation 日本'] }, usage: 'ca', validityMs: 40 * YEAR_MS });
    caFile = writePem(dir, 'edge-ca.crt', ca.certificatePem);
    expect(verify(caFile, caFile)).toBe(`${caFile}: OK`);
    // notAfter of 2066 and beyond: the CA itself carries a GeneralizedTime.
    expect(openssl(['asn1parse', '-in', caFile])).toContain('GENERALIZEDTIME');
  });

  it.each([
    ['0x80', 0x80n],
    ['0xff00', 0xff00n],
    ['2^127 + 12345', (1n << 127n) | 12345n],
    ['2^151 (20 octets)', 1n << 151n],
  ])('serial %s with the high bit set', (_label, serial) => {
    const { file, cert } = leaf({ serial }, `serial-${serial.toString(16)}`);
    expect(verify(caFile, file)).toBe(`${file}: OK`);
    const hex = serial.toString(16).toUpperCase();
    expect(openssl(['x509', '-noout', '-serial', '-in', file]).trim()).toBe(`serial=${hex.length % 2 ? `0${hex}` : hex}`);
    expect(decimalSerial(cert)).toBe(serial.toString());
  });

  it.each([
    ['2049-12-31T23:59:59Z', 'UTCTIME           :491231235959Z'],
    ['2050-01-01T00:00:00Z', 'GENERALIZEDTIME   :20500101000000Z'],
    ['2061-03-15T08:09:10Z', 'GENERALIZEDTIME   :20610315080910Z'],
  ])('notAfter %s', (iso, asn1) => {
    const { file, cert } = leaf({ notAfter: new Date(iso) }, `not-after-${iso.slice(0, 4)}`);
    expect(verify(caFile, file)).toBe(`${file}: OK`);
    expect(openssl(['asn1parse', '-in', file])).toContain(asn1);
    expect(new Date(cert.validTo).toISOString()).toBe(new Date(iso).toISOString());
  });

  it('IPv6 SANs in every notation, next to IPv4 and DNS names', () => {
    const ips = ['2001:db8::1', '::1', 'fe80::', '2001:0db8:0000:0000:0000:ff00:0042:8329', '1:2:3:4:5:6:7:8', '10.1.2.3'];
    const { file, cert } = leaf({ usage: 'server', dnsNames: ['v6.example.com'], ipAddresses: ips }, 'ipv6');
    expect(verify(caFile, file, 'sslserver')).toBe(`${file}: OK`);
    expect(entries(extensions(file)['Subject Alternative Name'])).toEqual([
      'DNS:v6.example.com',
      'IP Address:2001:DB8:0:0:0:0:0:1',
      'IP Address:0:0:0:0:0:0:0:1',
      'IP Address:FE80:0:0:0:0:0:0:0',
      'IP Address:2001:DB8:0:0:0:FF00:42:8329',
      'IP Address:1:2:3:4:5:6:7:8',
      'IP Address:10.1.2.3',
    ]);
    for (const ip of ips) expect(cert.checkIP(ip)).toBeDefined();
    expect(cert.checkIP('2001:db8::2')).toBeUndefined();
  });

  it('an IPv6 address with an embedded IPv4 tail', () => {
    const { file, cert } = leaf({ usage: 'server', ipAddresses: ['::ffff:192.0.2.1', '64:ff9b::10.0.0.1'] }, 'ipv4-mapped');
    expect(verify(caFile, file, 'sslserver')).toBe(`${file}: OK`);
    expect(entries(extensions(file)['Subject Alternative Name'])).toEqual(['IP Address:0:0:0:0:0:FFFF:C000:201', 'IP Address:64:FF9B:0:0:0:0:A00:1']);
    expect(cert.checkIP('::ffff:192.0.2.1')).toBeDefined();
  });

  it('refuses a DNS name that is not ASCII instead of writing a malformed IA5String', () => {
    expect(() => leaf({ usage: 'server', dnsNames: ['bücher.example'] }, 'idn')).toThrow(/not a valid DNS name for a certificate: "bücher.example"/);
    expect(() => leaf({ usage: 'server', dnsNames: ['has space'] }, 'space')).toThrow(RangeError);
  });

  it('an issued certificate never outlives its issuer', async () => {
    const shortCa = await issueKeypair({ subject: { commonName: 'short-lived-ca' }, usage: 'ca', validityMs: 24 * 3600 * 1000 });
    const issued = await issueKeypair({ subject: { commonName: 'client' }, usage: 'client', validityMs: 5 * YEAR_MS }, shortCa);
    expect(issued.certificate.validTo).toBe(shortCa.certificate.validTo);
  });

  it('a UTF-8 subject', () => {
    const subject: CertificateSubject = { commonName: 'ünïcode', organization: ['grüppe:日本'] };
    const { file, cert } = leaf({ subject }, 'utf8');
    expect(verify(caFile, file)).toBe(`${file}: OK`);
    expect(cert.subject).toBe('O=grüppe:日本\nCN=ünïcode');
    expect(certText(file)).toContain('Subject: O=grüppe:日本, CN=ünïcode');
    expect(openssl(['asn1parse', '-in', file])).toMatch(/UTF8STRING\s+:ünïcode/);
  });

  it('a long subject (RDNs over 127 bytes, a Name over 255) and an issuer Name over 127 bytes', () => {
    const subject: CertificateSubject = { commonName: `long-${'x'.repeat(300)}`, organization: ['a'.repeat(130), 'b'.repeat(10)] };
    const { file, cert } = leaf({ subject }, 'long');
    expect(verify(caFile, file)).toBe(`${file}: OK`);
    expect(cert.subject).toBe(`O=${'a'.repeat(130)}\nO=${'b'.repeat(10)}\nCN=long-${'x'.repeat(300)}`);
    expect(cert.issuer).toBe(ca.certificate.subject);
    expect(cert.checkIssued(ca.certificate)).toBe(true);
  });
});

describe('signing with a CA made by openssl', () => {
  const foreign = [
    { label: 'RSA 3072', newkey: ['-newkey', 'rsa:3072'], sigalg: 'sha256WithRSAEncryption' },
    { label: 'ECDSA P-384', newkey: ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-384'], sigalg: 'ecdsa-with-SHA384' },
  ];

  it.each(foreign)('$label: issued client and serving certificates pass openssl verify -x509_strict', async ({ label, newkey, sigalg }) => {
    const name = label.replace(/\W/g, '').toLowerCase();
    // C= is a PrintableString, which kforge never writes: the issuer Name must be copied, not rebuilt.
    const files = opensslCa(dir, name, newkey, `/C=US/O=Foreign Org/CN=foreign ${label}`);
    const ca = await loadCaKeypairFiles(files.cert, files.key);
    expect(ca.id).toBe(decimalSerial(new X509Certificate(fs.readFileSync(files.cert))));

    const client = await issueKeypair({ subject: { commonName: 'system:kube-proxy' }, usage: 'client', validityMs: YEAR_MS }, ca);
    const clientFile = writePem(dir, `${name}-client.crt`, client.certificatePem);
    expect(verify(files.cert, clientFile, 'sslclient')).toBe(`${clientFile}: OK`);

    const { cluster, instanceGroups } = newCluster({ name: 'byo.example.com', zones: ['us-east-1a'] });
    const server = await issueApiServerCertificate(ca, expandCluster(cluster, instanceGroups, 'file:///tmp/kforge-unused-store').completed, { ipAddresses: ['10.0.0.5'] });
    const serverFile = writePem(dir, `${name}-server.crt`, server.certificatePem);
    expect(verify(files.cert, serverFile, 'sslserver')).toBe(`${serverFile}: OK`);

    for (const [file, cert] of [[clientFile, client.certificate], [serverFile, server.certificate]] as const) {
      expect(cert.issuer).toBe('C=US\nO=Foreign Org\nCN=foreign ' + label);
      expect(cert.raw.includes(Buffer.from([0x13, 0x02, 0x55, 0x53]))).toBe(true); // PrintableString "US"
      expect(certText(file)).toContain(`Signature Algorithm: ${sigalg}`);
      expect(extensions(file)['Authority Key Identifier'].value.replace(/^keyid:/, '')).toBe(extensions(files.cert)['Subject Key Identifier'].value);
      expect(cert.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    }
  });
});
