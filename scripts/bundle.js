#!/usr/bin/env node
// `bundle.js`: bundles the CLI into one file, dist/bundle/kforge.js, so a command starts without
// resolving ~200 modules. Left out of the bundle, and loaded from node_modules only by the commands that
// use them: the cloud SDKs (with google-gax and the Google auth library: 3 MB that doubled the bundle and
// the start of every command when they were bundled), @kubernetes/client-node (ESM, ~400 ms to load; validate and get instances), ajv with the validators compiled at build time (1 MB that only validating
// commands need; they stay in dist/validate) and typescript (which @oclif/core can load; kforge never
// does). Inside the bundle, module bodies run only when first used (scripts/lazy-requires.js), and the
// output is ASCII so that bin/run.js can read it as latin1.
// `bundle.js --code-cache`: writes V8's code caches, one per group of commands (CACHE_GROUPS), for the
// bundle (dist/bundle/kforge.js.<group>.cache) and for the compiled validators, by running each group's
// commands once in its own process, so that they start without compiling JavaScript. V8 rejects a cache
// on another Node version; the CLI then compiles as usual. Both are called by scripts/build.js.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { asciiOnly } = require('./ascii-only');
const { lazyRequires } = require('./lazy-requires');

const root = path.join(__dirname, '..');

/** The validators compiled at build time stay in dist/validate, required from the bundle at run time. */
const compiledValidatorsOutside = {
  name: 'compiled-validators-outside',
  setup(build) {
    build.onResolve({ filter: /\/compiled-validators$/ }, () => ({ path: '../validate/compiled-validators.js', external: true }));
  },
};

/** `debug` (used by @oclif/core's logger) is loaded only when DEBUG is set; see debug-if-enabled.js. */
const debugIfEnabled = {
  name: 'debug-if-enabled',
  setup(build) {
    build.onResolve({ filter: /^debug$/ }, (args) => (args.importer.endsWith('debug-if-enabled.js') ? undefined : { path: path.join(__dirname, 'debug-if-enabled.js') }));
  },
};

/** `ejs` (used by @oclif/core for help texts) is answered by ejs-simple-tags.js, which loads ejs when needed. */
const ejsSimpleTags = {
  name: 'ejs-simple-tags',
  setup(build) {
    build.onResolve({ filter: /^ejs$/ }, (args) => (args.importer.endsWith('ejs-simple-tags.js') ? undefined : { path: path.join(__dirname, 'ejs-simple-tags.js') }));
  },
};

