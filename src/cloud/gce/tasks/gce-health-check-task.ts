import { HclBlock, TerraformTarget } from '../../../tasks/terraform-target';
import { GceTask } from './gce-task';

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
