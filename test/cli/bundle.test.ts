import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT, runCli, tempDir } from '../helpers/cli';

const DIST = path.join(ROOT, 'dist');
const BUNDLE = path.join(DIST, 'bundle', 'kforge.js');

/** Runs a Node script in the repository root and returns its trimmed stdout (failing on a non-zero exit). */
function node(script: string, args: string[] = []): string {
  const r = spawnSync(process.execPath, ['-e', script, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout.trim();
}

describe('the built CLI (bin/run.js, dist/bundle)', () => {
  it('has an oclif snapshot that matches what oclif discovers from the command table', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'oclif-snapshot.js'), '--check'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('lists every command of the command table in the snapshot, each loading its own class', () => {
    const out = node(`
      const { SNAPSHOT, COMMAND_LOADERS } = require('./dist/cli/oclif-snapshot.js');
      const { COMMANDS } = require('./dist/commands/index.js');
      const ids = Object.keys(COMMANDS).sort();
      const same = ids.every((id) => COMMAND_LOADERS[id]() === COMMANDS[id]);
      console.log(JSON.stringify({ ids, manifest: Object.keys(SNAPSHOT.plugin.manifest.commands).sort(), loaders: Object.keys(COMMAND_LOADERS).sort(), same }));
    `);
    const r = JSON.parse(out) as { ids: string[]; manifest: string[]; loaders: string[]; same: boolean };
    expect(r.manifest).toEqual(r.ids);
    expect(r.loaders).toEqual(r.ids);
    expect(r.same).toBe(true);
  });

  it('runs get clusters on an empty store', () => {
    const store = tempDir();
    const r = runCli(['get', 'clusters', '--state', store]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`No clusters found in file://${store}\n`);
  });

  it('still takes a missing cluster name from piped stdin, as oclif does', () => {
    // oclif waits only 10 ms for piped stdin (@oclif/core parser's readStdin): on a loaded machine the child
    // can miss it and list all clusters instead (status 0). Up to three tries tell that race from a regression.
    let r = runCli(['get', 'clusters', '--state', tempDir()], { input: 'x.example.com\n' });
    for (let i = 0; i < 2 && r.status === 0; i++) r = runCli(['get', 'clusters', '--state', tempDir()], { input: 'x.example.com\n' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/^Error: cluster "x\.example\.com" not found/);
  });

  it('prints create cluster --help exactly as stock oclif renders it from package.json', () => {
    const r = runCli(['create', 'cluster', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Create a cluster spec in the state store/);
    expect(r.stdout).toContain('$ kforge create cluster demo.k8s.local --zones us-east-1a');
    // @oclif/core from node_modules (its own ejs, full discovery through package.json's command table).
    const stock = node(`require('@oclif/core').run(['create', 'cluster', '--help'], process.cwd()).then(() => require('@oclif/core').flush())`);
    expect(r.stdout.trim()).toBe(stock);
  });

  it('prints plain --help of every command, alias and topic exactly as oclif renders it', () => {
    const { help } = JSON.parse(fs.readFileSync(path.join(DIST, 'command-help.json'), 'utf8')) as { help: Record<string, string> };
    expect(Object.keys(help)).toEqual(expect.arrayContaining(['create cluster', 'get clusters', 'get cluster', 'get', 'replace']));
    for (const [words, text] of Object.entries(help)) {
      const args = [...words.split(' '), '--help'];
      const fast = runCli(args, { env: { NO_COLOR: undefined } });
      // FORCE_COLOR=0 keeps colors off but makes bin/run.js let oclif render the help.
      const rendered = runCli(args, { env: { NO_COLOR: undefined, FORCE_COLOR: '0' } });
      expect({ words, status: fast.status, stdout: fast.stdout, stderr: fast.stderr }).toEqual({ words, status: 0, stdout: text, stderr: '' });
      expect({ words, stdout: rendered.stdout }).toEqual({ words, stdout: text });
    }
  });

  it('keeps the cloud SDKs, ajv and the compiled validators out of the bundle', () => {
    const text = fs.readFileSync(BUNDLE, 'latin1');
    const bundled = [...text.matchAll(/^\/\/ (node_modules\/\S+|dist\/\S+)$/gm)].map((m) => m[1]);
    expect(bundled.length).toBeGreaterThan(100);
    expect(bundled.filter((f) => /^node_modules\/(@aws-sdk|@smithy|@google-cloud|google-auth-library|gaxios|ajv)\//.test(f))).toEqual([]);
    expect(bundled).not.toContain('dist/validate/compiled-validators.js');
    expect(text).toContain('require("@aws-sdk/client-s3")');
  });

  it('has ASCII-only bundle and validators (bin/run.js reads them as latin1)', () => {
    for (const f of [BUNDLE, path.join(DIST, 'validate', 'compiled-validators.js')]) {
      expect(fs.readFileSync(f).every((b) => b < 0x80)).toBe(true);
    }
  });

  it('has code caches that this Node accepts', () => {
    const caches = fs.readdirSync(path.dirname(BUNDLE)).filter((f) => f.endsWith('.cache'));
    expect(caches.sort()).toEqual(['kforge.js.all.cache', 'kforge.js.create-cluster.cache', 'kforge.js.get.cache', 'kforge.js.help.cache']);
    const files = [...caches.map((c) => [BUNDLE, path.join(path.dirname(BUNDLE), c)]), [path.join(DIST, 'validate', 'compiled-validators.js'), path.join(DIST, 'validate', 'compiled-validators.js.cache')]];
    const rejected = node(
      `
      const fs = require('fs'), vm = require('vm'), Module = require('module');
      const files = JSON.parse(process.argv[process.argv.length - 1]);
      console.log(JSON.stringify(files.filter(([src, cache]) => new vm.Script(Module.wrap(fs.readFileSync(src, 'latin1')), { filename: src, cachedData: fs.readFileSync(cache) }).cachedDataRejected)));
    `,
      [JSON.stringify(files)],
    );
    expect(JSON.parse(rejected)).toEqual([]);
  });
});
