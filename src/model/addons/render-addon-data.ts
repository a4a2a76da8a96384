import type { KubeObject } from './addon';

/** An image table entry (src/expand/assets/addon-images/*.json): the image, its tag, the digest where kops pins one, and where it comes from. */
export interface AddonImage {
  image: string;
  tag: string;
  digest?: string;
  source: string;
}

/** The image reference of a table entry: `image:tag`, with `@digest` where kops pins one. */
export function imageRef(entry: AddonImage): string {
  return `${entry.image}:${entry.tag}${entry.digest ? `@${entry.digest}` : ''}`;
}

/**
 * A fresh copy of an addon's data objects with every `{{key}}` in a string replaced by its value. The data
 * files are kops's rendered manifests with the cluster-dependent values put back as placeholders (see
 * data/SOURCE.md); a placeholder without a value is a bug in the builder, so it throws rather than rendering it.
 */
export function renderAddonData(data: readonly unknown[], values: Record<string, string>): KubeObject[] {
  const fill = (v: unknown): unknown => {
    if (typeof v === 'string') {
      return v.replace(/\{\{([a-zA-Z:-]+)\}\}/g, (_m, key: string) => {
        const value = values[key];
        if (value === undefined) throw new Error(`addon data: no value for placeholder {{${key}}}`);
        return value;
      });
    }
    if (Array.isArray(v)) return v.map(fill);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)]));
    return v;
  };
  return data.map((o) => fill(o) as KubeObject);
}

/** The values of an image table as placeholders (`image:<key>` → reference), with per-key overrides from the spec. */
export function imageValues(table: Record<string, AddonImage>, overrides: Record<string, string | undefined> = {}): Record<string, string> {
  return Object.fromEntries(Object.entries(table).map(([k, e]) => [`image:${k}`, overrides[k] ?? imageRef(e)]));
}

/** The object of a kind and name, for a builder's spec-driven patches (throws when the data lacks it: a builder bug). */
export function findObject(objects: KubeObject[], kind: string, name: string): KubeObject {
  const o = objects.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`addon data: no ${kind} ${name}`);
  return o;
}
