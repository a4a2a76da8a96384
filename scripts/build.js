#!/usr/bin/env node
// Compiles src/ to dist/ and writes dist/root-help.txt (the top-level help that bin/run.js prints
// without loading the CLI framework). Runs on `npm install` through the `prepare` script.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const tsc = require.resolve('typescript/bin/tsc');
fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.json')], { stdio: 'inherit', cwd: root });
execFileSync(process.execPath, [path.join(__dirname, 'compile-validators.js')], { stdio: 'inherit', cwd: root });
execFileSync(process.execPath, [path.join(__dirname, 'oclif-snapshot.js')], { stdio: 'inherit', cwd: root });
execFileSync(process.execPath, [path.join(__dirname, 'bundle.js')], { stdio: 'inherit', cwd: root });
execFileSync(process.execPath, [path.join(__dirname, 'build-nodeup.js')], { stdio: 'inherit', cwd: root });
execFileSync(process.execPath, [path.join(__dirname, 'oclif-snapshot.js'), '--check'], { stdio: 'inherit', cwd: root });
const help = execFileSync(process.execPath, ['-e', "require('./dist/cli/main').main(['--help'])"], {
  cwd: root,
  encoding: 'utf8',
  env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', COLUMNS: '100' },
});
fs.writeFileSync(path.join(root, 'dist', 'root-help.txt'), help);
execFileSync(process.execPath, [path.join(__dirname, 'bundle.js'), '--code-cache'], { stdio: 'inherit', cwd: root });
execFileSync(process.execPath, [path.join(__dirname, 'command-help.js')], { stdio: 'inherit', cwd: root });
