import type { Change } from '../../../tasks/task';
import type { AwsCloud } from '../aws-cloud';
import { tagList, TagMap } from '../aws-tags';

/** Sets the tags that changed on an ELBv2 resource (AddTags overwrites values; tags the model does not know are kept). */
export async function addElbv2Tags(cloud: AwsCloud, arn: string, changes: readonly Change[]): Promise<void> {
  const tags: TagMap = {};
  for (const c of changes) if (c.field.startsWith('tags.')) tags[c.field.slice(5)] = String(c.to);
  if (Object.keys(tags).length === 0) return;
  const { sdk, client } = await cloud.elbv2();
  await client.send(new sdk.AddTagsCommand({ ResourceArns: [arn], Tags: tagList(tags) }));
}
