import type { InstanceProfile, RoleDetail } from '@aws-sdk/client-iam';
import type { AwsCloud } from '../aws-cloud';
import { AWS_PAGE_SIZE } from '../aws-page-size';
import { allPages } from './all-pages';
import type { ClusterResource } from './cluster-resource';
import { ignoreNotFound } from './ignore-not-found';

/**
 * The cluster's IAM roles and instance profiles: every role tagged for the cluster (both cluster tags,
 * `owned`) with the profiles that hold it, from the inventory's one GetAccountAuthorizationDetails; and
 * the profiles of `expectedNames` (the names the model gives, kops's `masters.`/`nodes.`/`bastions.`
 * among them) that hold no role, left by a run stopped between its two creates, with one
 * GetInstanceProfile each. Only entities tagged `KubernetesCluster=<cluster>` are taken, so a same-named
 * role someone else made is left alone. A role's profile must go first (a role in a profile cannot be
 * deleted), so each role depends on the profiles that hold it.
 */
export async function listIamResources(cloud: AwsCloud, expectedNames: readonly string[] = []): Promise<ClusterResource[]> {
  const { sdk, client } = await cloud.iam();
  const cluster = cloud.clusterName;
  const tagged = (tags: ReadonlyArray<{ Key?: string; Value?: string }> | undefined) => tags?.some((t) => t.Key === 'KubernetesCluster' && t.Value === cluster) === true;
  // kops's names too: kforge's model does not make a bastion role or a shared nodes role, but kops's does.
  const names = [...new Set([`masters.${cluster}`, `nodes.${cluster}`, `bastions.${cluster}`, ...expectedNames])].sort();
  const roles = (await cloud.inventory.iamRoleList()).filter((r) => tagged(r.Tags));
  const profiles = new Map<string, InstanceProfile>();
  for (const r of roles) for (const p of r.InstanceProfileList ?? []) if (p.InstanceProfileName && tagged(p.Tags)) profiles.set(p.InstanceProfileName, p);
  for (const n of names) {
    if (profiles.has(n)) continue;
    const p = await cloud.inventory.instanceProfile(n);
    if (p?.InstanceProfileName && tagged(p.Tags ?? (await client.send(new sdk.ListInstanceProfileTagsCommand({ InstanceProfileName: n }))).Tags)) profiles.set(n, p);
  }
  const found: Array<{ profile?: InstanceProfile; role?: RoleDetail }> = [...[...profiles.values()].map((profile) => ({ profile })), ...roles.map((role) => ({ role }))];

  const out: ClusterResource[] = [];
  for (const { role, profile } of found) {
    if (profile?.InstanceProfileName) {
      const profileName = profile.InstanceProfileName;
      // Roles and profiles share their names: the ARN is the id that tells them apart.
      const profileId = profile.Arn ?? `instance-profile/${profileName}`;
      const roles = (profile.Roles ?? []).map((r) => r.RoleName).filter((r): r is string => r !== undefined);
      // After a failed attempt the listed roles may be out of date: a removal whose answer was lost took
      // effect, and asking again for a role no longer in the profile is no answer to rely on (moto: HTTP 500).
      let reread = false;
      out.push({
        type: 'iam-instance-profile',
        name: profileName,
        id: profileId,
        dependsOn: [],
        delete: async () => {
          if (reread) {
            const now = await client.send(new sdk.GetInstanceProfileCommand({ InstanceProfileName: profileName })).catch((e: unknown) => ignoreNotFound(e));
            if (!now) return 'deleted';
            roles.splice(0, roles.length, ...(now.InstanceProfile?.Roles ?? []).map((r) => r.RoleName).filter((r): r is string => r !== undefined));
          }
          reread = true;
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
          const inline = await allPages((Marker) => client.send(new sdk.ListRolePoliciesCommand({ RoleName: roleName, MaxItems: AWS_PAGE_SIZE.ListRolePolicies, Marker })).then((o) => [o.PolicyNames, o.Marker] as const));
          for (const p of inline) await client.send(new sdk.DeleteRolePolicyCommand({ RoleName: roleName, PolicyName: p })).catch(ignoreNotFound);
          const attached = await allPages((Marker) =>
            client.send(new sdk.ListAttachedRolePoliciesCommand({ RoleName: roleName, MaxItems: AWS_PAGE_SIZE.ListAttachedRolePolicies, Marker })).then((o) => [o.AttachedPolicies, o.Marker] as const),
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
