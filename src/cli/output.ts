import { toYaml, toYamlStream } from '../api/to-yaml';

/** Output formats of commands that print data. */
export const OUTPUT_FORMATS = ['table', 'yaml', 'json'] as const;
/** One of OUTPUT_FORMATS. */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Renders rows as a left-aligned table with an upper-case header, columns separated by 3 spaces. */
export function renderTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] + 3))).join('').trimEnd();
  return [line(headers), ...rows.map(line)].join('\n') + '\n';
}

/** Renders API objects as YAML (multi-document) or JSON (one object, or a list for several). */
export function renderObjects(format: 'yaml' | 'json', objects: unknown[], forceList = false): string {
  if (format === 'yaml') return objects.length === 1 && !forceList ? toYaml(objects[0]) : toYamlStream(objects);
  return `${JSON.stringify(objects.length === 1 && !forceList ? objects[0] : objects, null, 2)}\n`;
}
