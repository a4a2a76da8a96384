/** Thrown for a patch the real API refuses; the server answers with this status code. */
export class PatchError extends Error {
  constructor(readonly code: 400 | 415 | 422 | 409, message: string) {
    super(message);
  }
}

/** Server-side apply's content type. */
export const APPLY_PATCH = 'application/apply-patch+yaml';

/** The patch content types kube-apiserver accepts for built-in resources. */
export const PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', APPLY_PATCH];

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const isObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 7386 JSON merge patch: objects merge, null deletes, anything else (lists too) replaces. */
export function mergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return patch;
  const out: Record<string, Json> = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k] ?? null, v);
  }
  return out;
}

/**
 * The list fields of Node and Pod whose strategic-merge strategy is "merge" by a key (from the types'
 * `patchMergeKey` tags); other lists are replaced, as in a merge patch.
 */
const MERGE_KEYS: Record<string, string> = {
  conditions: 'type',
  containers: 'name',
  initContainers: 'name',
  containerStatuses: 'name',
  initContainerStatuses: 'name',
  addresses: 'type',
  ownerReferences: 'uid',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  ports: 'containerPort',
  tolerations: '',
  finalizers: '',
};

/** Strategic merge patch for the fields the fake's kinds have: merge-keyed lists merge, `$patch: delete` removes an entry. */
export function strategicMergePatch(target: Json, patch: Json, field = ''): Json {
  if (Array.isArray(patch)) {
    const key = MERGE_KEYS[field];
    if (key === undefined || !Array.isArray(target)) return patch.filter((e) => !(isObject(e) && e.$patch === 'delete'));
    // A merge list without a key (finalizers) is a set union.
    if (key === '') return [...target, ...patch.filter((e) => !target.some((t) => JSON.stringify(t) === JSON.stringify(e)))];
    const out = [...target];
    for (const entry of patch) {
      if (!isObject(entry)) throw new PatchError(400, `unable to find api field in struct for the merge key "${key}"`);
      const i = out.findIndex((t) => isObject(t) && t[key] === entry[key]);
      if (entry.$patch === 'delete') {
        if (i >= 0) out.splice(i, 1);
      } else if (i >= 0) out[i] = strategicMergePatch(out[i], entry);
      else out.push(entry);
    }
    return out;
  }
  if (!isObject(patch)) return patch;
  if (patch.$patch === 'replace') {
    const rest = { ...patch };
    delete rest.$patch;
    return rest;
  }
  const out: Record<string, Json> = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$')) continue;
    if (v === null) delete out[k];
    else out[k] = strategicMergePatch(out[k] ?? null, v, k);
  }
  return out;
}

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new PatchError(422, `invalid JSON pointer: ${path}`);
  return path.slice(1).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(doc: Json, parts: string[], path: string): { parent: Json; last: string } {
  let cur = doc;
  for (const p of parts.slice(0, -1)) {
    const next = Array.isArray(cur) ? cur[Number(p)] : isObject(cur) ? cur[p] : undefined;
    if (next === undefined) throw new PatchError(422, `the server rejected our request due to an error in our request: doc is missing path: "${path}"`);
    cur = next;
  }
  return { parent: cur, last: parts[parts.length - 1] };
}

/** RFC 6902 JSON patch (add, remove, replace, test, copy, move), which @kubernetes/client-node sends by default. */
export function jsonPatch(doc: Json, ops: Json): Json {
  if (!Array.isArray(ops)) throw new PatchError(400, 'json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  let out: Json = structuredClone(doc);
  for (const raw of ops) {
    if (!isObject(raw) || typeof raw.op !== 'string' || typeof raw.path !== 'string') throw new PatchError(400, 'invalid JSON patch operation');
    const parts = pointer(raw.path);
    const read = (p: string): Json => {
      const ps = pointer(p);
      if (ps.length === 0) return out;
      const { parent, last } = parentOf(out, ps, p);
      const v = Array.isArray(parent) ? parent[Number(last)] : isObject(parent) ? parent[last] : undefined;
      if (v === undefined) throw new PatchError(422, `the server rejected our request due to an error in our request: doc is missing key: "${p}"`);
      return v;
    };
    const write = (value: Json, mode: 'add' | 'replace' | 'remove'): void => {
      if (parts.length === 0) {
        out = value;
        return;
      }
      const { parent, last } = parentOf(out, parts, raw.path as string);
      if (Array.isArray(parent)) {
        const i = last === '-' ? parent.length : Number(last);
        if (!Number.isInteger(i) || i < 0 || i > parent.length || (mode !== 'add' && i >= parent.length)) throw new PatchError(422, `the server rejected our request due to an error in our request: index out of range: ${last}`);
        if (mode === 'add') parent.splice(i, 0, value);
        else if (mode === 'replace') parent[i] = value;
        else parent.splice(i, 1);
      } else if (isObject(parent)) {
        if (mode !== 'add' && !(last in parent)) throw new PatchError(422, `the server rejected our request due to an error in our request: doc is missing key: "${raw.path as string}"`);
        if (mode === 'remove') delete parent[last];
        else parent[last] = value;
      } else throw new PatchError(422, `the server rejected our request due to an error in our request: doc is missing path: "${raw.path as string}"`);
    };
    switch (raw.op) {
      case 'add':
      case 'replace':
        write(structuredClone(raw.value ?? null), raw.op);
        break;
      case 'remove':
        write(null, 'remove');
        break;
      case 'test':
        if (JSON.stringify(read(raw.path)) !== JSON.stringify(raw.value)) throw new PatchError(422, `the server rejected our request due to an error in our request: testing value ${raw.path} failed`);
        break;
      case 'copy':
        write(structuredClone(read(String(raw.from))), 'add');
        break;
      case 'move': {
        const v = read(String(raw.from));
        const { parent, last } = parentOf(out, pointer(String(raw.from)), String(raw.from));
        if (Array.isArray(parent)) parent.splice(Number(last), 1);
        else if (isObject(parent)) delete parent[last];
        write(v, 'add');
        break;
      }
      default:
        throw new PatchError(400, `Unexpected kind: ${raw.op}`);
    }
  }
  return out;
}
