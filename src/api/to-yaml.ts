import * as yaml from 'js-yaml';

/** Serialises a value as YAML the same way everywhere: key order kept, no line folding, no anchors. */
export function toYaml(value: unknown): string {
  return yaml.dump(value, { lineWidth: -1, noRefs: true, sortKeys: false, quotingType: '"' });
}

/** Serialises derived documents with every mapping's keys sorted, so they diff cleanly between runs. */
export function toSortedYaml(value: unknown): string {
  return yaml.dump(value, { lineWidth: -1, noRefs: true, sortKeys: true, quotingType: '"' });
}

/** Serialises several objects as one multi-document YAML stream. */
export function toYamlStream(values: unknown[]): string {
  return values.map((v) => toYaml(v)).join('---\n');
}
