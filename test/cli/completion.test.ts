import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli, tempDir } from '../helpers/cli';

/** Runs the generated completion function in a real bash for the given command line. */
function complete(script: string, words: string[]): string[] {
  const file = path.join(tempDir(), 'completion.sh');
  fs.writeFileSync(file, script);
  const quoted = words.map((w) => `'${w}'`).join(' ');
  const r = spawnSync('bash', ['-c', `source '${file}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _kforge_complete; printf '%s\\n' "\${COMPREPLY[@]}"`], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter(Boolean);
}

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

  it('refuses an unknown shell', () => {
    const bad = runCli(['completion', 'fish']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^Error: completion: shell "fish" is not supported/);
  });
});
