import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { channelKubernetesVersion } from '../../src/expand/assets/asset-catalog';
import { ROOT, runCli, tempDir } from '../helpers/cli';

/** kops's PerformAssignments: a manifest without kubernetesVersion gets its channel's, written into `config`. */
const MINIMAL = fs.readFileSync(path.join(ROOT, 'test/fixtures/kops/minimal.yaml'), 'utf8');

function withoutVersion(channel?: string): string {
  const file = path.join(tempDir(), 'cluster.yaml');
  let text = MINIMAL.replace(/^ {2}kubernetesVersion: .*\n/m, '');
  if (channel) text = text.replace(/^ {2}channel: .*\n/m, '').replace(/^spec:\n/m, `spec:\n  channel: ${channel}\n`);
  fs.writeFileSync(file, text);
  return file;
}

function stored(store: string, key: string): { spec: { kubernetesVersion?: string } } {
  return yaml.load(fs.readFileSync(path.join(store, 'minimal.example.com', key), 'utf8')) as { spec: { kubernetesVersion?: string } };
}

describe('a kops manifest without kubernetesVersion', () => {
  it('gets the stable channel recommendation, stored in config and the completed spec', () => {
    const store = tempDir();
    const file = withoutVersion();
    expect(fs.readFileSync(file, 'utf8')).not.toMatch(/kubernetesVersion/);
    const r = runCli(['create', '-f', file, '--state', store]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const stable = channelKubernetesVersion('stable');
    expect(stable).toMatch(/^1\.\d+\.\d+$/);
    expect(stored(store, 'config').spec.kubernetesVersion).toBe(stable);
    const full = runCli(['get', 'cluster', 'minimal.example.com', '--full', '-o', 'json', '--state', store]);
    expect((JSON.parse(full.stdout) as { spec: { kubernetesVersion: string } }).spec.kubernetesVersion).toBe(stable);
  });

  it('gets the alpha channel recommendation when the spec names that channel', () => {
    const store = tempDir();
    expect(runCli(['create', '-f', withoutVersion('alpha'), '--state', store]).status).toBe(0);
    expect(stored(store, 'config').spec.kubernetesVersion).toBe(channelKubernetesVersion('alpha'));
    expect(channelKubernetesVersion('alpha')).not.toBe(channelKubernetesVersion('stable'));
  });

  it('is refused with the channel named when the channel is unknown, and nothing is written', () => {
    const store = tempDir();
    const r = runCli(['create', '-f', withoutVersion('https://example.com/channels/stable'), '--state', store]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/cluster\.yaml:\d+: Cluster\/minimal\.example\.com: spec\.channel: "https:\/\/example\.com\/channels\/stable" is not a channel kforge knows \(alpha, stable\)/);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(fs.readdirSync(store)).toEqual([]);
  });

  it('create cluster --channel alpha picks alpha; an unknown --channel is a flag error', () => {
    const store = tempDir();
    expect(runCli(['create', 'cluster', 'minimal.example.com', '--zones', 'us-east-1a', '--channel', 'alpha', '--state', store]).status).toBe(0);
    expect(stored(store, 'config').spec.kubernetesVersion).toBe(channelKubernetesVersion('alpha'));
    const bad = runCli(['create', 'cluster', 'x.example.com', '--zones', 'us-east-1a', '--channel', 'beta', '--state', tempDir()]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/--channel: "beta" is not a channel kforge knows/);
  });
});
