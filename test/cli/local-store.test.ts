import * as fs from 'node:fs';
import * as path from 'node:path';
import { expectCleanFailure, runCli, tempDir } from '../helpers/cli';

const mode = (p: string) => (fs.statSync(p).mode & 0o777).toString(8);

describe('a local store path that does not exist or is a file', () => {
  it('get clusters --state ./typo exits 1 naming the path', () => {
    const cwd = tempDir();
    const r = runCli(['get', 'clusters', '--state', './typo'], { cwd });
    expectCleanFailure(r);
    expect(r.stderr).toContain(`state store ${path.join(fs.realpathSync(cwd), 'typo')} does not exist`);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toContain('No clusters found');
  });

  it.each([['file:///nonexistent-kforge-store'], ['/nonexistent-kforge-store']])('get clusters --state %s exits 1 naming the path', (state) => {
    const r = runCli(['get', 'clusters', '--state', state]);
    expectCleanFailure(r);
    expect(r.stderr).toContain('/nonexistent-kforge-store does not exist');
  });

  it('KFORGE_STATE_STORE naming a missing directory is an error too', () => {
    const r = runCli(['get', 'clusters', '-o', 'yaml'], { env: { KFORGE_STATE_STORE: '/nonexistent-kforge-store' } });
    expectCleanFailure(r);
    expect(r.stderr).toContain('/nonexistent-kforge-store does not exist');
  });

  it('the default store that does not exist yet is just empty', () => {
    const home = tempDir();
    const r = runCli(['get', 'clusters'], { env: { HOME: home } });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('No clusters found');
    expect(fs.existsSync(path.join(home, '.kforge'))).toBe(false);
  });

  it('get clusters on a file says it is not a directory', () => {
    const file = path.join(tempDir(), 'store');
    fs.writeFileSync(file, 'x');
    const r = runCli(['get', 'clusters', '--state', file]);
    expectCleanFailure(r);
    expect(r.stderr).toBe(`Error: state store ${file} is not a directory: it is a file\n`);
  });

  it('create cluster on a file says so, not EEXIST', () => {
    const file = path.join(tempDir(), 'store');
    fs.writeFileSync(file, 'x');
    const r = runCli(['create', 'cluster', 'demo.k8s.local', '--zones', 'us-east-1a', '--state', file]);
    expectCleanFailure(r);
    expect(r.stderr).toBe(`Error: state store ${file} is not a directory: it is a file\n`);
    expect(fs.readFileSync(file, 'utf8')).toBe('x');
  });

  it('create cluster below a file says a parent is a file', () => {
    const file = path.join(tempDir(), 'store');
    fs.writeFileSync(file, 'x');
    const r = runCli(['create', 'cluster', 'demo.k8s.local', '--zones', 'us-east-1a', '--state', path.join(file, 'sub')]);
    expectCleanFailure(r);
    expect(r.stderr).toContain('a parent of it is a file');
    expect(r.stderr).not.toContain('ENOTDIR');
  });
});

describe('the default store directory is created 0700 by every command that creates it', () => {
  it('create cluster', () => {
    const home = tempDir();
    expect(runCli(['create', 'cluster', 'demo.k8s.local', '--zones', 'us-east-1a'], { env: { HOME: home } }).status).toBe(0);
    expect(mode(path.join(home, '.kforge'))).toBe('700');
    expect(mode(path.join(home, '.kforge', 'state'))).toBe('700');
  });

  it('create -f', () => {
    const home = tempDir();
    const manifest = runCli(['create', 'cluster', 'demo.k8s.local', '--zones', 'us-east-1a', '--dry-run', '-o', 'yaml'], { env: { HOME: tempDir() } });
    expect(manifest.status).toBe(0);
    const file = path.join(tempDir(), 'demo.yaml');
    fs.writeFileSync(file, manifest.stdout);
    const r = runCli(['create', '-f', file], { env: { HOME: home } });
    expect(r.stderr).toBe('');
    expect(mode(path.join(home, '.kforge'))).toBe('700');
    expect(mode(path.join(home, '.kforge', 'state'))).toBe('700');
  });

  it('create state-store', () => {
    const home = tempDir();
    expect(runCli(['create', 'state-store'], { env: { HOME: home } }).status).toBe(0);
    expect(mode(path.join(home, '.kforge', 'state'))).toBe('700');
  });

  it('a new directory named with --state is private too; an existing one keeps its mode', () => {
    const parent = tempDir();
    expect(runCli(['create', 'cluster', 'demo.k8s.local', '--zones', 'us-east-1a', '--state', path.join(parent, 'new', 'store')]).status).toBe(0);
    expect(mode(path.join(parent, 'new'))).toBe('700');
    expect(mode(path.join(parent, 'new', 'store'))).toBe('700');
    const existing = tempDir();
    fs.chmodSync(existing, 0o750);
    expect(runCli(['create', 'cluster', 'demo.k8s.local', '--zones', 'us-east-1a', '--state', existing]).status).toBe(0);
    expect(mode(existing)).toBe('750');
  });
});
