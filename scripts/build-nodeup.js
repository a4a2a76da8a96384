#!/usr/bin/env node
// `build-nodeup.js`: builds the nodeup artifact, dist/nodeup/nodeup: ONE self-contained JavaScript file
// that the pinned Node.js runtime runs on a node (user-data installs the runtime under /opt/kforge/node,
// hence the shebang). It holds `kforge nodeup`, `kforge protokube` and `kforge kops-controller` (one download and one hash
// for all: `nodeup protokube …` runs protokube, `nodeup kops-controller …` the node-identity service, anything else is nodeup's arguments, as user-data passes
// them) and everything they load, the AWS SDK (S3, EC2 and Route 53 for protokube, the credential
// providers: the instance role) and the GCS client included: nothing is left for a node to
// find in a node_modules. The build is deterministic (paths relative to the package root, no
// timestamps, no legal comments), so the same sources give the same bytes and the same sha256, which it
// writes to dist/nodeup/nodeup-artifact.json for src/model/nodeup-artifacts.ts to put into user-data.
// Runs from scripts/build.js after tsc (it bundles dist/, as scripts/bundle.js does). Why a bundle and
// not a Node single-executable application: docs/node-bootstrap.md.
'use strict';
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
// `--out DIR` builds elsewhere (test/e2e/nodeup-artifact.test.ts checks that a rebuild gives the same bytes).
const outArg = process.argv.indexOf('--out');
const outDir = outArg > 0 ? path.resolve(process.argv[outArg + 1]) : path.join(root, 'dist', 'nodeup-artifact');
const outfile = path.join(outDir, 'nodeup');

/** Where user-data puts the runtime: the shebang names it, so the artifact runs as /opt/kforge/bin/nodeup. */
const RUNTIME = '/opt/kforge/node/bin/node';

/** The commands the artifact holds: the node's own. */
const NODE_COMMANDS = ['nodeup', 'protokube', 'kops-controller'];

/**
 * The CLI's command table and oclif snapshot, cut down to NODE_COMMANDS: dist/cli/main.js and
 * oclif-options.js load both, and the full ones would pull every command (and with them IAM, ELB and the
 * other SDKs) into the artifact. The manifest (flags, help) stays the build's own.
 */
const nodeupOnly = {
  name: 'nodeup-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/commands\/index$/ }, (args) => (args.importer.endsWith(path.join('dist', 'cli', 'main.js')) ? { path: 'commands', namespace: 'nodeup-only' } : undefined));
    build.onResolve({ filter: /^\.\/oclif-snapshot$/ }, (args) => (args.importer.endsWith(path.join('dist', 'cli', 'oclif-options.js')) ? { path: 'snapshot', namespace: 'nodeup-only' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'nodeup-only' }, (args) => {
      const file = (id) => JSON.stringify(path.join(root, 'dist', 'commands', `${id}.js`));
      const table = (value) => `{ ${NODE_COMMANDS.map((id) => `${JSON.stringify(id)}: ${value(file(id))}`).join(', ')} }`;
      let contents = `exports.COMMANDS = ${table((f) => `require(${f}).default`)};`;
      if (args.path === 'snapshot') {
        // The snapshot's data only: its module also holds a loader, and so a require, for every command.
        // oclif's default help: kforge's help class is a file of dist/, which a node does not have.
        const { SNAPSHOT } = require(path.join(root, 'dist', 'cli', 'oclif-snapshot.js'));
        const oclif = { ...SNAPSHOT.pjson.oclif };
        delete oclif.helpClass;
        const snapshot = { ...SNAPSHOT, pjson: { ...SNAPSHOT.pjson, oclif } };
        contents = `exports.SNAPSHOT = JSON.parse(${JSON.stringify(JSON.stringify(snapshot))});\nexports.COMMAND_LOADERS = ${table((f) => `() => require(${f}).default`)};`;
      }
      return { contents, loader: 'js', resolveDir: root };
    });
  },
};

/**
 * AwsCloud (src/cloud/aws/aws-cloud.ts), which protokube uses for EC2 and Route 53, can also load the IAM,
 * Auto Scaling and ELBv2 clients that only `update cluster` and `delete cluster` call. They would add
 * about 0.6 MB; here each is a module that fails loudly if anything ever loads it.
 */
