import { randomUUID } from 'node:crypto';
import { managedFieldsView, ManagedFields, recordUpdate, serverSideApply } from './kube-apply';
import { apiVersionOf, BUILTIN_RESOURCES, ResourceInfo, resourceKey } from './kube-resources';
import { labelSelectorObject } from './kube-selectors';
import { KubeStatusError, notFound } from './kube-status';

/** Open JSON: Kubernetes objects have far more fields than the fake types, and it reads them by path. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type Loose = any;

/** A Kubernetes object as the fake stores it (plain JSON, the shape the real API serves). */
export type KubeObject = { metadata: { name: string; namespace?: string; [k: string]: Loose }; spec?: Loose; status?: Loose; [k: string]: Loose };

/** DeleteOptions (meta/v1), as sent in a DELETE body or inside an Eviction. */
export interface DeleteOptions {
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  propagationPolicy?: string;
  dryRun?: string[];
}

/** A resource the store holds: its key (`pods`, or a CRD's name for custom resources). */
export type KubeResource = string;

const key = (o: { metadata: { name: string; namespace?: string } }): string => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

function podReady(pod: KubeObject): boolean {
  // The disruption controller counts a terminating pod as unhealthy.
  if (pod.metadata.deletionTimestamp) return false;
  return (pod.status?.conditions ?? []).some((c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True');
}

/** `intstr` minAvailable/maxUnavailable against a count, rounding up as the disruption controller does. */
function scaled(v: number | string, total: number): number {
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (!m) throw new KubeStatusError(422, 'Invalid', `invalid value for IntOrString: invalid type: string is not a percentage`);
  return Math.ceil((Number(m[1]) * total) / 100);
}

/** The state of the fake cluster: nodes, pods and PodDisruptionBudgets, with resource versions and UIDs. */
export class KubeStore {
  private rv = 1000;

  /**
   * When true, deleting a pod with a grace period marks it terminating (deletionTimestamp) instead of
   * removing it, as a kubelet-run pod behaves; `finishTermination` then removes it, as the kubelet would.
   */
  gracefulPodDeletion = false;
  private readonly objects = new Map<KubeResource, Map<string, KubeObject>>();
  /** Which fields each manager owns, per object (`<resource>|<namespace>/<name>`). */
  private readonly managed = new Map<string, ManagedFields>();
  /** When each CRD (by name) becomes Established, in ms since the epoch. */
  private readonly establishAt = new Map<string, number>();

  /** How long after its creation a CRD becomes Established and its resource is served (the real API takes a moment). */
  crdEstablishDelayMs = 0;

  constructor() {
    // The namespaces every cluster starts with.
    for (const name of ['default', 'kube-node-lease', 'kube-public', 'kube-system']) this.put('namespaces', { metadata: { name, labels: { 'kubernetes.io/metadata.name': name } }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
  }

  private bucket(resource: KubeResource): Map<string, KubeObject> {
    let b = this.objects.get(resource);
    if (!b) this.objects.set(resource, (b = new Map()));
    return b;
  }

  /** The built-in resources and the resources of Established CRDs, as discovery lists them. */
  resources(): ResourceInfo[] {
    const crds = [...this.bucket('customresourcedefinitions').values()].filter((c) => this.established(c.metadata.name));
    const custom = crds.flatMap((c) =>
      (c.spec?.versions ?? [])
        .filter((v: Loose) => v.served !== false)
        .map((v: Loose) => ({ resource: c.spec.names.plural, group: c.spec.group, version: v.name, kind: c.spec.names.kind, namespaced: c.spec.scope !== 'Cluster' })),
    );
    return [...BUILTIN_RESOURCES, ...custom];
  }

  /** The resource of a URL (`group`, `version`, plural), if served now; a custom resource only once its CRD is Established. */
  resolve(group: string, version: string, plural: string): ResourceInfo | undefined {
    return this.resources().find((r) => r.group === group && r.version === version && r.resource === plural);
  }

  /** A resource's discovery entry, by store key. */
  info(resource: KubeResource): ResourceInfo {
    const r = BUILTIN_RESOURCES.find((b) => b.resource === resource) ?? this.resources().find((x) => resourceKey(x) === resource);
    if (!r) throw new Error(`the fake serves no resource ${resource}`);
    return r;
  }

  /** Makes a CRD Established now (its resource served), as the apiextensions controller does once its names are accepted. */
  establish(crd: string): void {
    if (!this.establishAt.has(crd)) throw new Error(`no CRD ${crd}`);
    this.establishAt.set(crd, Date.now());
  }

  private established(crd: string): boolean {
    const at = this.establishAt.get(crd);
    return at !== undefined && Date.now() >= at;
  }

  /** The cluster-wide resourceVersion, bumped on every write. */
  get resourceVersion(): string {
    return String(this.rv);
  }

  /** Every object of a resource (in one namespace when given), sorted by namespace and name as etcd lists them. */
  list(resource: KubeResource, namespace?: string): KubeObject[] {
    return [...this.bucket(resource).values()]
      .filter((o) => namespace === undefined || o.metadata.namespace === namespace)
      .sort((a, b) => key(a).localeCompare(key(b)))
      .map((o) => this.view(resource, o));
  }

  /** One object, or a 404 Status error. */
  get(resource: KubeResource, name: string, namespace?: string): KubeObject {
    const o = this.bucket(resource).get(`${namespace ?? ''}/${name}`);
    if (!o) throw notFound(this.info(resource).resource, this.info(resource).group, name);
    return this.view(resource, o);
  }

  /** Creates or replaces an object (test setup); metadata the server owns is filled in. */
  put(resource: KubeResource, obj: KubeObject): KubeObject {
    const o = structuredClone(obj);
    delete o.metadata.managedFields;
    const old = this.bucket(resource).get(key(o));
    o.metadata.uid = old?.metadata.uid ?? o.metadata.uid ?? randomUUID();
    o.metadata.creationTimestamp = old?.metadata.creationTimestamp ?? o.metadata.creationTimestamp ?? '2026-01-01T00:00:00Z';
    o.metadata.resourceVersion = String(++this.rv);
    this.bucket(resource).set(key(o), o);
    if (resource === 'customresourcedefinitions' && !old) this.establishAt.set(o.metadata.name, Date.now() + this.crdEstablishDelayMs);
    return this.view(resource, o);
  }

  /**
   * Server-side apply of `config` (already checked against the URL) by `manager`: creates the object, or
   * merges it into the stored one (see serverSideApply: 409 on a conflict without `force`). An apply that
   * changes nothing leaves the object and its resourceVersion as they were.
   */
  apply(resource: KubeResource, namespace: string | undefined, name: string, config: KubeObject, manager: string, force: boolean): { object: KubeObject; created: boolean } {
    const k = `${namespace ?? ''}/${name}`;
    const stored = this.bucket(resource).get(k);
    // A resourceVersion in the applied object is a precondition, as with an update.
    if (stored && config.metadata?.resourceVersion !== undefined && config.metadata.resourceVersion !== stored.metadata.resourceVersion) {
      throw new KubeStatusError(409, 'Conflict', `Operation cannot be fulfilled on ${this.info(resource).resource}${this.info(resource).group ? `.${this.info(resource).group}` : ''} "${name}": the object has been modified; please apply your changes to the latest version and try again`, { name, ...(this.info(resource).group ? { group: this.info(resource).group } : {}), kind: this.info(resource).resource });
    }
    const current = stored && { kind: config.kind, apiVersion: config.apiVersion, ...structuredClone(stored) };
    const result = serverSideApply(current, this.managed.get(`${resource}|${k}`) ?? {}, config, manager, force);
    if (!result.changed && stored) return { object: this.view(resource, stored), created: false };
    const next = result.object as KubeObject;
    delete next.kind;
    delete next.apiVersion;
    next.metadata.name = name;
    if (namespace !== undefined) next.metadata.namespace = namespace;
    if (stored) next.status = stored.status;
    this.managed.set(`${resource}|${k}`, result.managed);
    return { object: this.put(resource, next), created: !stored };
  }

  /** Records that `manager` changed the fields that differ between `before` and `after` (a non-apply write). */
  recordWrite(resource: KubeResource, before: KubeObject, after: KubeObject, manager: string): void {
    const k = `${resource}|${key(before)}`;
    this.managed.set(k, recordUpdate(this.managed.get(k) ?? {}, before, after, manager, apiVersionOf(this.info(resource))));
  }

  /** A CRD's status: names accepted at once, Established after `crdEstablishDelayMs`. */
  private crdStatus(crd: KubeObject): Loose {
    const established = this.established(crd.metadata.name);
    const t = '2026-01-01T00:00:00Z';
    return {
      acceptedNames: crd.spec?.names ?? {},
      storedVersions: (crd.spec?.versions ?? []).filter((v: Loose) => v.storage).map((v: Loose) => v.name),
      conditions: [
        { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found', lastTransitionTime: t },
        established
          ? { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted', lastTransitionTime: t }
          : { type: 'Established', status: 'False', reason: 'Installing', message: 'the initial names have been accepted', lastTransitionTime: t },
      ],
    };
  }

  /** Replaces an object after a patch, refusing changes to its identity as the real API does. */
  update(resource: KubeResource, before: KubeObject, after: KubeObject): KubeObject {
    if (after.metadata?.name !== before.metadata.name) throw new KubeStatusError(422, 'Invalid', `${this.info(resource).kind} "${before.metadata.name}" is invalid: metadata.name: Invalid value: "${after.metadata?.name}": field is immutable`);
    if (after.metadata.uid !== before.metadata.uid) throw new KubeStatusError(409, 'Conflict', `Precondition failed: UID in precondition: ${after.metadata.uid}, UID in object meta: ${before.metadata.uid}`);
    if (after.metadata.resourceVersion !== before.metadata.resourceVersion) throw new KubeStatusError(409, 'Conflict', `Operation cannot be fulfilled on ${resource} "${before.metadata.name}": the object has been modified; please apply your changes to the latest version and try again`);
    const rest = { ...after };
    delete rest.kind;
    delete rest.apiVersion;
    return this.put(resource, rest);
  }

  /** Deletes an object, honouring DeleteOptions' preconditions and dryRun. */
  delete(resource: KubeResource, name: string, namespace: string | undefined, opts: DeleteOptions = {}): KubeObject {
    const o = this.get(resource, name, namespace);
    const pre = opts.preconditions ?? {};
    if (pre.uid !== undefined && pre.uid !== o.metadata.uid) throw new KubeStatusError(409, 'Conflict', `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${o.metadata.uid}`, { name, ...(this.info(resource).group ? { group: this.info(resource).group } : {}), kind: this.info(resource).resource });
    if (pre.resourceVersion !== undefined && pre.resourceVersion !== o.metadata.resourceVersion) throw new KubeStatusError(409, 'Conflict', `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${o.metadata.resourceVersion}`, { name, kind: resource });
    if (opts.dryRun?.includes('All')) return o;
    const stored = this.bucket(resource).get(`${namespace ?? ''}/${name}`) as KubeObject;
    const grace = opts.gracePeriodSeconds ?? stored.spec?.terminationGracePeriodSeconds ?? 30;
    if (resource === 'pods' && this.gracefulPodDeletion && grace > 0 && stored.spec?.nodeName) {
      if (!stored.metadata.deletionTimestamp) {
        stored.metadata.deletionTimestamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
        stored.metadata.deletionGracePeriodSeconds = grace;
        stored.metadata.resourceVersion = String(++this.rv);
      }
      return this.view(resource, stored);
    }
    this.bucket(resource).delete(`${namespace ?? ''}/${name}`);
    this.managed.delete(`${resource}|${namespace ?? ''}/${name}`);
    if (resource === 'customresourcedefinitions') {
      this.establishAt.delete(name);
      this.objects.delete(name);
    }
    this.rv++;
    return o;
  }

  /** Removes a terminating pod, as its kubelet does once the containers stopped. */
  finishTermination(namespace: string, name: string): void {
    this.get('pods', name, namespace);
    this.bucket('pods').delete(`${namespace}/${name}`);
    this.rv++;
  }

  /**
   * The eviction subresource (policy/v1): a pod covered by a PDB that allows no disruption is refused
   * with 429, as the real API does; more than one PDB is a 500; a terminal pod is deleted without a check.
   */
  evict(namespace: string, name: string, opts: DeleteOptions = {}): void {
    const pod = this.get('pods', name, namespace);
    // As the real API's canIgnorePDB: terminal and pending pods are evicted without a budget check.
    const phase = pod.status?.phase;
    if (!pod.metadata.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed' && phase !== 'Pending') {
      const pdbs = this.list('poddisruptionbudgets', namespace).filter((p) => labelSelectorObject(p.spec?.selector)(pod.metadata.labels));
      if (pdbs.length > 1) throw new KubeStatusError(500, 'InternalError', 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
      const pdb = pdbs[0];
      if (pdb) {
        const st = pdb.status;
        // An unready pod costs the budget nothing: evictable when the budget is met (IfHealthyBudget) or always (AlwaysAllow).
        const allowed = podReady(pod) ? st.disruptionsAllowed > 0 : pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow' || st.currentHealthy >= st.desiredHealthy;
        if (!allowed) {
          throw new KubeStatusError(429, 'TooManyRequests', "Cannot evict pod as it would violate the pod's disruption budget.", {
            causes: [{ reason: 'DisruptionBudget', message: `The disruption budget ${pdb.metadata.name} needs ${st.desiredHealthy} healthy pods and has ${st.currentHealthy} currently` }],
          });
        }
      }
    }
    this.delete('pods', name, namespace, opts);
  }

  /** The object as served: kind and apiVersion set, and a PDB's status computed from the pods now. */
  private view(resource: KubeResource, o: KubeObject): KubeObject {
    const info = this.info(resource);
    const out: KubeObject = { kind: info.kind, apiVersion: apiVersionOf(info), ...structuredClone(o) };
    const managed = this.managed.get(`${resource}|${key(o)}`);
    if (managed && Object.keys(managed).length > 0) out.metadata.managedFields = managedFieldsView(managed);
    if (resource === 'customresourcedefinitions') out.status = this.crdStatus(o);
    if (resource === 'poddisruptionbudgets') out.status = this.pdbStatus(o);
    return out;
  }

  /** What the disruption controller would write: healthy pods, desired healthy, disruptions allowed. */
  private pdbStatus(pdb: KubeObject): Record<string, unknown> {
    const selects = labelSelectorObject(pdb.spec?.selector);
    const pods = [...this.bucket('pods').values()].filter((p) => p.metadata.namespace === pdb.metadata.namespace && selects(p.metadata.labels));
    const expected = pods.length;
    const healthy = pods.filter(podReady).length;
    const desired = pdb.spec?.minAvailable !== undefined ? scaled(pdb.spec.minAvailable, expected) : Math.max(0, expected - scaled(pdb.spec?.maxUnavailable ?? 0, expected));
    return { observedGeneration: 1, disruptionsAllowed: Math.max(0, healthy - desired), currentHealthy: healthy, desiredHealthy: desired, expectedPods: expected };
  }
}
