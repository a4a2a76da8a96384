/** kops's `channels.CurrentSystemGeneration`. */
const CURRENT_SYSTEM_GENERATION = 1;

/**
 * What kops records for an installed addon (`channels/pkg/channels/channel_version.go`), as JSON in the
 * annotation `addons.k8s.io/<addon>` of its namespace (kube-system by default):
 * `{"channel":"s3://…/addons/bootstrap-channel.yaml","id":"k8s-1.12","manifestHash":"…","systemGeneration":1}`.
 */
export class ChannelVersion {
  constructor(
    readonly channel: string | undefined,
    readonly id: string,
    readonly manifestHash: string,
    readonly systemGeneration: number = CURRENT_SYSTEM_GENERATION,
  ) {}

  /** The annotation key kops records an addon's version under. */
  static annotation(addon: string): string {
    return `addons.k8s.io/${addon}`;
  }

  /** A recorded version, or undefined when the annotation is not kops's JSON (kops logs and ignores it). */
  static parse(text: string): ChannelVersion | undefined {
    try {
      const v = JSON.parse(text) as Record<string, unknown>;
      if (!v || typeof v !== 'object') return undefined;
      return new ChannelVersion(typeof v.channel === 'string' ? v.channel : undefined, typeof v.id === 'string' ? v.id : '', typeof v.manifestHash === 'string' ? v.manifestHash : '', typeof v.systemGeneration === 'number' ? v.systemGeneration : 0);
    } catch {
      return undefined;
    }
  }

  /** kops's JSON: its field order, empty fields left out (Go's omitempty). */
  encode(): string {
    return JSON.stringify({
      ...(this.channel ? { channel: this.channel } : {}),
      ...(this.id ? { id: this.id } : {}),
      ...(this.manifestHash ? { manifestHash: this.manifestHash } : {}),
      ...(this.systemGeneration ? { systemGeneration: this.systemGeneration } : {}),
    });
  }

  /** kops's `replaces`: a different id or manifest hash replaces; a newer system generation on the cluster is kept. */
  replaces(existing: ChannelVersion): boolean {
    if (this.id !== existing.id || this.manifestHash !== existing.manifestHash) return true;
    return existing.systemGeneration < this.systemGeneration;
  }
}