/** node:tty in supports-color is isatty-without-tty.js, which loads node:tty only for character devices. */
const isattyWithoutTty = {
  name: 'isatty-without-tty',
  setup(build) {
    build.onResolve({ filter: /^(node:)?tty$/ }, (args) => {
      if (!/[\\/]node_modules[\\/]supports-color[\\/]/.test(args.importer)) return undefined;
      if (/\btty\.(?!isatty\()/.test(fs.readFileSync(args.importer, 'utf8'))) throw new Error(`${args.importer} uses more of tty than isatty(); review isatty-without-tty.js`);
      return { path: path.join(__dirname, 'isatty-without-tty.js') };
    });
  },
};

/**
 * Two changes to @oclif/core in the bundle, each failing the build when the code it expects is gone:
 * - its index checks the Node version against its own package.json, which it looks up next to the
 *   running file; in the bundle that lookup always fails (silently), so the check only costs loading semver.
 * - Config.load reads the user's theme (<config dir>/theme.json) asynchronously, treating any failure as
 *   no theme; the first asynchronous file operation starts libuv's thread pool, which commands such as
 *   --help need for nothing else. The read now happens only when the file exists.
 */
const OCLIF_PATCHES = [
  { file: path.join('@oclif', 'core', 'lib', 'index.js'), from: '\ncheckNodeVersion();\n', to: '\n' },
  {
    file: path.join('@oclif', 'core', 'lib', 'config', 'config.js'),
    from: '(0, fs_1.safeReadJson)(userThemeFile),',
    to: 'require("node:fs").existsSync(userThemeFile) ? (0, fs_1.safeReadJson)(userThemeFile) : undefined,',
  },
];

function patchOclif(file, source) {
  if (/\bejs\.(?!render\()/.test(source)) throw new Error(`${file} uses more of ejs than render(); review ejs-simple-tags.js`);
  for (const patch of OCLIF_PATCHES) {
    if (!file.endsWith(patch.file)) continue;
    if (!source.includes(patch.from)) throw new Error(`${file}: ${JSON.stringify(patch.from)} not found; review OCLIF_PATCHES`);
    source = source.replace(patch.from, patch.to);
  }
  return source;
}

/**
 * Packages that must never be inside the bundle: each is only needed by a command that talks to a cloud.
 * A new import of one (or of a package that pulls it in) would slow every command's start without any
 * test noticing, so the build fails instead, naming the file that pulled it in.
 */
const NEVER_BUNDLED = ['google-gax', '@grpc/grpc-js', 'protobufjs', 'google-auth-library', 'gaxios', '@aws-sdk/', '@smithy/', '@google-cloud/'];

function checkNeverBundled(metafile) {
  const banned = (file) => NEVER_BUNDLED.find((p) => file.includes(`node_modules/${p}`));
  const found = Object.keys(metafile.inputs).filter(banned);
  if (found.length === 0) return;
  // Name the first files outside the banned packages that import one of them: where the fix goes.
  const importers = Object.entries(metafile.inputs)
    .filter(([file, i]) => !banned(file) && (i.imports ?? []).some((im) => banned(im.path)))
    .map(([file]) => file);
  throw new Error(`the bundle includes ${banned(found[0])} (${found.length} files), imported by ${importers.join(', ') || found[0]}: add it to the externals in scripts/bundle.js`);
}

async function bundle() {
  const outfile = path.join(root, 'dist', 'bundle', 'kforge.js');
  const result = await require('esbuild').build({
    metafile: true,
    entryPoints: [path.join(root, 'dist', 'cli', 'bundle-entry.js')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['typescript', '@aws-sdk/*', '@smithy/*', '@google-cloud/*', 'google-gax', 'google-gax/*', 'google-auth-library', 'gaxios', 'ajv', 'ajv/*', '@kubernetes/client-node'],
    plugins: [compiledValidatorsOutside, debugIfEnabled, ejsSimpleTags, isattyWithoutTty, lazyRequires(/(\/dist\/|\/node_modules\/@oclif\/core\/lib\/).*\.js$/, patchOclif)],
    logLevel: 'warning',
    legalComments: 'none',
    charset: 'ascii',
  });
  checkNeverBundled(result.metafile);
  asciiOnly(outfile);
}

/**
 * The commands run to produce each group's code cache (bin/run.js picks the group from the command
 * line); `$store` is a state store holding one cluster, `$empty` an empty one. Groups run in this order,
 * each in its own process, so a cache holds only what its own commands compiled.
 */
const CACHE_GROUPS = {
  'create-cluster': [['create', 'cluster', 'cache.example.com', '--zones', 'us-east-1a,us-east-1b,us-east-1c', '--control-plane-zones', 'us-east-1a,us-east-1b,us-east-1c', '--state', '$store']],
  get: [
    ['get', 'clusters', '--state', '$empty'],
    ['get', 'clusters', '--state', '$store'],
    ['get', 'instancegroups', '--name', 'cache.example.com', '--state', '$store'],
  ],
  help: [['create', 'cluster', '--help'], ['get', 'clusters', '--help']],
  all: [
    ['get', 'clusters', '--state', '$store'],
    ['create', 'cluster', '--help'],
    ['create', 'cluster', 'all.example.com', '--zones', 'us-east-1a', '--state', '$store'],
    ['get', 'instancegroups', '--name', 'cache.example.com', '--state', '$store'],
  ],
};

function codeCache() {
  const store = fs.mkdtempSync(path.join(os.tmpdir(), 'kforge-cache-'));
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'kforge-cache-empty-'));
  try {
    for (const [group, runs] of Object.entries(CACHE_GROUPS)) {
      const args = runs.map((r) => r.map((a) => (a === '$store' ? store : a === '$empty' ? empty : a)));
      execFileSync(process.execPath, [path.join(root, 'bin', 'run.js'), '--produce-code-cache', group, JSON.stringify(args)], {
        env: { ...process.env, NO_COLOR: '1' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
    }
  } finally {
    fs.rmSync(store, { recursive: true, force: true });
    fs.rmSync(empty, { recursive: true, force: true });
  }
}

(process.argv.includes('--code-cache') ? Promise.resolve().then(codeCache) : bundle()).catch((e) => {
  process.stderr.write(`bundle: ${e.message}\n`);
  process.exit(1);
});
