import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadManifests } from '../../../src/api/load-manifests';
import type { InstanceGroup } from '../../../src/api/types';
import { multipartUserData } from '../../../src/model/aws/multipart-user-data';
import { ROOT } from '../../helpers/cli';

// kops's additionalUserData (issue 22 §2): the user-data becomes a MIME archive with the boot script first and
// the group's parts after it, as kops's AWSMultipartMIME writes it. Compared with kops's own output for its
// bastionadditional_user-data case (test/fixtures/kops-user-data/SOURCE.md). Go's multipart writer uses CRLF;
// kops's stored test files have LF line ends, so the comparison normalises them.

const KOPS = path.join(ROOT, 'test', 'fixtures', 'kops-user-data');
const set = loadManifests(fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'kops-conformance', 'bastionadditional_user-data', 'in-v1alpha2.yaml'), 'utf8'), 'in-v1alpha2.yaml');
const group = (name: string): InstanceGroup => set.instanceGroups.find((ig) => ig.metadata.name === name) as InstanceGroup;
const lf = (s: string): string => s.replace(/\r\n/g, '\n');

it('a bastion with additionalUserData gets exactly kops’s archive: its parts only, no boot script', () => {
  const kops = fs.readFileSync(path.join(KOPS, 'bastion.bastionuserdata.example.com_user_data'), 'utf8');
  const out = multipartUserData(undefined, group('bastion').spec.additionalUserData) as string;
  expect(lf(out)).toBe(kops);
  expect(out).toContain('\r\n--MIMEBOUNDARY--\r\n');
});

it('a node’s boot script is the first part (nodeup.sh), the group’s parts follow as in kops’s file', () => {
  const kops = fs.readFileSync(path.join(KOPS, 'nodes.bastionuserdata.example.com_user_data'), 'utf8');
  const script = '#!/bin/bash\necho boot\n';
  const out = lf(multipartUserData(script, group('nodes').spec.additionalUserData) as string);
  const head = 'Content-Type: multipart/mixed; boundary="MIMEBOUNDARY"\nMIME-Version: 1.0\n\n--MIMEBOUNDARY\nContent-Disposition: attachment; filename="nodeup.sh"\nContent-Transfer-Encoding: 7bit\nContent-Type: text/x-shellscript\nMime-Version: 1.0\n\n';
  expect(out.startsWith(head + script)).toBe(true);
  expect(kops.startsWith(head)).toBe(true);
  // Everything after kops's boot script (its user part and the closing boundary) is the same.
  const tail = (s: string): string => s.slice(s.indexOf('\n--MIMEBOUNDARY\nContent-Disposition: attachment; filename="myscript.sh"'));
  expect(tail(out)).toBe(tail(kops));
});

it('without additional parts the boot script is unchanged (no archive)', () => {
  expect(multipartUserData('#!/bin/bash\n', undefined)).toBe('#!/bin/bash\n');
  expect(multipartUserData('#!/bin/bash\n', [])).toBe('#!/bin/bash\n');
  expect(multipartUserData(undefined, undefined)).toBeUndefined();
});
