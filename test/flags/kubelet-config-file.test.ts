import * as yaml from 'js-yaml';
import { componentDefinition } from '../../src/api/schema-registry';
import type { InstanceGroup } from '../../src/api/types';
import { instanceGroupKubelet } from '../../src/expand/components/kubelet';
import { populateCluster } from '../../src/expand/populate-cluster';
import { componentCommand, nodeCommands } from '../../src/flags/component-argv';
import { KUBELET_CONFIG_PATH, kubeletConfigFieldNames, kubeletConfigFile } from '../../src/flags/kubelet-config-file';
import { buildNodeupConfig } from '../../src/model/nodeup-config-builder';
import { GOLDEN_CASES } from '../helpers/golden-cases';
import { KUBELET_CONFIGURATION_DURATIONS, KUBELET_CONFIGURATION_FIELDS, parseGoDuration } from './upstream-kubelet-configuration';

const CONFIG_FLAG = `--config=${KUBELET_CONFIG_PATH}`;

/** What kubelet would object to in a KubeletConfiguration file: unknown fields, bad durations, upstream's shutdown rule. */
function problemsOf(file: string): string[] {
  const doc = yaml.load(file, { schema: yaml.CORE_SCHEMA }) as Record<string, unknown>;
  const problems: string[] = [];
  if (doc.apiVersion !== 'kubelet.config.k8s.io/v1beta1' || doc.kind !== 'KubeletConfiguration') problems.push(`wrong type ${String(doc.apiVersion)}/${String(doc.kind)}`);
  for (const [key, value] of Object.entries(doc)) {
    if (!KUBELET_CONFIGURATION_FIELDS.has(key)) problems.push(`${key}: not a field of KubeletConfiguration v1beta1`);
    if (KUBELET_CONFIGURATION_DURATIONS.has(key) && (typeof value !== 'string' || parseGoDuration(value) === undefined)) problems.push(`${key}: ${String(value)} is not a Go duration`);
  }
  // pkg/kubelet/apis/config/validation/validation.go: both >= 0 and criticalPods <= shutdownGracePeriod.
  const grace = parseGoDuration(String(doc.shutdownGracePeriod ?? '0')) ?? 0;
  const critical = parseGoDuration(String(doc.shutdownGracePeriodCriticalPods ?? '0')) ?? 0;
  if (grace < 0 || critical < 0 || critical > grace) problems.push(`shutdownGracePeriodCriticalPods ${critical} must be <= shutdownGracePeriod ${grace}, both >= 0`);
  return problems;
}

describe('the kubelet schema: every field reaches kubelet', () => {
  const { node } = componentDefinition('KubeletConfigSpec');
  const props = Object.entries(node.properties ?? {});

  it('gives every KubeletConfigSpec field exactly one of x-kforge-flag and x-kforge-kubelet-config (none is silently dropped)', () => {
    const neither = props.filter(([, p]) => !p['x-kforge-flag'] && !p['x-kforge-kubelet-config']).map(([f]) => f);
    const both = props.filter(([, p]) => p['x-kforge-flag'] && p['x-kforge-kubelet-config']).map(([f]) => f);
    expect({ neither, both }).toEqual({ neither: [], both: [] });
  });

  it('names only fields of upstream KubeletConfiguration v1beta1 in x-kforge-kubelet-config', () => {
    const names = kubeletConfigFieldNames();
    expect(names).toEqual({ shutdownGracePeriod: 'shutdownGracePeriod', shutdownGracePeriodCriticalPods: 'shutdownGracePeriodCriticalPods' });
    expect(Object.values(names).filter((n) => !KUBELET_CONFIGURATION_FIELDS.has(n))).toEqual([]);
  });
});

