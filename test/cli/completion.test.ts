import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT, runCli, tempDir } from '../helpers/cli';

/** A directory on PATH holding `kforge` (the built CLI), as users install it, for the scripts to call back. */
const binDir = tempDir();
fs.symlinkSync(path.join(ROOT, 'bin', 'run.js'), path.join(binDir, 'kforge'));
const shellEnv = { ...process.env, PATH: `${binDir}:${process.env.PATH}`, KFORGE_STATE_STORE: undefined, NO_COLOR: '1' };

/** Runs the generated completion function in a real bash for the given command line, in `cwd`. */
function complete(script: string, words: string[], cwd = ROOT): string[] {
  const file = path.join(tempDir(), 'completion.sh');
  fs.writeFileSync(file, script);
  const quoted = words.map((w) => `'${w}'`).join(' ');
  const r = spawnSync('bash', ['-c', `source '${file}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _kforge_complete; printf '%s\\n' "\${COMPREPLY[@]}"`], {
    encoding: 'utf8',
    cwd,
    env: shellEnv,
  });
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter(Boolean);
}

/** Installs a Debian package when its binary is missing (the tests need real shells). */
function ensureTool(bin: string, pkg: string): void {
  if (spawnSync('sh', ['-c', `command -v ${bin}`]).status === 0) return;
  const r = spawnSync('apt-get', ['install', '-y', '-q', pkg], { encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (r.status !== 0) throw new Error(`${bin} is needed for this test and could not be installed with apt-get install ${pkg}:\n${r.stderr}`);
}

/** A store with two clusters, and a directory with two manifests. */
const store = tempDir();
for (const name of ['alpha.k8s.local', 'beta.k8s.local']) expect(runCli(['create', 'cluster', name, '--zones', 'us-east-1a', '--state', store]).status).toBe(0);
const manifests = tempDir();
for (const f of ['a.yaml', 'b.yaml']) fs.writeFileSync(path.join(manifests, f), '');

describe('kforge completion bash', () => {
  const r = runCli(['completion', 'bash']);

  it('prints a script bash accepts', () => {
    expect(r.status).toBe(0);
    expect(spawnSync('bash', ['-n'], { input: r.stdout }).status).toBe(0);
  });

  it.each([
    [['kforge', 'cr'], ['create']],
    [['kforge', 'create', 'cl'], ['cluster']],
    [['kforge', 'create', 'cluster', '--top'], ['--topology']],
    [['kforge', 'create', 'cluster', '--topology', 'p'], ['public', 'private']],
    [['kforge', 'get', 'ig', '-o', ''], ['table', 'yaml', 'json']],
    [['kforge', 'create', '-f', 'x.yaml', '--st'], ['--state']],
    [['kforge', 'delete', ''], ['cluster', 'ig', 'instancegroup', 'sshpublickey']],
  ])('completes %j to %j', (words, expected) => {
    expect(complete(r.stdout, words)).toEqual(expected);
  });

  it('offers file names for -f, --cert, --key and --ssh-public-key', () => {
    expect(complete(r.stdout, ['kforge', 'create', '-f', ''], manifests).sort()).toEqual(['a.yaml', 'b.yaml']);
    expect(complete(r.stdout, ['kforge', 'replace', '--filename', 'b'], manifests)).toEqual(['b.yaml']);
    expect(complete(r.stdout, ['kforge', 'create', 'keypair', 'kubernetes-ca', '--cert', ''], manifests).sort()).toEqual(['a.yaml', 'b.yaml']);
    expect(complete(r.stdout, ['kforge', 'create', 'cluster', 'x.k8s.local', '--ssh-public-key', 'a'], manifests)).toEqual(['a.yaml']);
  });

  it('offers cluster names from the store on the command line for --name and for the cluster argument', () => {
    expect(complete(r.stdout, ['kforge', 'edit', 'cluster', '--state', store, ''])).toEqual(['alpha.k8s.local', 'beta.k8s.local']);
    expect(complete(r.stdout, ['kforge', 'delete', 'cluster', `--state=${store}`, 'b'])).toEqual(['beta.k8s.local']);
    expect(complete(r.stdout, ['kforge', 'get', 'ig', '--state', store, '--name', ''])).toEqual(['alpha.k8s.local', 'beta.k8s.local']);
    // A new cluster's name is not completed; a store that cannot be read gives nothing, not an error.
    expect(complete(r.stdout, ['kforge', 'create', 'cluster', '--state', store, ''])).not.toContain('alpha.k8s.local');
    expect(complete(r.stdout, ['kforge', 'edit', 'cluster', '--state', 's3://no-credentials-here', ''])).toEqual([]);
  });

  it('works in zsh through bashcompinit', () => {
    ensureTool('zsh', 'zsh');
    const file = path.join(tempDir(), 'completion.zsh');
    fs.writeFileSync(file, runCli(['completion', 'zsh']).stdout);
    const z = spawnSync('zsh', ['-c', `autoload -U +X compinit && compinit -u && autoload -U +X bashcompinit && bashcompinit && source '${file}' && echo loaded`], { encoding: 'utf8' });
    expect(z.stderr).toBe('');
    expect(z.stdout).toBe('loaded\n');
  });

  it('refuses an unknown shell', () => {
    const bad = runCli(['completion', 'tcsh']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^Error: completion: shell "tcsh" is not supported; use bash, zsh or fish/);
  });
});

describe('kforge completion fish', () => {
  ensureTool('fish', 'fish');
  const script = runCli(['completion', 'fish']).stdout;
  const file = path.join(tempDir(), 'kforge.fish');
  fs.writeFileSync(file, script);
  /** What fish itself offers for a command line (complete -C), names only. */
  const fish = (line: string, cwd = ROOT): string[] => {
    const out = spawnSync('fish', ['--no-config', '-c', `source '${file}'; complete -C${JSON.stringify(line)}`], { encoding: 'utf8', cwd, env: shellEnv });
    expect(out.stderr).toBe('');
    return out.stdout.split('\n').filter(Boolean).map((l) => l.split('\t')[0]);
  };

  it('is a script fish accepts', () => {
    expect(spawnSync('fish', ['--no-execute', file]).status).toBe(0);
  });

  it.each([
    ['kforge cr', ['create']],
    ['kforge create cl', ['cluster']],
    ['kforge create cluster --topology ', ['private', 'public']],
    ['kforge get ig -o ', ['json', 'table', 'yaml']],
  ])('completes %j to %j', (line, expected) => {
    expect(fish(line).sort()).toEqual(expected);
  });

  it('offers files for create -f and cluster names for edit cluster', () => {
    expect(fish('kforge create -f ', manifests).sort()).toEqual(['a.yaml', 'b.yaml']);
    expect(fish(`kforge edit cluster --state ${store} `)).toEqual(['alpha.k8s.local', 'beta.k8s.local']);
  });
});
