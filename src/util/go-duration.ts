const UNIT_NS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/** A Go duration (`0`, or unsigned number-unit pairs such as `1h30m`, `1.5s`, `300ms`) in nanoseconds; undefined when the text is not one. */
export function goDurationNs(text: string): number | undefined {
  if (text === '0') return 0;
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) return undefined;
  return parts.reduce((sum, p) => sum + Number(p[1]) * (UNIT_NS[p[2] as string] as number), 0);
}
