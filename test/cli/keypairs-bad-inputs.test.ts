import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli, tempDir, treeDigest } from '../helpers/cli';
import { openssl, opensslCa } from '../pki/openssl';

/**
 * `create keypair` with bad inputs, each generated with openssl. The error contract of
 * test/cli/bad-inputs.test.ts: exit 1, stderr starting with "Error: " that names the flag and the file
 * (or the keyset, or the cluster), no stack trace, nothing on stdout, and the store byte-for-byte
 * unchanged.
 */

const CLUSTER = 'demo.k8s.local';

interface BadKeypair {
  name: string;
  /** Arguments after `create keypair`; `@/x` is a file in the inputs directory. `--state` is appended. */
  args: string[];
  /** Substrings stderr must contain (after the "Error: " prefix, which every case must have). */
  expect: string[];
}

let work: string;
let store: string;
const at = (f: string) => path.join(work, f);

/** A CA signed by openssl's `ca` command, which (unlike `req -x509` in OpenSSL 3.0) takes explicit dates. */
function datedCa(name: string, start: string, end: string): void {
  const db = at(`${name}-db`);
  fs.mkdirSync(db);
  fs.writeFileSync(path.join(db, 'index.txt'), '');
  fs.writeFileSync(path.join(db, 'serial'), '01\n');
  fs.writeFileSync(
    path.join(db, 'ca.cnf'),
    [
      '[ca]', 'default_ca = d', '[d]', `database = ${db}/index.txt`, `new_certs_dir = ${db}`, `serial = ${db}/serial`, 'default_md = sha256', 'policy = p', 'x509_extensions = ext',
      '[p]', 'commonName = supplied', '[ext]', 'basicConstraints = critical,CA:TRUE', 'keyUsage = critical,keyCertSign,cRLSign', 'subjectKeyIdentifier = hash', '',
    ].join('\n'),
  );
  openssl(['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', at(`${name}.key`), '-out', path.join(db, 'req.csr'), '-subj', `/CN=${name}`]);
  openssl(['ca', '-batch', '-config', path.join(db, 'ca.cnf'), '-selfsign', '-keyfile', at(`${name}.key`), '-in', path.join(db, 'req.csr'), '-out', at(`${name}.crt`), '-startdate', start, '-enddate', end, '-notext']);
}

