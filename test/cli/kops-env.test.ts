import { expectCleanFailure, runCli, tempDir } from '../helpers/cli';

const NO_KOPS = { KOPS_STATE_STORE: undefined, KOPS_CLUSTER_NAME: undefined };

describe('kops environment variables are honoured when the KFORGE_ ones are not set', () => {
  let store: string;
  beforeAll(() => {
    store = tempDir();
    expect(runCli(['create', 'cluster', 'demo.k8s.local', '--zones', 'us-east-1a', '--state', store], { env: NO_KOPS }).status).toBe(0);
  });

  it('KOPS_STATE_STORE names the store, and says so once on stderr', () => {
    const r = runCli(['get', 'clusters'], { env: { ...NO_KOPS, KOPS_STATE_STORE: store, HOME: tempDir() } });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^demo\.k8s\.local\s/m);
    expect(r.stderr).toBe(`Using KOPS_STATE_STORE=${store} (KFORGE_STATE_STORE is not set)\n`);
  });

  it('KOPS_CLUSTER_NAME names the cluster; both variables are announced once each', () => {
    const r = runCli(['get', 'instancegroups'], { env: { KOPS_STATE_STORE: store, KOPS_CLUSTER_NAME: 'demo.k8s.local' } });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('nodes-us-east-1a');
    expect(r.stderr.split('\n').filter(Boolean).sort()).toEqual([
      'Using KOPS_CLUSTER_NAME=demo.k8s.local (KFORGE_CLUSTER_NAME is not set)',
      `Using KOPS_STATE_STORE=${store} (KFORGE_STATE_STORE is not set)`,
    ]);
  });

  it('KOPS_CLUSTER_NAME also serves commands that take the cluster as an argument', () => {
    const r = runCli(['get', 'cluster', '-o', 'yaml'], { env: { KOPS_STATE_STORE: store, KOPS_CLUSTER_NAME: 'demo.k8s.local' } });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('kind: Cluster');
  });

  it('the KFORGE_ variables win, silently', () => {
    const r = runCli(['get', 'instancegroups'], { env: { KFORGE_STATE_STORE: store, KFORGE_CLUSTER_NAME: 'demo.k8s.local', KOPS_STATE_STORE: '/nonexistent', KOPS_CLUSTER_NAME: 'other' } });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('--state wins over KOPS_STATE_STORE, silently', () => {
    const r = runCli(['get', 'clusters', '--state', store], { env: { KOPS_STATE_STORE: 'bogus://x' } });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('a bad KOPS_STATE_STORE is reported as coming from that variable', () => {
    const r = runCli(['get', 'clusters'], { env: { KOPS_STATE_STORE: 'bogus://x' } });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Error: KOPS_STATE_STORE (environment variable): unsupported state store scheme "bogus://"');
  });

  it('without any, the cluster name is still required', () => {
    expectCleanFailure(runCli(['get', 'instancegroups', '--state', store], { env: NO_KOPS }));
  });
});