const UNUSED_SDKS = /^@aws-sdk\/client-(iam|auto-scaling|elastic-load-balancing-v2)$/;
const withoutUnusedSdks = {
  name: 'without-unused-sdks',
  setup(build) {
    build.onResolve({ filter: UNUSED_SDKS }, (args) => ({ path: args.path, namespace: 'unused-sdk' }));
    build.onLoad({ filter: /.*/, namespace: 'unused-sdk' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${args.path} is not in the nodeup artifact (scripts/build-nodeup.js): nodeup, protokube and kops-controller never call it`)});`,
      loader: 'js',
    }));
  },
};

/**
 * protokube loads @kubernetes/client-node's KubeConfig (dist/config.js) to read the kubeconfig nodeup wrote
 * (a client certificate) and make its TLS options. config.js also imports what only other credentials and
 * calls need: the cloud and OIDC auth providers, proxy agents, fetch's Headers and the generated API clients
 * (`makeApiClient`), about 1.1 MB. Here each is a small module of the same exports: an auth provider that
 * never claims a user, and the rest failing loudly if anything ever calls them.
 */
const CLIENT_NODE_CONFIG = /@kubernetes[\\/]client-node[\\/]dist[\\/]config\.js$/;
const CLIENT_NODE_UNUSED = {
  './azure_auth.js': ['AzureAuth'],
  './gcp_auth.js': ['GoogleCloudPlatformAuth'],
  './oidc_auth.js': ['OpenIDConnectAuth'],
  './gen/index.js': ['createConfiguration', 'ServerConfiguration'],
  'node-fetch': ['Headers'],
  'socks-proxy-agent': ['SocksProxyAgent'],
  hpagent: ['HttpProxyAgent', 'HttpsProxyAgent'],
};
const withoutUnusedKubeClient = {
  name: 'without-unused-kube-client',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => (CLIENT_NODE_CONFIG.test(args.importer) && CLIENT_NODE_UNUSED[args.path] ? { path: args.path, namespace: 'unused-kube-client' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'unused-kube-client' }, (args) => ({
      contents: CLIENT_NODE_UNUSED[args.path]
        .map((name) => {
          const fail = `throw new Error(${JSON.stringify(`${name} (${args.path} of @kubernetes/client-node) is not in the nodeup artifact (scripts/build-nodeup.js): protokube authenticates with a client certificate`)})`;
          return name.endsWith('Auth') ? `export class ${name} { isAuthProvider() { return false; } applyAuthentication() { ${fail}; } }` : `export function ${name}() { ${fail}; }`;
        })
        .join('\n'),
      loader: 'js',
    }));
  },
};

async function buildNodeup() {
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  await require('esbuild').build({
    stdin: {
      contents: [
        // One file, three commands: `nodeup protokube …` (kforge-protokube.service) runs protokube, `nodeup
        // kops-controller …` (kforge-kops-controller.service) the node-identity service; any other arguments
        // are nodeup's, as user-data and kforge-nodeup.service pass them.
        "const args = process.argv.slice(2);",
        "require('./dist/cli/main').main(['protokube', 'kops-controller'].includes(args[0]) ? args : ['nodeup', ...args]);",
      ].join('\n'),
      resolveDir: root,
      sourcefile: 'nodeup-entry.js',
      loader: 'js',
    },
    absWorkingDir: root,
    outfile,
    bundle: true,
    platform: 'node',
    // The pinned runtime user-data installs (src/model/nodeup-artifacts.ts), not the build machine's Node.
    target: require(path.join(root, 'dist', 'model', 'nodeup-artifacts.js')).NODE_RUNTIME_TARGET,
    format: 'cjs',
    // @oclif/core can load typescript for development setups; kforge never does, and a node has none.
    external: ['typescript'],
    plugins: [nodeupOnly, withoutUnusedSdks, withoutUnusedKubeClient],
    banner: { js: `#!${RUNTIME}` },
    logLevel: 'warning',
    legalComments: 'none',
    charset: 'ascii',
  });
  fs.chmodSync(outfile, 0o755);
  const data = fs.readFileSync(outfile);
  const artifact = { file: 'nodeup', sha256: createHash('sha256').update(data).digest('hex'), size: data.length };
  fs.writeFileSync(path.join(outDir, 'nodeup-artifact.json'), `${JSON.stringify(artifact, null, 2)}\n`);
  process.stdout.write(`nodeup artifact: ${path.relative(root, outfile)} ${artifact.size} bytes sha256 ${artifact.sha256}\n`);
}

buildNodeup().catch((e) => {
  process.stderr.write(`build-nodeup: ${e.message}\n`);
  process.exit(1);
});
