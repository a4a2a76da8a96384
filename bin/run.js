#!/usr/bin/env node
// kforge entry point. `--version` and the top-level `--help` are answered from files written at build
// time, so the two most common quick invocations do not pay for loading the CLI framework.
'use strict';
const path = require('node:path');
const fs = require('node:fs');

const argv = process.argv.slice(2);
// kforge pins an AWS SDK release that supports this Node version; its notice about future releases
// needing Node 22 would otherwise be printed by every command that touches S3.
if (process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED === undefined) process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const dist = path.join(__dirname, '..', 'dist');

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
  else require(path.join(dist, 'cli', 'main.js')).main(argv);
} else {
  // create cluster needs one RSA key (the service-account signer, ~100-200 ms); make it while oclif loads.
  if (argv[0] === 'create' && argv[1] === 'cluster' && !argv.some((a) => a === '--dry-run' || a === '--help' || a === '-h')) {
    require(path.join(dist, 'pki', 'key-pool.js')).prewarmKey('rsa-2048');
  }
  require(path.join(dist, 'cli', 'main.js')).main(argv);
}
