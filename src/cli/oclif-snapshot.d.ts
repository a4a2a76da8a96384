// Types of dist/cli/oclif-snapshot.js, which scripts/oclif-snapshot.js generates at build time from
// oclif's own discovery of the compiled commands (there is no TypeScript source for it).
import type { Command, Interfaces } from '@oclif/core';

/** What oclif's discovery found: package.json and the root plugin with its command manifest. */
export declare const SNAPSHOT: {
  pjson: Interfaces.PJSON;
  plugin: {
    name: string;
    alias: string;
    version: string;
    type: string;
    tag?: string;
    valid: boolean;
    hooks: Interfaces.Plugin['hooks'];
    moduleType: 'commonjs' | 'module';
    flexibleTaxonomy: boolean;
    commandIDs: string[];
    manifest: Interfaces.Manifest;
    /** The ids of the manifest's commands in the order Plugin.load() sorts them (build time). */
    commandOrder: string[];
  };
};

/** One loader per command id, each requiring only that command's module. */
export declare const COMMAND_LOADERS: Record<string, () => Command.Class>;
