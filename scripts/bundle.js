#!/usr/bin/env node
// `bundle.js`: bundles the CLI into one file, dist/bundle/kforge.js, so a command starts without
// resolving ~200 modules. Left out of the bundle, and loaded from node_modules only by the commands that
// use them: the cloud SDKs, ajv with the validators compiled at build time (1 MB that only validating
// commands need; they stay in dist/validate) and typescript (which @oclif/core can load; kforge never
// does). Inside the bundle, module bodies run only when first required.
// `bundle.js --code-cache`: writes V8's code cache for the bundle (dist/bundle/kforge.js.cache) by running
// the common commands once, so that they start without compiling the bundle's JavaScript. V8 rejects the
// cache on another Node version; the CLI then compiles as usual. Both are called by scripts/build.js.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.join(__dirname, '..');

/** The validators compiled at build time stay in dist/validate, required from the bundle at run time. */
const compiledValidatorsOutside = {
  name: 'compiled-validators-outside',
  setup(build) {
    build.onResolve({ filter: /\/compiled-validators$/ }, () => ({ path: '../validate/compiled-validators.js', external: true }));
  },
};

async function bundle() {
  await require('esbuild').build({
    entryPoints: [path.join(root, 'dist', 'cli', 'bundle-entry.js')],
    outfile: path.join(root, 'dist', 'bundle', 'kforge.js'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['typescript', '@aws-sdk/*', '@google-cloud/*', 'ajv', 'ajv/*'],
    plugins: [compiledValidatorsOutside],
    logLevel: 'warning',
    legalComments: 'none',
  });
}

function codeCache() {
  const store = fs.mkdtempSync(path.join(os.tmpdir(), 'kforge-cache-'));
  try {
    execFileSync(process.execPath, [path.join(root, 'bin', 'run.js'), '--produce-code-cache'], {
      env: { ...process.env, KFORGE_CACHE_STORE: store, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } finally {
    fs.rmSync(store, { recursive: true, force: true });
  }
}

(process.argv.includes('--code-cache') ? Promise.resolve().then(codeCache) : bundle()).catch((e) => {
  process.stderr.write(`bundle: ${e.message}\n`);
  process.exit(1);
});
