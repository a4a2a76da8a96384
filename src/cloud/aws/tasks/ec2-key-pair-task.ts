import type { TerraformTarget } from '../../../tasks/terraform-target';
import { diffFields } from '../../../tasks/diff-fields';
import type { Change } from '../../../tasks/task';
import { TaskOutput } from '../../../tasks/task-output';
import type { AwsCloud } from '../aws-cloud';
import { classifyAwsError } from '../aws-errors';
import { tagList, tagMap, TagMap } from '../aws-tags';
import { AwsTask } from './aws-task';

/** The actual state of an EC2 key pair. */
export interface Ec2KeyPairActual {
  id: string;
  tags: TagMap;
}

/**
 * The cluster's SSH public key imported as an EC2 key pair (kops's SSHKey), named
 * `kubernetes.<cluster>-<fingerprint>`: a new key has a new name, so the material never needs comparing.
 */
export class Ec2KeyPairTask extends AwsTask<Ec2KeyPairActual> {
  readonly kind = 'EC2KeyPair';
  /** The key pair's name, known from the start; launch templates use it as KeyName. */
  readonly keyName: string;
  /** The key pair id, once it exists. */
  readonly id = new TaskOutput<string>(`EC2KeyPair/${this.name} id`);

  constructor(
    name: string,
    readonly desired: { publicKey: string; tags: TagMap },
  ) {
    super(name);
    this.keyName = name;
  }

  renderTerraform(t: TerraformTarget): void {
    const publicKey = t.addFile('aws_key_pair', this.name, 'public_key', `${this.desired.publicKey.trim()}\n`);
    // kops names the resource without the fingerprint's colons: `kubernetes-<cluster>-<hex>`.
    t.addResource(this, 'aws_key_pair', { key_name: this.name, public_key: publicKey, tags: this.desired.tags }, this.name.replace(/:/g, ''));
  }

  async find(cloud: AwsCloud): Promise<Ec2KeyPairActual | undefined> {
    const k = (await cloud.inventory.keyPairs()).find((x) => x.KeyName === this.name);
    if (!k?.KeyPairId) return undefined;
    this.id.set(k.KeyPairId);
    return { id: k.KeyPairId, tags: tagMap(k.Tags) };
  }

  diff(actual: Ec2KeyPairActual | undefined): Change[] {
    return diffFields(actual as unknown as Record<string, unknown>, { tags: this.desired.tags });
  }

  async apply(cloud: AwsCloud, actual: Ec2KeyPairActual | undefined, changes: readonly Change[]): Promise<void> {
    if (actual) {
      await this.updateTags(cloud, actual.id, changes);
      return;
    }
    const { sdk, client } = await cloud.ec2();
    try {
      const out = await client.send(
        new sdk.ImportKeyPairCommand({ KeyName: this.name, PublicKeyMaterial: Buffer.from(this.desired.publicKey.trim()), TagSpecifications: this.tagSpec('key-pair', this.desired.tags) }),
      );
      if (!out.KeyPairId) throw new Error('ImportKeyPair returned no KeyPairId');
      this.id.set(out.KeyPairId);
    } catch (e) {
      // ImportKeyPair takes no token, and the SDK resends it after a lost answer: the resend then meets the
      // pair the first one made (same name, so the same key). Take that one and tag it.
      if (classifyAwsError(e) !== 'already-exists') throw e;
      const existing = (await client.send(new sdk.DescribeKeyPairsCommand({ KeyNames: [this.name] }))).KeyPairs?.[0];
      if (!existing?.KeyPairId) throw e;
      this.id.set(existing.KeyPairId);
      await client.send(new sdk.CreateTagsCommand({ Resources: [existing.KeyPairId], Tags: tagList(this.desired.tags) }));
    }
  }
}

/** kops's key pair name: `kubernetes.<cluster>-<md5 fingerprint with colons>`. */
export function keyPairName(cluster: string, fingerprint: string): string {
  const hex = fingerprint.replace(/:/g, '').toLowerCase();
  return `kubernetes.${cluster}-${hex.match(/../g)?.join(':') ?? hex}`;
}
