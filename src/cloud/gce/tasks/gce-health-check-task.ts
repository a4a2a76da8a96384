import { HclBlock, TerraformTarget } from '../../../tasks/terraform-target';
import type { GceCloud } from '../gce-cloud';
import { GCE_COLLECTIONS, GceResource } from '../gce-compute';
import { gceUrl, GceTask } from './gce-task';

/** The desired health check: a regional TCP check (internal backend service) or a legacy HTTP one (target pool). */
export interface GceHealthCheckDesired extends Record<string, string | number | undefined> {
  kind: 'region-tcp' | 'http';
  port: number;
  /** The HTTP path of an `http` check. */
  requestPath: string | undefined;
}

/** A health check of the API load balancer (kops's gcetasks.HealthCheck / HTTPHealthcheck). */
export class GceHealthCheckTask extends GceTask<GceHealthCheckDesired> {
  /** `HealthCheck` (regional TCP) or `HttpHealthCheck`: separate GCE resource types, which may share a name. */
  readonly kind: string;
  protected override readonly immutable = ['kind'] as const;

  constructor(name: string, desired: GceHealthCheckDesired) {
    super(name, desired);
    this.kind = desired.kind === 'http' ? 'HttpHealthCheck' : 'HealthCheck';
  }

  /** None. */
  dependencies(): readonly never[] {
    return [];
  }

  private collection() {
    return this.desired.kind === 'http' ? GCE_COLLECTIONS.httpHealthChecks : GCE_COLLECTIONS.regionHealthChecks;
  }

  /** The check's URL, as a pool or backend service names it. */
  url(cloud: GceCloud): string {
    return gceUrl(cloud, this.desired.kind === 'http' ? `global/httpHealthChecks/${this.name}` : `regions/${cloud.region}/healthChecks/${this.name}`);
  }

  /** The legacy HTTP check (global) or the regional TCP check. */
  protected override read(cloud: GceCloud): Promise<GceResource | undefined> {
    return cloud.inventory.get(this.collection(), this.desired.kind === 'http' ? undefined : cloud.region, this.name);
  }

  /** Port and path. */
  protected override actualOf(r: GceResource): GceHealthCheckDesired {
    if (this.desired.kind === 'http') return { kind: 'http', port: Number(r.port ?? 80), requestPath: (r.requestPath as string | undefined) ?? '/' };
    return { kind: 'region-tcp', port: Number((r.tcpHealthCheck as { port?: number } | undefined)?.port ?? 0), requestPath: undefined };
  }

  /** Creates the check. */
  protected override async create(cloud: GceCloud): Promise<void> {
    const d = this.desired;
    if (d.kind === 'http') await this.insert(cloud, GCE_COLLECTIONS.httpHealthChecks, undefined, { name: this.name, port: d.port, requestPath: d.requestPath });
    else await this.insert(cloud, GCE_COLLECTIONS.regionHealthChecks, cloud.region, { name: this.name, type: 'TCP', tcpHealthCheck: { port: d.port } });
  }

  /** `google_compute_region_health_check` with a `tcp_health_check`, or `google_compute_http_health_check`. */
  renderTerraform(t: TerraformTarget): void {
    const d = this.desired;
    if (d.kind === 'http') t.addResource(this, 'google_compute_http_health_check', { name: this.name, port: d.port, request_path: d.requestPath });
    else t.addResource(this, 'google_compute_region_health_check', { name: this.name, tcp_health_check: new HclBlock({ port: d.port }) });
  }

  /** The attribute dependants reference: a region check's `id`, an HTTP check's `self_link`. */
  referenceAttribute(): string {
    return this.desired.kind === 'http' ? 'self_link' : 'id';
  }
}
