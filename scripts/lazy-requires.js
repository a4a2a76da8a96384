// An esbuild plugin for scripts/bundle.js: makes the top-level `require`s of CommonJS modules compiled by
// tsc (kforge's dist/ and @oclif/core's lib/) lazy, so that a module's dependencies are evaluated when
// first used instead of when the module is loaded. A command then runs only the module bodies it needs:
// `get clusters` never evaluates oclif's help renderer, js-yaml or the PKI, though all are in the bundle.
//
// Only two shapes are rewritten, both exact:
//   const foo_1 = require("x");                       (and __importDefault/__importStar(require("x")))
//     where every use of foo_1 is a property access (tsc's `(0, foo_1.bar)(...)`, `foo_1.Bar`): the
//     binding becomes a function returning the module, each `foo_1.` becomes `foo_1().`; tsc's `_N` names
//     never occur in strings or as other variables, so the rewrite cannot touch anything else.
//   exports.Foo = __importStar(require("x"));         (re-exported namespaces, @oclif/core's index)
//     becomes an enumerable getter.
// Side-effect-only requires, and every other module (third-party CommonJS, JSON), are left as they are.
'use strict';
const fs = require('node:fs');

const BINDING = /^(?:const|var|let) ([A-Za-z_$][\w$]*_\d+) = ((?:__importDefault|__importStar)\(require\("[^"]+"\)\)|require\("[^"]+"\));$/gm;
// An identifier not preceded by a word character or a member-access dot (a spread's `...` is no access).
const NOT_A_PROPERTY = '(?<![\\w$])(?<!(?<!\\.\\.)\\.)';
const NAMESPACE_EXPORT = /^exports\.([A-Za-z_$][\w$]*) = (__importStar\(require\("[^"]+"\)\));$/gm;

/** Rewrites one tsc-compiled CommonJS module's top-level requires as lazy ones (see the header). */
function lazify(source) {
  let out = source;
  const names = [];
  for (const m of source.matchAll(BINDING)) {
    const name = m[1];
    const uses = [...source.matchAll(new RegExp(`${NOT_A_PROPERTY}${escape(name)}(?![\\w$])`, 'g'))];
    // The declaration is one use; every other use must be `name.` (possibly `name\n  .`) to be rewritten.
    const propertyUses = uses.filter((u) => /^\s*\./.test(source.slice(u.index + name.length, u.index + name.length + 20)));
    if (propertyUses.length !== uses.length - 1) continue;
    names.push(name);
    out = out.replace(m[0], `let ${name}$lazy; const ${name} = () => ${name}$lazy ?? (${name}$lazy = ${m[2]});`);
  }
  if (names.length > 0) {
    const uses = new RegExp(`${NOT_A_PROPERTY}(${names.map(escape).join('|')})(?=\\s*\\.)`, 'g');
    out = out.replace(uses, '($1())');
  }
  out = out.replace(NAMESPACE_EXPORT, (_all, name, expr) => `{ let v; Object.defineProperty(exports, "${name}", { enumerable: true, configurable: true, get: () => v ?? (v = ${expr}) }); }`);
  return out;
}

function escape(s) {
  return s.replace(/[$]/g, '\\$');
}

/**
 * The esbuild plugin; `filter` selects the files to rewrite (tsc-compiled CommonJS only), and `patch`
 * (path, source) => source may adjust a file before it is rewritten.
 */
function lazyRequires(filter, patch = (_path, source) => source) {
  return {
    name: 'lazy-requires',
    setup(build) {
      build.onLoad({ filter }, async (args) => ({ contents: lazify(patch(args.path, await fs.promises.readFile(args.path, 'utf8'))), loader: 'js' }));
    },
  };
}

module.exports = { lazyRequires, lazify };
