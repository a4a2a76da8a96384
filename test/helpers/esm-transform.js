// Jest transform for the ESM-only packages in node_modules (@kubernetes/client-node 1.x and the
// openid-client, oauth4webapi and jose it imports): jest's CommonJS runtime on Node 20 cannot require
// ES modules, so esbuild turns each file into CommonJS, as the CLI's bundle does at build time.
'use strict';
const { transformSync } = require('esbuild');

module.exports = {
  process(source, filename) {
    const { code, map } = transformSync(source, { format: 'cjs', loader: 'js', target: 'node20', sourcemap: 'external', sourcefile: filename });
    return { code, map };
  },
};
