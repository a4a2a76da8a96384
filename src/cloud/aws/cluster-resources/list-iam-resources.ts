import type { AwsCloud } from '../aws-cloud';
import { classifyAwsError } from '../aws-errors';
import { allPages } from './all-pages';
import type { ClusterResource } from './cluster-resource';
import { ignoreNotFound } from './ignore-not-found';

/**
 * The cluster's IAM roles and instance profiles, read by kops's names (`masters.<cluster>`,
 * `nodes.<cluster>`, `bastions.<cluster>`): IAM has no tag filter and ListRoles pages through the whole account. An entity of
 * that name is only taken when its `KubernetesCluster` tag names the cluster, so a same-named role someone
 * else made (and kforge never tagged) is left alone. A role's profile must go first (a role in a profile
 * cannot be deleted), so each role depends on the profiles that hold it.
 */
export async function listIamResources(cloud: AwsCloud): Promise<ClusterResource[]> {
  const { sdk, client } = await cloud.iam();
  const cluster = cloud.clusterName;
  // kops's bastion role too: kforge's model does not make it yet, but kops's does, and a lookup is cheap.
  const names = [`masters.${cluster}`, `nodes.${cluster}`, `bastions.${cluster}`];
  const notFound = (e: unknown) => {
    if (classifyAwsError(e) === 'not-found') return undefined;
    throw e;
  };
  const tagged = (tags: ReadonlyArray<{ Key?: string; Value?: string }> | undefined) => tags?.some((t) => t.Key === 'KubernetesCluster' && t.Value === cluster) === true;

  const found = await Promise.all(
    names.map(async (n) => {
      const [role, profile] = await Promise.all([
        client.send(new sdk.GetRoleCommand({ RoleName: n })).then((o) => o.Role, notFound),
        client.send(new sdk.GetInstanceProfileCommand({ InstanceProfileName: n })).then((o) => o.InstanceProfile, notFound),
      ]);
      // Older IAM answers (and moto) may leave Tags out of Get*: then they are listed.
      const roleTags = role && (role.Tags ?? (await client.send(new sdk.ListRoleTagsCommand({ RoleName: n }))).Tags);
      const profileTags = profile && (profile.Tags ?? (await client.send(new sdk.ListInstanceProfileTagsCommand({ InstanceProfileName: n }))).Tags);
      return { name: n, role: role && tagged(roleTags) ? role : undefined, profile: profile && tagged(profileTags) ? profile : undefined };
    }),
  );

  const out: ClusterResource[] = [];
  for (const { role, profile } of found) {
    if (profile?.InstanceProfileName) {
      const profileName = profile.InstanceProfileName;
      // Roles and profiles share their names: the ARN is the id that tells them apart.
      const profileId = profile.Arn ?? `instance-profile/${profileName}`;
      const roles = (profile.Roles ?? []).map((r) => r.RoleName).filter((r): r is string => r !== undefined);
      out.push({
        type: 'iam-instance-profile',
        name: profileName,
        id: profileId,
        dependsOn: [],
        delete: async () => {
          while (roles.length > 0) {
            await client.send(new sdk.RemoveRoleFromInstanceProfileCommand({ InstanceProfileName: profileName, RoleName: roles[0] })).catch(ignoreNotFound);
            roles.shift();
          }
          await client.send(new sdk.DeleteInstanceProfileCommand({ InstanceProfileName: profileName }));
          return 'deleted';
        },
      });
    }
    if (role?.RoleName) {
      const roleName = role.RoleName;
      out.push({
        type: 'iam-role',
        name: roleName,
        id: role.Arn ?? `role/${roleName}`,
        // Every listed profile that holds the role.
        dependsOn: found.filter((f) => f.profile?.Roles?.some((r) => r.RoleName === roleName)).map((f) => f.profile?.Arn ?? `instance-profile/${f.profile?.InstanceProfileName}`),
        delete: async () => {
          // A role with inline or attached policies cannot be deleted (DeleteConflict): remove them first.
          const inline = await allPages((Marker) => client.send(new sdk.ListRolePoliciesCommand({ RoleName: roleName, Marker })).then((o) => [o.PolicyNames, o.Marker] as const));
          for (const p of inline) await client.send(new sdk.DeleteRolePolicyCommand({ RoleName: roleName, PolicyName: p })).catch(ignoreNotFound);
          const attached = await allPages((Marker) =>
            client.send(new sdk.ListAttachedRolePoliciesCommand({ RoleName: roleName, Marker })).then((o) => [o.AttachedPolicies, o.Marker] as const),
          );
          for (const p of attached) if (p.PolicyArn) await client.send(new sdk.DetachRolePolicyCommand({ RoleName: roleName, PolicyArn: p.PolicyArn })).catch(ignoreNotFound);
          await client.send(new sdk.DeleteRoleCommand({ RoleName: roleName }));
          return 'deleted';
        },
      });
    }
  }
  return out;
}
