import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from '../helpers/cli';

const read = (p: string) => fs.readFileSync(path.join(ROOT, p), 'utf8');
const docs = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

describe('README and docs', () => {
  it('tell how to get kforge on the PATH, and then write kforge, never ./bin/run.js', () => {
    const readme = read('README.md');
    expect(readme).toContain('npm link');
    expect(readme).toContain('npx kforge');
    for (const doc of docs) expect({ doc, invocations: read(doc).match(/\.\/bin\/run\.js/g) ?? [] }).toEqual({ doc, invocations: [] });
  });

  it('state the test prerequisites', () => {
    const readme = read('README.md');
    for (const tool of ['moto_server', 'openssl', 'unshare']) expect(readme).toContain(tool);
  });

  it('import from kops with the instance groups: kops get all NAME -o yaml', () => {
    const guide = read('docs/getting-started.md');
    expect(guide).toMatch(/kops get all \S+ -o yaml/);
    expect(guide).not.toMatch(/kops get cluster \S+ -o yaml >/);
  });

  it('show how to make your own CA with openssl', () => {
    const pki = read('docs/pki.md');
    const byo = pki.slice(pki.indexOf('## Bring your own CA'));
    expect(byo).toMatch(/openssl genpkey .*-out ca\.key/);
    expect(byo).toMatch(/openssl req -x509 .*-key ca\.key/);
    expect(byo).toContain('basicConstraints=critical,CA:TRUE');
  });
});

describe('package.json allowScripts', () => {
  it('decides for every installed package that has install scripts (no npm install warning)', () => {
    const allow = (JSON.parse(read('package.json')) as { allowScripts?: Record<string, boolean> }).allowScripts ?? {};
    const withScripts: string[] = [];
    const visit = (dir: string) => {
      if (!fs.existsSync(dir)) return;
      for (const name of fs.readdirSync(dir)) {
        if (name.startsWith('.')) continue;
        const full = path.join(dir, name);
        if (name.startsWith('@')) {
          visit(full);
          continue;
        }
        const pj = path.join(full, 'package.json');
        if (fs.existsSync(pj)) {
          const pkg = JSON.parse(fs.readFileSync(pj, 'utf8')) as { name?: string; scripts?: Record<string, string> };
          const scripts = pkg.scripts ?? {};
          // npm runs a registry package's preinstall/install/postinstall, and `node-gyp rebuild` for one with a binding.gyp.
          if (pkg.name && (scripts.preinstall || scripts.install || scripts.postinstall || fs.existsSync(path.join(full, 'binding.gyp')))) withScripts.push(pkg.name);
        }
        visit(path.join(full, 'node_modules'));
      }
    };
    visit(path.join(ROOT, 'node_modules'));
    expect(withScripts.length).toBeGreaterThan(0);
    expect([...new Set(withScripts)].filter((n) => !(n in allow)).sort()).toEqual([]);
  });
});
