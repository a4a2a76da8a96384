import { runCli } from '../helpers/cli';

describe('help', () => {
  it.each([
    'create cluster',
    'create instancegroup',
    'create keypair',
    'create state-store',
    'create',
    'delete cluster',
    'delete instancegroup',
    'edit cluster',
    'edit instancegroup',
    'export kubeconfig',
    'get clusters',
    'get instancegroups',
    'get keypairs',
    'replace',
    'completion',
  ])('-h on %s prints the same help as --help', (cmd) => {
    const long = runCli([...cmd.split(' '), '--help']);
    const short = runCli([...cmd.split(' '), '-h']);
    expect(short.stderr).toBe('');
    expect(short.status).toBe(0);
    expect(short.stdout).toContain('USAGE');
    expect(short.stdout).toBe(long.stdout);
  });

  it('kforge help create cluster is create cluster --help', () => {
    const r = runCli(['help', 'create', 'cluster']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(runCli(['create', 'cluster', '--help']).stdout);
  });

  it('kforge help get is the topic help', () => {
    const r = runCli(['help', 'get']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('get clusters');
  });

  it('the top-level help ends with examples', () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const r = runCli(args);
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/EXAMPLES\n {2}\$ kforge create cluster demo\.k8s\.local --zones us-east-1a\n/);
    }
  });

  it.each(['get', 'delete', 'edit', 'export'])('topic help of %s shows examples', (topic) => {
    const r = runCli([topic, '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`EXAMPLES\\n {2}\\$ kforge ${topic} `));
  });

  it('aliases are listed once, beside their command', () => {
    const r = runCli(['get', '--help']);
    const commands = r.stdout.split('COMMANDS\n')[1].split('\n\n')[0];
    const listed = [...commands.matchAll(/^ {2}(get \S+)/gm)].map((m) => m[1]);
    expect(listed).toEqual(['get all', 'get clusters', 'get instancegroups', 'get instances', 'get keypairs', 'get node-requests', 'get nodeup-config', 'get sshpublickeys']);
    expect(commands.replace(/\s+/g, ' ')).toMatch(/get instancegroups [^()]*\(aliases: ig, igs, instancegroup\)/);
    expect(commands).toMatch(/get clusters[\s\S]*\(alias: cluster\)/);
    const create = runCli(['create', '--help']).stdout.split('COMMANDS\n')[1];
    expect(create).not.toMatch(/^ {2}create ig /m);
    expect(create).toMatch(/create instancegroup[\s\S]*\(alias: ig\)/);
  });

  it('get ig --help has a description', () => {
    const r = runCli(['get', 'ig', '--help']);
    expect(r.stdout).toMatch(/DESCRIPTION\n {2}\S/);
  });
});

describe('unknown commands and missing subcommands', () => {
  it('get clsuters suggests get clusters', () => {
    const r = runCli(['get', 'clsuters']);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('unknown command "get clsuters"');
    expect(r.stderr).toContain('Did you mean "kforge get clusters"?');
  });

  it('an unknown command is named as typed, not as an internal id', () => {
    const r = runCli(['creat', 'cluster', 'x']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('unknown command "creat cluster". Did you mean "kforge create cluster"?');
    expect(r.stderr).not.toContain('creat:');
  });

  it('a command that is also a topic: create clsuter x', () => {
    const r = runCli(['create', 'clsuter', 'x', '--zones', 'us-east-1a']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('unknown command "create clsuter". Did you mean "kforge create cluster"?');
  });

  it('nothing close: the first unknown word, and where to look', () => {
    const r = runCli(['frobnicate', 'all']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('unknown command "frobnicate". "kforge --help" lists the commands.');
  });

  it('a mistyped command with --help is still an error', () => {
    const r = runCli(['get', 'clsuters', '--help']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Did you mean "kforge get clusters"?');
  });

  it('a topic with flags but no subcommand is an error, not topic help', () => {
    const r = runCli(['edit', '--name', 'c.k8s.local']);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('"kforge edit" needs a command: kforge edit cluster, kforge edit instancegroup');
  });

  it('a topic alone still prints its help; get, also a command (kops get NAME), asks for a name or a subcommand', () => {
    const r = runCli(['edit']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('edit cluster');
    const get = runCli(['get']);
    expect(get.status).toBe(1);
    expect(get.stderr).toContain('kforge get clusters|instancegroups|keypairs|sshpublickeys|all');
  });
});
