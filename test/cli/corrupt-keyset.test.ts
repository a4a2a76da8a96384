import * as fs from 'node:fs';
import * as path from 'node:path';
import { expectCleanFailure, runCli, tempDir } from '../helpers/cli';
import { writeManagedFilesOf } from '../helpers/write-managed-files';

/**
 * A keyset whose private key cannot be read (a damaged or hand-edited store) is reported with the
 * keyset's name and its file in the store, not as a bare OpenSSL "DECODER routines::unsupported".
 */

const CLUSTER = 'k.k8s.local';

describe('a corrupt private key in the store', () => {
  let work: string;
  let store: string;

  beforeAll(async () => {
    work = tempDir('kforge-corrupt-keyset-');
    store = path.join(work, 'store');
    expect(runCli(['create', 'cluster', CLUSTER, '--zones', 'us-east-1a', '--state', store]).status).toBe(0);
    await writeManagedFilesOf(store, CLUSTER);
    const file = path.join(store, CLUSTER, 'pki', 'private', 'kubernetes-ca', 'keyset.yaml');
    const garbage = Buffer.from('-----BEGIN PRIVATE KEY-----\nMIIBnotakey==\n-----END PRIVATE KEY-----\n').toString('base64');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/privateMaterial: \S+/, `privateMaterial: ${garbage}`));
  });

  afterAll(() => {
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('export kubeconfig --admin names the keyset and the store file', () => {
    const r = runCli(['export', 'kubeconfig', CLUSTER, '--admin', '--kubeconfig', path.join(work, 'kubeconfig'), '--state', store], { env: { HOME: work } });
    expectCleanFailure(r);
    expect(r.stderr).toContain(`keyset "kubernetes-ca": file://${store}/${CLUSTER}/pki/private/kubernetes-ca/keyset.yaml is not a valid keyset: spec.keys[0]`);
    expect(r.stderr).toContain('the private key cannot be read');
    expect(fs.existsSync(path.join(work, 'kubeconfig'))).toBe(false);
  });
});
