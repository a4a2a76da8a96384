import { createRequire } from 'node:module';

/** A protobuf field as protos.json describes it. */
interface ProtoField {
  type: string;
  rule?: string;
  keyType?: string;
}

/** A message type of protos.json. */
interface ProtoMessage {
  fields?: Record<string, ProtoField>;
}

/** One REST binding of a Compute v1 RPC, from its `google.api.http` option. */
export interface ComputeRoute {
  /** Service (`Networks`) and method (`Insert`). */
  service: string;
  method: string;
  verb: string;
  /** `/compute/v1/projects/{project}/global/networks/{network}`. */
  template: string;
  regex: RegExp;
  /** The template's variables in order, as request fields (camelCase). */
  params: string[];
  requestType: string;
  /** The request field the body fills, and its message type; absent when the RPC takes no body. */
  bodyField?: string;
  bodyType?: string;
  /** Query parameters the request message has (its fields that are neither path nor body). */
  queryFields: Set<string>;
}

/** A request field's name as the JSON and the templates spell it differently (`instance_group_manager` → `instanceGroupManager`). */
function camel(s: string): string {
  return s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

const SCALARS = new Set(['string', 'bool', 'int32', 'uint32', 'int64', 'uint64', 'double', 'float', 'sint32', 'sint64', 'fixed32', 'fixed64', 'bytes']);

/**
 * The Compute v1 API as the client library itself describes it: the protos.json shipped in
 * @google-cloud/compute. Routes come from each RPC's `google.api.http` option, and request bodies are
 * checked against the message types, so a field the real API does not have fails as GCE fails it.
 */
export class ComputeSchema {
  readonly routes: ComputeRoute[] = [];
  private readonly types: Record<string, ProtoMessage & { methods?: Record<string, { requestType: string; parsedOptions?: Record<string, Record<string, string>>[] }> }>;

  constructor() {
    const require = createRequire(__filename);
    const protos = require('@google-cloud/compute/build/protos/protos.json') as { nested: Record<string, { nested: Record<string, unknown> }> };
    const v1 = (((protos.nested.google.nested.cloud as { nested: Record<string, unknown> }).nested.compute as { nested: Record<string, unknown> }).nested.v1 as { nested: ComputeSchema['types'] }).nested;
    // A shallow copy: the fake's own additions must not reach the protos object the client library shares.
    this.types = { ...v1 };
    for (const [service, def] of Object.entries(v1)) {
      for (const [method, m] of Object.entries(def.methods ?? {})) {
        const http = m.parsedOptions?.find((o) => o['(google.api.http)'])?.['(google.api.http)'];
        if (!http) continue;
        const verb = ['get', 'post', 'put', 'patch', 'delete'].find((v) => http[v] !== undefined);
        if (!verb) continue;
        const template = http[verb];
        const params: string[] = [];
        const regex = new RegExp(`^${template.replace(/\{([a-z_0-9]+)\}/g, (_, p: string) => (params.push(camel(p)), '([^/]+)'))}$`);
        const bodyField = http.body ? camel(http.body) : undefined;
        const fields = v1[m.requestType]?.fields ?? {};
        const queryFields = new Set(Object.keys(fields).filter((f) => !params.includes(f) && f !== bodyField));
        this.routes.push({ service, method, verb: verb.toUpperCase(), template, regex, params, requestType: m.requestType, bodyField, bodyType: bodyField ? fields[bodyField]?.type : undefined, queryFields });
      }
    }
    this.addLegacyHttpHealthChecks();
    // Literal segments beat variables: `.../instanceGroupManagers/{igm}/resize` before a longer variable match.
    this.routes.sort((a, b) => a.params.length - b.params.length);
  }

  /**
   * Legacy HTTP health checks (`global/httpHealthChecks`, what a target pool takes): compute v1 serves them,
   * but @google-cloud/compute 6.15's protos no longer describe them. Their fields are copied from the API's
   * reference (compute/docs/reference/rest/v1/httpHealthChecks).
   */
  private addLegacyHttpHealthChecks(): void {
    const str = { type: 'string' };
    const int = { type: 'int32' };
    this.types.HttpHealthCheck = { fields: { checkIntervalSec: int, creationTimestamp: str, description: str, healthyThreshold: int, host: str, id: { type: 'uint64' }, kind: str, name: str, port: int, requestPath: str, selfLink: str, timeoutSec: int, unhealthyThreshold: int } };
    const base = '/compute/v1/projects/{project}/global/httpHealthChecks';
    const route = (method: string, verb: string, template: string, queryFields: string[], bodyType?: string): ComputeRoute => {
      const params: string[] = [];
      const regex = new RegExp(`^${template.replace(/\{([a-z_0-9]+)\}/g, (_, p: string) => (params.push(camel(p)), '([^/]+)'))}$`);
      return { service: 'HttpHealthChecks', method, verb, template, regex, params, requestType: `${method}HttpHealthCheckRequest`, ...(bodyType ? { bodyField: 'httpHealthCheckResource', bodyType } : {}), queryFields: new Set(queryFields) };
    };
    this.routes.push(
      route('Insert', 'POST', base, ['requestId'], 'HttpHealthCheck'),
      route('List', 'GET', base, ['filter', 'maxResults', 'orderBy', 'pageToken', 'returnPartialSuccess']),
      route('Get', 'GET', `${base}/{http_health_check}`, []),
      route('Delete', 'DELETE', `${base}/{http_health_check}`, ['requestId']),
    );
  }

  /** The route of a request, or undefined (the real API's 404 for an unknown path). */
  match(verb: string, path: string): { route: ComputeRoute; values: Record<string, string> } | undefined {
    for (const route of this.routes) {
      if (route.verb !== verb) continue;
      const m = route.regex.exec(path);
      if (!m) continue;
      return { route, values: Object.fromEntries(route.params.map((p, i) => [p, decodeURIComponent(m[i + 1])])) };
    }
    return undefined;
  }

  /** Whether a message type has a field (e.g. `fingerprint`), which decides the fake's fingerprint handling. */
  hasField(type: string, field: string): boolean {
    return this.types[type]?.fields?.[field] !== undefined;
  }

  /**
   * The first field of `value` the message type does not have, as a path (`networkInterfaces[0].acessConfigs`),
   * or a wrong JSON type; undefined when the body fits.
   */
  invalidField(type: string, value: unknown, at = ''): string | undefined {
    const message = this.types[type];
    if (!message?.fields) return undefined;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return at || type;
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      const field = message.fields[key];
      const here = at ? `${at}.${key}` : key;
      if (!field) return here;
      if (v === null || v === undefined) continue;
      if (field.keyType) {
        if (typeof v !== 'object' || Array.isArray(v)) return here;
        for (const [k, item] of Object.entries(v as Record<string, unknown>)) {
          const bad = this.invalidValue(field.type, item, `${here}[${k}]`);
          if (bad) return bad;
        }
      } else if (field.rule === 'repeated') {
        if (!Array.isArray(v)) return here;
        for (let i = 0; i < v.length; i++) {
          const bad = this.invalidValue(field.type, v[i], `${here}[${i}]`);
          if (bad) return bad;
        }
      } else {
        const bad = this.invalidValue(field.type, v, here);
        if (bad) return bad;
      }
    }
    return undefined;
  }

  private invalidValue(type: string, v: unknown, at: string): string | undefined {
    if (type === 'string' || type === 'bytes') return typeof v === 'string' ? undefined : at;
    if (type === 'bool') return typeof v === 'boolean' ? undefined : at;
    // 64-bit integers travel as JSON strings, smaller ones as numbers; both parse as numbers.
    if (SCALARS.has(type)) return (typeof v === 'number' || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v))) ? undefined : at;
    return this.invalidField(type, v, at);
  }
}
