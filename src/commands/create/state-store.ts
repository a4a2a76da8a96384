import { Args } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command';

/** `kforge create state-store [URL]`: makes the bucket (or directory) for a state store, with safe settings. */
export default class CreateStateStore extends BaseCommand {
  static override summary = 'Create the bucket or directory of a state store, with versioning, encryption and no public access.';
  static override description =
    'For s3:// it creates the bucket with versioning, default encryption (SSE-S3, or SSE-KMS with KFORGE_STATE_S3_KMS_KEY_ID), all four public-access blocks and ACLs disabled. For gs:// it creates the bucket with versioning, uniform bucket-level access and public access prevention (project from GOOGLE_CLOUD_PROJECT). For a directory it creates it with mode 0700. Fails if it already exists.';
  static override examples = ['<%= config.bin %> create state-store s3://my-kforge-state', '<%= config.bin %> create state-store gs://my-kforge-state', '<%= config.bin %> create state-store --state ~/kforge-state'];
  static override args = { url: Args.string({ description: 'State store URL; default: --state / KFORGE_STATE_STORE / ~/.kforge/state' }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(CreateStateStore);
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const vfs = openVfs(args.url ?? this.stateUrl(flags));
    const { createStateStore } = await import('../../ops/create-state-store');
    const lines = await createStateStore(vfs);
    this.out(`Created state store ${vfs.url}`);
    for (const l of lines) this.out(`  ${l}`);
  }
}
