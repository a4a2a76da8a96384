import * as yaml from 'js-yaml';
import { AddonApplyError } from './addon-apply-error';

/** An object of an addon manifest, as the applier sends it. */
export interface ManifestObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; [k: string]: unknown };
  [k: string]: unknown;
}

/**
 * The objects of an addon manifest (multi-document YAML, kops's `kubemanifest.LoadObjectsFrom`), in order;
 * empty documents are skipped. Each needs apiVersion, kind and metadata.name, or the manifest is refused
 * (`where` names it).
 */
export function manifestObjects(text: string, where: string): ManifestObject[] {
  let docs: unknown[];
  try {
    docs = yaml.loadAll(text);
  } catch (e) {
    throw new AddonApplyError(`${where}: not YAML (${(e as Error).message})`);
  }
  return docs
    .filter((d) => d !== null && d !== undefined)
    .map((d, i) => {
      const o = d as Partial<ManifestObject>;
      if (typeof o !== 'object' || Array.isArray(o) || typeof o.apiVersion !== 'string' || typeof o.kind !== 'string' || typeof o.metadata?.name !== 'string') {
        throw new AddonApplyError(`${where}: object ${i + 1} needs apiVersion, kind and metadata.name`);
      }
      return o as ManifestObject;
    });
}
