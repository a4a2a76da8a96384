// Stands in for the `debug` package in the bundle (scripts/bundle.js), where only @oclif/core's logger
// uses it. `debug` decides once, when loaded, from the DEBUG environment variable, which namespaces print;
// with DEBUG unset nothing ever prints, yet loading it costs node:tty and node:net (milliseconds at every
// start). So without DEBUG this returns silent debug functions, and with DEBUG the real package.
'use strict';

/** A debug function for `namespace` that prints nothing, with the properties callers use. */
function silentDebug(namespace) {
  const debug = () => undefined;
  debug.namespace = namespace;
  debug.enabled = false;
  debug.extend = (sub, delimiter = ':') => silentDebug(`${namespace}${delimiter}${sub}`);
  debug.log = () => undefined;
  debug.destroy = () => true;
  return debug;
}

module.exports = process.env.DEBUG ? require('debug') : silentDebug;