beforeAll(() => {
  work = tempDir('kforge-bad-keypair-');
  store = path.join(work, 'store');
  const r = runCli(['create', 'cluster', CLUSTER, '--zones', 'us-east-1a', '--state', store]);
  expect(r.status).toBe(0);
  opensslCa(work, 'ca', ['-newkey', 'rsa:2048'], '/CN=my-ca');
  opensslCa(work, 'other', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256'], '/CN=other-ca');
  // A leaf certificate (CA:FALSE) signed by ca.
  openssl(['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', at('leaf.key'), '-out', at('leaf.csr'), '-subj', '/CN=leaf']);
  fs.writeFileSync(at('leaf.ext'), 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n');
  openssl(['x509', '-req', '-in', at('leaf.csr'), '-CA', at('ca.crt'), '-CAkey', at('ca.key'), '-set_serial', '7', '-days', '30', '-extfile', at('leaf.ext'), '-out', at('leaf.crt')]);
  openssl(['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-aes256', '-pass', 'pass:x', '-out', at('encrypted.key')]);
  openssl(['rsa', '-in', at('ca.key'), '-aes256', '-passout', 'pass:x', '-traditional', '-out', at('encrypted-legacy.key')]);
  opensslCa(work, 'weak', ['-newkey', 'rsa:1024'], '/CN=weak-ca');
  opensslCa(work, 'ed', ['-newkey', 'ed25519'], '/CN=ed-ca');
  opensslCa(work, 'p521', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-521'], '/CN=p521-ca');
  datedCa('expired', '20200101000000Z', '20200102000000Z');
  datedCa('future', '20990101000000Z', '20990102000000Z');
  openssl(['x509', '-in', at('ca.crt'), '-outform', 'DER', '-out', at('ca.der')]);
  fs.writeFileSync(at('text.txt'), 'hello, not a PEM file\n');
  fs.writeFileSync(at('corrupt.crt'), '-----BEGIN CERTIFICATE-----\nMIIBnotreallyacertificate==\n-----END CERTIFICATE-----\n');
  // CA:TRUE, but its key usage does not allow signing certificates.
  opensslCa(work, 'no-cert-sign', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256'], '/CN=no-cert-sign', 'critical,digitalSignature');
  // Good keys in the other PEM flavours openssl writes: SEC1 (after an EC PARAMETERS block) and PKCS#1.
  openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-out', at('sec1.key')]);
  openssl(['req', '-x509', '-key', at('sec1.key'), '-out', at('sec1.crt'), '-subj', '/CN=sec1-ca', '-days', '30', '-addext', 'basicConstraints=critical,CA:TRUE']);
  openssl(['genrsa', '-traditional', '-out', at('pkcs1.key'), '2048']);
  openssl(['req', '-x509', '-key', at('pkcs1.key'), '-out', at('pkcs1.crt'), '-subj', '/CN=pkcs1-ca', '-days', '30', '-addext', 'basicConstraints=critical,CA:TRUE']);
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const byo = (keyset: string, cert: string, key: string, ...extra: string[]) => ['create', 'keypair', keyset, '--cert', `@/${cert}`, '--key', `@/${key}`, '--name', CLUSTER, ...extra];

const cases: BadKeypair[] = [
  { name: '--cert names a missing file', args: byo('kubernetes-ca', 'no-such.crt', 'ca.key'), expect: ['--cert @/no-such.crt: cannot read: no such file'] },
  { name: '--key names a missing file', args: byo('kubernetes-ca', 'ca.crt', 'no-such.key'), expect: ['--key @/no-such.key: cannot read: no such file'] },
  { name: '--cert is a directory', args: ['create', 'keypair', 'kubernetes-ca', '--cert', '@/', '--key', '@/ca.key', '--name', CLUSTER], expect: ['--cert @/: cannot read: is a directory'] },
  { name: '--cert is a private key', args: byo('kubernetes-ca', 'ca.key', 'ca.key'), expect: ['--cert @/ca.key: not a PEM certificate'] },
  { name: '--cert is DER, not PEM', args: byo('kubernetes-ca', 'ca.der', 'ca.key'), expect: ['--cert @/ca.der: not a PEM certificate'] },
  { name: '--cert is text', args: byo('kubernetes-ca', 'text.txt', 'ca.key'), expect: ['--cert @/text.txt: not a PEM certificate'] },
  { name: '--cert is a PEM block that is not a certificate', args: byo('kubernetes-ca', 'corrupt.crt', 'ca.key'), expect: ['--cert @/corrupt.crt: the PEM certificate cannot be parsed'] },
  { name: '--key is a certificate', args: byo('kubernetes-ca', 'ca.crt', 'ca.crt'), expect: ['--key @/ca.crt: not a PEM private key'] },
  { name: '--key is text', args: byo('kubernetes-ca', 'ca.crt', 'text.txt'), expect: ['--key @/text.txt: not a PEM private key'] },
  { name: 'the key of another CA', args: byo('kubernetes-ca', 'ca.crt', 'other.key'), expect: ['--key @/other.key does not belong to the certificate in --cert @/ca.crt'] },
  { name: 'a leaf certificate (CA:FALSE)', args: byo('kubernetes-ca', 'leaf.crt', 'leaf.key'), expect: ['--cert @/leaf.crt: "CN=leaf" is not a CA certificate'] },
  { name: 'a CA certificate whose key usage lacks keyCertSign', args: byo('kubernetes-ca', 'no-cert-sign.crt', 'no-cert-sign.key'), expect: ['--cert @/no-cert-sign.crt', 'keyCertSign'] },
  { name: 'an encrypted PKCS#8 key', args: byo('kubernetes-ca', 'ca.crt', 'encrypted.key'), expect: ['--key @/encrypted.key: encrypted private keys are not supported'] },
  { name: 'an encrypted traditional RSA key', args: byo('kubernetes-ca', 'ca.crt', 'encrypted-legacy.key'), expect: ['--key @/encrypted-legacy.key: encrypted private keys are not supported'] },
  { name: 'an RSA 1024 CA', args: byo('kubernetes-ca', 'weak.crt', 'weak.key'), expect: ['--key @/weak.key: an RSA key of 1024 bits is too weak'] },
  { name: 'an Ed25519 CA', args: byo('kubernetes-ca', 'ed.crt', 'ed.key'), expect: ['--key @/ed.key: ed25519 keys are not supported'] },
  { name: 'an ECDSA P-521 CA', args: byo('kubernetes-ca', 'p521.crt', 'p521.key'), expect: ['--key @/p521.key: the curve secp521r1 is not supported'] },
  { name: 'an expired CA', args: byo('kubernetes-ca', 'expired.crt', 'expired.key'), expect: ['--cert @/expired.crt: the certificate expired on 2020-01-02T00:00:00.000Z'] },
  { name: 'a CA valid only in the future', args: byo('kubernetes-ca', 'future.crt', 'future.key'), expect: ['--cert @/future.crt: the certificate is not valid until 2099-01-01T00:00:00.000Z'] },
  { name: 'a keyset that is not a CA of the cluster', args: byo('not-a-ca', 'ca.crt', 'ca.key'), expect: ['keyset "not-a-ca" cannot be imported', 'kubernetes-ca'] },
  { name: 'a keyset signed by a CA (kube-proxy)', args: byo('kube-proxy', 'ca.crt', 'ca.key'), expect: ['keyset "kube-proxy" cannot be imported'] },
  { name: 'an etcd CA of an etcd cluster that does not exist', args: byo('etcd-peers-ca-nope', 'ca.crt', 'ca.key'), expect: ['keyset "etcd-peers-ca-nope" cannot be imported', 'etcd-peers-ca-main'] },
  { name: 'a missing cluster', args: [...byo('kubernetes-ca', 'ca.crt', 'ca.key').slice(0, -2), '--name', 'nope.k8s.local'], expect: ['cluster "nope.k8s.local" not found'] },
  { name: 'no cluster name', args: byo('kubernetes-ca', 'ca.crt', 'ca.key').slice(0, -2), expect: ['the cluster name is required'] },
  // oclif's own parse errors exit 1 too, with its "Error: " prefix.
  { name: 'no --cert flag', args: ['create', 'keypair', 'kubernetes-ca', '--key', '@/ca.key', '--name', CLUSTER], expect: ['Missing required flag cert'] },
  { name: 'no --key flag', args: ['create', 'keypair', 'kubernetes-ca', '--cert', '@/ca.crt', '--name', CLUSTER], expect: ['Missing required flag key'] },
  { name: 'no keyset argument', args: ['create', 'keypair', '--cert', '@/ca.crt', '--key', '@/ca.key', '--name', CLUSTER], expect: ['Missing 1 required arg', 'keyset'] },
];

describe('create keypair: bad inputs change nothing', () => {
  it.each(cases)('$name', (c) => {
    const before = treeDigest(store);
    const args = [...c.args.map((a) => a.replace(/^@\//, `${work}/`)), '--state', store];
    const r = runCli(args);
    const stderr = r.stderr.split(`${work}/`).join('@/');
    expect({ status: r.status, stdout: r.stdout }).toEqual({ status: 1, stdout: '' });
    expect(stderr).toMatch(/^Error: /);
    for (const e of c.expect) expect(stderr).toContain(e);
    expect(stderr).not.toContain('    at ');
    expect(treeDigest(store)).toBe(before);
  });

  it.each([
    ['the CA the cases use (PKCS#8 key)', 'apiserver-aggregator-ca', 'ca'],
    ['an EC key in SEC1 form after an EC PARAMETERS block', 'kubernetes-ca', 'sec1'],
    ['an RSA key in PKCS#1 form', 'etcd-clients-ca', 'pkcs1'],
  ])('good inputs import: %s', (_label, keyset, name) => {
    const copy = path.join(work, `store-${name}`);
    fs.cpSync(store, copy, { recursive: true });
    const r = runCli(['create', 'keypair', keyset, '--cert', at(`${name}.crt`), '--key', at(`${name}.key`), '--name', CLUSTER, '--state', copy]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^keypair \\d+ added to keyset "${keyset}"`));
    expect(treeDigest(copy)).not.toBe(treeDigest(store));
  });

  it('--verbose adds the stack trace the default leaves out', () => {
    const r = runCli([...byo('not-a-ca', 'ca.crt', 'ca.key').map((a) => a.replace(/^@\//, `${work}/`)), '--verbose', '--state', store]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^Error: keyset "not-a-ca" cannot be imported/);
    expect(r.stderr).toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  });
});

describe('help', () => {
  it.each([
    ['create keypair', ['create keypair kubernetes-ca --cert ca.crt --key ca.key --name x.example.com', '--primary']],
    ['get keypairs', ['get keypairs --name x.example.com', 'get keypairs kubernetes-ca --name x.example.com -o yaml']],
  ])('%s --help shows usage and examples', (cmd, examples) => {
    const r = runCli([...cmd.split(' '), '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('USAGE');
    expect(r.stdout).toContain('EXAMPLES');
    for (const e of examples) expect(r.stdout).toContain(e);
  });
});
