import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli, tempDir, treeDigest } from '../helpers/cli';

/** Writes an executable editor script that receives the file to edit as $1. */
function editor(dir: string, body: string): string {
  const file = path.join(dir, `editor-${Math.random().toString(36).slice(2)}.sh`);
  fs.writeFileSync(file, `#!/bin/sh\nset -e\n${body}\n`, { mode: 0o755 });
  return file;
}

function newStore(): string {
  const store = tempDir();
  const r = runCli(['create', 'cluster', 'e.k8s.local', '--zones', 'us-east-1a', '--kubernetes-version', '1.35.7', '--state', store]);
  expect(r.status).toBe(0);
  return store;
}

describe('kforge edit', () => {
  it('an unchanged result prints "Edit cancelled, no changes made" and writes nothing', () => {
    const store = newStore();
    const before = treeDigest(store);
    const r = runCli(['edit', 'cluster', 'e.k8s.local', '--state', store], { env: { EDITOR: 'true' } });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Edit cancelled, no changes made');
    expect(treeDigest(store)).toBe(before);
  });

  it('a valid change is written (the completed spec follows it); KUBE_EDITOR wins over EDITOR', () => {
    const store = newStore();
    const ed = editor(tempDir(), 'sed -i "s/kubernetesVersion: 1.35.7/kubernetesVersion: 1.36.4/" "$1"');
    const r = runCli(['edit', 'cluster', 'e.k8s.local', '--state', store], { env: { KUBE_EDITOR: ed, EDITOR: 'false' } });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(fs.readFileSync(path.join(store, 'e.k8s.local/config'), 'utf8')).toContain('kubernetesVersion: 1.36.4');
    expect(runCli(['get', 'cluster', 'e.k8s.local', '--full', '-o', 'yaml', '--state', store]).stdout).toContain('kube-apiserver:v1.36.4');
  });

  it('an invalid result reopens the editor with the errors above the user text; only the fixed result is written', () => {
    const store = newStore();
    const scratch = tempDir();
    const seen = path.join(scratch, 'second-round.yaml');
    const count = path.join(scratch, 'count');
    const ed = editor(
      store,
      [
        `n=$(cat "${count}" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "${count}"`,
        'if [ "$n" = 1 ]; then sed -i "s#networkCIDR: 172.20.0.0/16#networkCIDR: 172.20.0.0/33#" "$1"; exit 0; fi',
        `cp "$1" "${seen}"`,
        'sed -i "s#networkCIDR: 172.20.0.0/33#networkCIDR: 172.20.0.0/16#; s/kubernetesVersion: 1.35.7/kubernetesVersion: 1.36.4/" "$1"',
      ].join('\n'),
    );
    const r = runCli(['edit', 'cluster', 'e.k8s.local', '--state', store], { env: { EDITOR: ed } });
    expect(r.status).toBe(0);
    const second = fs.readFileSync(seen, 'utf8');
    expect(second).toMatch(/^# Please edit the object below/);
    expect(second).toContain('# The edited file had the following errors:');
    expect(second).toContain('spec.networkCIDR: "172.20.0.0/33" is not a valid CIDR');
    expect(second).toContain('networkCIDR: 172.20.0.0/33');
    expect(fs.readFileSync(path.join(store, 'e.k8s.local/config'), 'utf8')).toContain('kubernetesVersion: 1.36.4');
  });

  it('saving the same invalid text twice cancels with exit 1 and the store unchanged', () => {
    const store = newStore();
    const before = treeDigest(store);
    const ed = editor(tempDir(), 'sed -i "s#networkCIDR: 172.20.0.0/16#networkCIDR: 172.20.0.0/33#" "$1"');
    const r = runCli(['edit', 'cluster', 'e.k8s.local', '--state', store], { env: { EDITOR: ed } });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Edit cancelled: no valid changes were saved');
    expect(treeDigest(store)).toBe(before);
  });

  it('edit instancegroup changes one group and rejects minSize > maxSize', () => {
    const store = newStore();
    const ok = editor(tempDir(), 'sed -i "s/maxSize: 1/maxSize: 4/" "$1"');
    expect(runCli(['edit', 'ig', 'nodes-us-east-1a', '--name', 'e.k8s.local', '--state', store], { env: { EDITOR: ok } }).status).toBe(0);
    expect(fs.readFileSync(path.join(store, 'e.k8s.local/instancegroup/nodes-us-east-1a'), 'utf8')).toContain('maxSize: 4');
    const before = treeDigest(store);
    const bad = editor(tempDir(), 'sed -i "s/minSize: 1/minSize: 9/" "$1"');
    const r = runCli(['edit', 'instancegroup', 'nodes-us-east-1a', '--name', 'e.k8s.local', '--state', store], { env: { EDITOR: bad } });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Edit cancelled: no valid changes were saved');
    expect(treeDigest(store)).toBe(before);
  });

  it('an editor that fails leaves the store unchanged', () => {
    const store = newStore();
    const before = treeDigest(store);
    const r = runCli(['edit', 'cluster', 'e.k8s.local', '--state', store], { env: { EDITOR: 'false' } });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^Error: editor "false" exited with status 1; no changes made/);
    expect(treeDigest(store)).toBe(before);
  });
});
