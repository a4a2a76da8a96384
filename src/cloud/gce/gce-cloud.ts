import type { CallCounter, CloudConnection } from '../cloud-provider';
import type { CloudDnsRest } from './cloud-dns-rest';
import { GceCallCounter } from './gce-call-counter';
import type { GceCompute } from './gce-compute';
import { GceInventory } from './gce-inventory';

/**
 * One cluster's GCE: its project and region, and once connected for direct apply the Compute client and the
 * inventory find reads. `--target terraform` connects without a client and makes no call.
 */
export class GceCloud implements CloudConnection {
  readonly calls: CallCounter & GceCallCounter = new GceCallCounter();
  clusterUid: string | undefined;
  fence?: () => Promise<void>;
  /** Set by connectCompute (direct apply, delete); absent for the Terraform target. */
  private client: GceCompute | undefined;
  private dnsClient: CloudDnsRest | undefined;
  readonly inventory = new GceInventory(() => this.compute);

  constructor(
    readonly clusterName: string,
    readonly project: string,
    readonly region: string,
    /** The zones of the cluster's subnets and groups, where its MIGs and disks are. */
    readonly zones: readonly string[] = [],
    /** The environment the Compute client reads its endpoint and credentials from. */
    readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /** The Compute client; throws if this connection was made without one. */
  get compute(): GceCompute {
    if (!this.client) throw new Error('GCE connection has no Compute client (connectCompute was not called)');
    return this.client;
  }

  /** Loads the Compute client (lazily: only direct apply and delete pay for it). */
  async connectCompute(): Promise<GceCompute> {
    if (!this.client) {
      const { GceCompute } = await import('./gce-compute');
      this.client = await GceCompute.connect({ project: this.project, env: this.env, calls: this.calls, fence: () => this.fence?.() ?? Promise.resolve() });
    }
    return this.client;
  }

  /** The Cloud DNS calls (loaded lazily: only DNS clusters pay for them), counted with the Compute ones. */
  async connectDns(): Promise<CloudDnsRest> {
    if (!this.dnsClient) {
      const { connectGceCloudDns } = await import('./gce-cloud-dns');
      this.dnsClient = await connectGceCloudDns(this.project, this.env, this.calls, () => this.fence?.() ?? Promise.resolve());
    }
    return this.dnsClient;
  }
}
