import type { Change } from '../../../tasks/task';
import { HclExpression } from '../../../tasks/terraform-target';
import type { AwsCloud } from '../aws-cloud';
import { classifyAwsError } from '../aws-errors';
import { tagList, TagMap } from '../aws-tags';

/**
 * A task for a resource the cluster uses but does not own (kops's `Shared: true`): found by its id, never
 * created, modified or deleted. In Terraform it is no resource: references to it are its literal id, as
 * kops writes them (`vpc_id = "vpc-…"`).
 */
export interface SharedTerraformValue {
  /**
   * What a reference to `attribute` (`id`, `cidr_block`) is when the task renders no resource (a quoted
   * literal, or a data source's attribute); undefined when it renders one. The Terraform writer asks first.
   */
  terraformValue(attribute: string): HclExpression | undefined;
}

/** A quoted HCL string literal (ids hold no character that needs escaping beyond JSON's). */
export function hclLiteral(value: string): HclExpression {
  return new HclExpression(JSON.stringify(value));
}

/** The tag kops puts on a shared VPC and subnets (`kubernetes.io/cluster/<cluster>=shared`): the cloud providers find them by it. */
export function sharedTags(cluster: string): TagMap {
  return { [`kubernetes.io/cluster/${cluster}`]: 'shared' };
}

/**
 * Adds the changed tags to a shared resource (CreateTags only adds or overwrites the keys it is given: the
 * owner's tags stay). Where the account may not tag it (a VPC another account shares through RAM answers
 * UnauthorizedOperation), the tag is left out: the resource is used as it is.
 */
export async function tagSharedResource(cloud: AwsCloud, id: string, changes: readonly Change[]): Promise<void> {
  const tags: TagMap = {};
  for (const c of changes) if (c.field.startsWith('tags.')) tags[c.field.slice(5)] = String(c.to);
  if (Object.keys(tags).length === 0) return;
  const { sdk, client } = await cloud.ec2();
  try {
    await client.send(new sdk.CreateTagsCommand({ Resources: [id], Tags: tagList(tags) }));
  } catch (e) {
    if (classifyAwsError(e) !== 'access-denied') throw e;
  }
}
