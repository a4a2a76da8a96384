#!/usr/bin/env node
// Writes dist/command-help.json: what `kforge <command or topic> --help` prints when its output is plain
// (stdout not a terminal, nothing asking for colors or another width), rendered by running the CLI itself
// for every command, alias and topic. bin/run.js prints it from there under exactly those conditions
// (see plainHelpText there), like the top-level help; otherwise oclif renders help as usual. Called by
// scripts/build.js after the bundle is built.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.join(__dirname, '..');
const dist = path.join(root, 'dist');

/** Every command id, alias and topic, as the words typed before --help. */
function subjects() {
  const { SNAPSHOT } = require(path.join(dist, 'cli', 'oclif-snapshot.js'));
  const ids = new Set(Object.keys(SNAPSHOT.pjson.oclif.topics ?? {}));
  for (const [id, c] of Object.entries(SNAPSHOT.plugin.manifest.commands)) {
    if (c.hasDynamicHelp) continue;
    ids.add(id);
    for (const alias of [...(c.aliases ?? []), ...(c.hiddenAliases ?? [])]) ids.add(alias);
  }
  return [...ids].sort().map((id) => id.split(':').join(' '));
}

function main() {
  // Rendered live: bin/run.js must not answer from a previous build's file.
  fs.rmSync(path.join(dist, 'command-help.json'), { force: true });
  // The conditions bin/run.js checks before printing these texts: none of the variables that change
  // colors, width or debugging output, and no user theme (an empty config directory).
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (/^(FORCE_COLOR|NO_COLOR|COLORTERM|TF_BUILD|CI|PM2_HOME|NEXT_RUNTIME|OCLIF_COLUMNS|DEBUG|KFORGE_DEBUG|XDG_CONFIG_HOME|KFORGE_CONFIG_DIR|TEAMCI.*)$/.test(k)) delete env[k];
  const config = fs.mkdtempSync(path.join(os.tmpdir(), 'kforge-help-'));
  env.XDG_CONFIG_HOME = config;
  const help = {};
  try {
    for (const words of subjects()) {
      help[words] = execFileSync(process.execPath, [path.join(root, 'bin', 'run.js'), ...words.split(' '), '--help'], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    }
  } finally {
    fs.rmSync(config, { recursive: true, force: true });
  }
  fs.writeFileSync(path.join(dist, 'command-help.json'), JSON.stringify({ platform: process.platform, help }));
}

main();
