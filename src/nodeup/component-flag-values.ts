import type { NodeupConfig } from '../model/nodeup-config-builder';

/** The value of each `--flag=value` of a component's rendered argv, by flag name (`tls-cert-file`); empty when the component does not run here. */
export function componentFlagValues(config: NodeupConfig, component: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const arg of (config.ComponentFlags[component] ?? []).slice(1)) {
    const m = /^--([a-z0-9-]+)=(.*)$/s.exec(arg);
    if (m) out.set(m[1], m[2]);
  }
  return out;
}
