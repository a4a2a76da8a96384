/**
 * The single-file bundle's entry (scripts/build.js bundles it to dist/bundle/kforge.js with esbuild).
 * bin/run.js loads it, and oclif loads it again as the command table (package.json `oclif.commands`),
 * which Node answers from its module cache: one file parsed, one copy of every module.
 */
export { main } from './main';
export { COMMANDS } from '../commands/index';
export { oclifOptions } from './oclif-options';
// For scripts/oclif-snapshot.js --check: the bundle's own oclif, to load both configurations with.
export { Config } from '@oclif/core';
