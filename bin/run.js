#!/usr/bin/env node
// kforge entry point. `--version`, the top-level `--help` and plain `<command> --help` are answered from
// files written at build time, so these quick invocations do not pay for loading the CLI framework.
// Everything else runs from the single-file bundle (scripts/bundle.js), compiled from V8's code caches.
// How it all fits together: docs/architecture.md, "How the CLI starts".
'use strict';
const path = require('node:path');
const fs = require('node:fs');

const argv = process.argv.slice(2);
// kforge pins an AWS SDK release that supports this Node version; its notice about future releases
// needing Node 22 would otherwise be printed by every command that touches S3.
if (process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED === undefined) process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const dist = path.join(__dirname, '..', 'dist');
const bundleFile = path.join(dist, 'bundle', 'kforge.js');

/**
 * The code cache to start with: one per group of commands, each written by running only that group's
 * commands (scripts/bundle.js), so that V8 deserializes what the command compiles and nothing more.
 */
function cacheGroup(args) {
  if (args.includes('--help') || args.includes('-h')) return 'help';
  if (args[0] === 'create' && args[1] === 'cluster') return 'create-cluster';
  if (args[0] === 'get') return 'get';
  return 'all';
}

const validatorsFile = path.join(dist, 'validate', 'compiled-validators.js');
// How the bundle requires the validators (scripts/bundle.js leaves them out of it).
const validatorsRequest = '../validate/compiled-validators.js';
const compiled = [];

/**
 * Runs an ASCII-only CommonJS file (the build makes the bundle and the validators so, and latin1 reads
 * them exactly, much faster than UTF-8) compiled with V8's code cache `cacheFile` when V8 accepts it (same
 * Node, same file), and registers it in the module cache. Returns the module.
 */
function compileCached(file, cacheFile, requireFn) {
  const vm = require('node:vm');
  const Module = require('node:module');
  const source = fs.readFileSync(file, 'latin1');
  let cachedData;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  const mod = new Module(file, module);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(path.dirname(file));
  Module._cache[file] = mod;
  script.runInThisContext().call(mod.exports, mod.exports, requireFn ?? Module.createRequire(file), mod, file, path.dirname(file));
  mod.loaded = true;
  compiled.push(() => fs.writeFileSync(cacheFile, script.createCachedData()));
  return mod;
}

/**
 * Loads the bundle, compiled with the code cache of `group`; oclif finds it again in the module cache as
 * the command table. Its `require` gives the compiled validators (1 MB, only for commands that validate)
 * their own code cache. Without a bundle (a source checkout that was not built) it falls back to the
 * compiled modules.
 */
function loadCli(group) {
  if (!fs.existsSync(bundleFile)) return require(path.join(dist, 'cli', 'main.js'));
  const Module = require('node:module');
  const bundleRequire = Module.createRequire(bundleFile);
  const requireFromBundle = Object.assign(
    (request) => (request === validatorsRequest ? (Module._cache[validatorsFile] ?? compileCached(validatorsFile, `${validatorsFile}.cache`)).exports : bundleRequire(request)),
    bundleRequire,
  );
  return compileCached(bundleFile, `${bundleFile}.${group}.cache`, requireFromBundle).exports;
}

/**
 * What oclif prints for `<command or topic> --help` when that output is plain, from
 * dist/command-help.json (rendered at build time by scripts/command-help.js); undefined when the help must
 * be rendered. Plain means what oclif would find at build time: stdout is no terminal (so no colors and
 * 80 columns), no variable asks for colors, another width or debugging output, and there is no user theme.
 */
function plainHelpText(args) {
  const words = args.slice(0, -1);
  // Only --help: oclif takes -h for help at the top level only (a command rejects it as an unknown flag).
  if (args.length < 2 || args.at(-1) !== '--help' || words.some((w) => w.startsWith('-'))) return undefined;
  if (Object.keys(process.env).some((k) => /^(FORCE_COLOR|COLORTERM|TF_BUILD|CI|PM2_HOME|NEXT_RUNTIME|OCLIF_COLUMNS|DEBUG|KFORGE_DEBUG|KFORGE_CONFIG_DIR|TEAMCI.*)$/.test(k))) return undefined;
  let help;
  try {
    const stdout = fs.fstatSync(1);
    // A terminal is a character device; /dev/null is the one that is certainly not a terminal.
    if (stdout.isCharacterDevice() && stdout.rdev !== fs.statSync('/dev/null').rdev) return undefined;
    const home = process.env.HOME || require('node:os').homedir();
    if (fs.existsSync(path.join(process.env.XDG_CONFIG_HOME || path.join(home, '.config'), 'kforge', 'theme.json'))) return undefined;
    help = JSON.parse(fs.readFileSync(path.join(dist, 'command-help.json'), 'utf8'));
  } catch {
    return undefined;
  }
  return help.platform === process.platform && Object.hasOwn(help.help, words.join(' ')) ? help.help[words.join(' ')] : undefined;
}

/** Build time: runs the given commands (JSON, after the flag) once, then writes what V8 compiled as the group's cache. */
async function produceCodeCache(group, runs) {
  const cli = loadCli(group);
  for (const args of runs) await cli.main(args);
  process.exitCode = 0;
  for (const write of compiled) write();
}

const plainHelp = plainHelpText(argv);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === 'version')) {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
  process.stdout.write(`kforge/${pkg.version} ${process.platform}-${process.arch} node-${process.version}\n`);
} else if (argv.length === 0 || (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help'))) {
  let text;
  try {
    text = fs.readFileSync(path.join(dist, 'root-help.txt'), 'utf8');
  } catch {
    text = undefined;
  }
  if (text !== undefined) process.stdout.write(text);
  else loadCli('help').main(argv);
} else if (argv.length === 3 && argv[0] === '--produce-code-cache') {
  produceCodeCache(argv[1], JSON.parse(argv[2]));
} else if (plainHelp !== undefined) {
  process.stdout.write(plainHelp);
} else {
  loadCli(cacheGroup(argv)).main(argv);
}