describe('kubeletConfigFile', () => {
  it('renders only the set file fields, sorted, and nothing (no --config) when none is set', () => {
    expect(kubeletConfigFile({ shutdownGracePeriodCriticalPods: '5s', shutdownGracePeriod: '1m30s', maxPods: 50 })).toBe(
      ['apiVersion: kubelet.config.k8s.io/v1beta1', 'kind: KubeletConfiguration', 'shutdownGracePeriod: 1m30s', 'shutdownGracePeriodCriticalPods: 5s', ''].join('\n'),
    );
    expect(kubeletConfigFile({ maxPods: 50 })).toBeUndefined();
    expect(kubeletConfigFile(undefined)).toBeUndefined();
    expect(componentCommand('kubelet', { maxPods: 50 }).argv).toEqual(['/usr/local/bin/kubelet', '--container-runtime-endpoint=unix:///run/containerd/containerd.sock', '--max-pods=50']);
    expect(componentCommand('kubelet', { maxPods: 50, shutdownGracePeriod: '0s' }).argv).toEqual([
      '/usr/local/bin/kubelet', CONFIG_FLAG, '--container-runtime-endpoint=unix:///run/containerd/containerd.sock', '--max-pods=50',
    ]);
  });

  it('passes the checks upstream applies to the file, and refuses what kubelet would refuse', () => {
    expect(problemsOf(kubeletConfigFile({ shutdownGracePeriod: '30s', shutdownGracePeriodCriticalPods: '10s' }) as string)).toEqual([]);
    expect(problemsOf(kubeletConfigFile({ shutdownGracePeriod: '10s', shutdownGracePeriodCriticalPods: '30s' }) as string)).toHaveLength(1);
    expect(problemsOf('apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nshutdownGracePeriod: 30 s\nnoSuchField: 1\n')).toEqual([
      'shutdownGracePeriod: 30 s is not a Go duration',
      'noSuchField: not a field of KubeletConfiguration v1beta1',
    ]);
    expect(['0', '1.5h', '1m30s', '300ms', '-2s', '.5s'].map(parseGoDuration)).toEqual([0, 5400e9, 90e9, 300e6, -2e9, 0.5e9]);
    expect(['', '30', 's', '1d', '1 s', '1s ', '+'].map(parseGoDuration)).toEqual(Array(7).fill(undefined));
  });

  describe.each(GOLDEN_CASES)('$name, expanded', ({ load }) => {
    const { cluster, instanceGroups } = load();
    const completed = populateCluster(cluster, instanceGroups, 'memfs://kubelet-config-file');

    it.each(instanceGroups.map((ig) => [ig.metadata.name, ig] as [string, InstanceGroup]))(
      '%s: the nodeup config carries the file exactly when kubelet gets --config, and the file is valid',
      (_name, ig) => {
        const config = buildNodeupConfig(completed, ig);
        const argv = nodeCommands(completed.spec, instanceGroupKubelet(completed.spec, ig))[0]?.argv ?? [];
        expect(config.ComponentFlags.kubelet).toEqual(argv);
        // The expansion sets both shutdown settings, so every node gets them (before this, none did).
        expect(argv).toContain(CONFIG_FLAG);
        const file = config.KubeletConfigFile as string;
        expect(yaml.load(file)).toEqual({ apiVersion: 'kubelet.config.k8s.io/v1beta1', kind: 'KubeletConfiguration', shutdownGracePeriod: '30s', shutdownGracePeriodCriticalPods: '10s' });
        expect(problemsOf(file)).toEqual([]);
      },
    );
  });

  it("takes an instance group's own setting over the cluster's", () => {
    const { cluster, instanceGroups } = GOLDEN_CASES[0]!.load();
    const nodes = instanceGroups.find((ig) => ig.spec.role === 'Node') as InstanceGroup;
    nodes.spec.kubelet = { ...(nodes.spec.kubelet ?? {}), shutdownGracePeriod: '2m' };
    const completed = populateCluster(cluster, instanceGroups, 'memfs://kubelet-config-file');
    expect(yaml.load(buildNodeupConfig(completed, nodes).KubeletConfigFile as string)).toMatchObject({ shutdownGracePeriod: '2m', shutdownGracePeriodCriticalPods: '10s' });
  });
});
