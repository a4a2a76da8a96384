import { componentDefinition, deref, type SchemaNode } from '../../src/api/schema-registry';
import { knownKubernetesVersions } from '../../src/expand/assets/asset-catalog';
import { instanceGroupKubelet } from '../../src/expand/components/kubelet';
import { isControlPlane } from '../../src/expand/expand-context';
import { populateCluster } from '../../src/expand/populate-cluster';
import table from '../../src/flags/accepted-flags.json';
import { COMPONENT_DEFINITIONS, type ComponentCommand, controlPlaneCommands, FIXED_FLAGS, nodeCommands } from '../../src/flags/component-argv';
import { etcdCommand } from '../../src/flags/etcd-command';
import { type FlagComponent, flagVerdict } from '../../src/flags/flag-support';
import { GOLDEN_CASES } from '../helpers/golden-cases';

/**
 * Every argv kforge renders must be one the component version accepts: each golden case is expanded at
 * every known Kubernetes version and every flag of every component (and of every etcd member, at the
 * etcd version paired with that Kubernetes version) is looked up in src/flags/accepted-flags.json.
 */
describe('rendered flags are accepted by the component version', () => {
  const versions = knownKubernetesVersions();

  it('covers every supported minor', () => {
    expect([...new Set(versions.map((v) => v.split('.').slice(0, 2).join('.')))].sort()).toEqual(table.kubernetesMinors);
  });

  describe.each(GOLDEN_CASES)('$name', ({ name, load }) => {
    it.each(versions)('at Kubernetes %s', (version) => {
      const { cluster, instanceGroups } = load();
      const input = { ...cluster, spec: { ...cluster.spec, kubernetesVersion: version } };
      const completed = populateCluster(input, instanceGroups, 'memfs://accepted-flags');
      const spec = completed.spec;
      const commands: ComponentCommand[] = [];
      if (instanceGroups.some(isControlPlane)) commands.push(...controlPlaneCommands(spec));
      for (const ig of instanceGroups) commands.push(...nodeCommands(spec, instanceGroupKubelet(spec, ig)));
      const problems: string[] = [];
      for (const c of commands) {
        for (const arg of c.argv.slice(1)) {
          const verdict = flagVerdict(c.component as FlagComponent, arg, version);
          if (!verdict.accepted) problems.push(`${name} @ ${version}: ${c.component}: ${verdict.problem}`);
        }
      }
      for (const etcd of spec.etcdClusters ?? []) {
        for (const member of etcd.etcdMembers ?? []) {
          for (const arg of etcdCommand(spec, completed.metadata.name, etcd.name, member.name).argv.slice(1)) {
            const verdict = flagVerdict('etcd', arg, etcd.version as string);
            if (!verdict.accepted) problems.push(`${name} @ ${version}: etcd ${etcd.version} (${etcd.name}/${member.name}): ${verdict.problem}`);
          }
        }
      }
      expect(problems).toEqual([]);
    });
  });
});

describe('the accepted-flags table', () => {
  const components = table.components as Record<string, Record<string, { source: string; removedIn?: string; removedBefore?: string }>>;

  it.each(Object.entries(COMPONENT_DEFINITIONS))('has an entry for every x-kforge-flag of %s (%s) and for its fixed flags', (component, definition) => {
    const { node, base } = componentDefinition(definition);
    const flags = [...schemaFlags(node, base, new Set()), ...(FIXED_FLAGS[component] ?? []).map((f) => f.replace(/^--/, '').replace(/=.*$/, ''))];
    expect(flags.length).toBeGreaterThan(0);
    expect(flags.filter((f) => !components[component]?.[f])).toEqual([]);
  });

  it('gives every entry a source', () => {
    const rows = [...Object.values(components).flatMap((c) => Object.values(c)), ...Object.values(table.etcd.flags)];
    expect(rows.filter((r) => !r.source)).toEqual([]);
  });

  it('rejects the two known removals with their replacement', () => {
    expect(flagVerdict('kube-apiserver', '--cloud-provider=external', '1.33.13').accepted).toBe(false);
    expect(flagVerdict('kubelet', '--pod-infra-container-image=x', '1.34.10').accepted).toBe(true);
    expect(flagVerdict('kubelet', '--pod-infra-container-image=x', '1.35.7').problem).toBe(
      '--pod-infra-container-image was removed from kubelet in Kubernetes 1.35 (this cluster runs 1.35.7); set spec.containerd.sandboxImage instead',
    );
    expect(flagVerdict('etcd', '--enable-v2=true', '3.5.34').accepted).toBe(true);
    expect(flagVerdict('etcd', '--enable-v2=true', '3.6.15').accepted).toBe(false);
    expect(flagVerdict('kubelet', '--no-such-flag', '1.35.7').accepted).toBe(false);
  });
});

/** Flag names of a definition, nested blocks (leaderElection) included, as render-flags walks them. */
function schemaFlags(schema: SchemaNode, base: SchemaNode, seen: Set<SchemaNode>): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const out: string[] = [];
  for (const raw of Object.values(schema.properties ?? {})) {
    const { node, base: b } = deref(raw, base);
    const flag = raw['x-kforge-flag'] ?? node['x-kforge-flag'];
    if (flag) out.push(flag);
    else if (node.properties) out.push(...schemaFlags(node, b, seen));
  }
  return out;
}
