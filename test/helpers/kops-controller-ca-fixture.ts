import * as fs from 'node:fs';
import * as path from 'node:path';
import { KeysetYaml } from '../../src/pki/keyset-yaml';

/**
 * The kops-controller-ca certificate of test/fixtures/pki/keysets.yaml (public, no private key): what update
 * hands the AWS builders as AwsModelInputs.kopsControllerCa, for workers' user-data.
 */
export const KOPS_CONTROLLER_CA_FIXTURE: string = (() => {
  const text = fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'pki', 'keysets.yaml'), 'utf8');
  const doc = text.split(/^---$/m).find((d) => /name: kops-controller-ca$/m.test(d)) as string;
  return KeysetYaml.parse(doc, 'test/fixtures/pki/keysets.yaml', 'kops-controller-ca').primary().certificatePem;
})();
