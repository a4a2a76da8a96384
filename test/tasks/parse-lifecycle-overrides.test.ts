import * as fs from 'node:fs';
import * as path from 'node:path';
import { AWS_LIFECYCLE_KINDS } from '../../src/cloud/aws/aws-lifecycle-kinds';
import { GCE_LIFECYCLE_KINDS } from '../../src/cloud/gce/gce-lifecycle-kinds';
import { UsageError } from '../../src/errors/usage-error';
import { parseLifecycleOverrides } from '../../src/tasks/parse-lifecycle-overrides';

function usageError(values: string[]): UsageError {
  try {
    parseLifecycleOverrides(values, AWS_LIFECYCLE_KINDS);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return e as UsageError;
  }
  throw new Error(`no error for ${values.join(' ')}`);
}

describe('parseLifecycleOverrides', () => {
  it('takes kops syntax, comma-separated and repeated, and maps kops kind names to kforge kinds', () => {
    expect(parseLifecycleOverrides(['IAMRole=ExistsAndWarnIfChanges,IAMRolePolicy=ExistsAndWarnIfChanges', 'SecurityGroupRule=Ignore', 'SSHKey=Sync', 'AutoscalingGroup=WarnIfInsufficientAccess'], AWS_LIFECYCLE_KINDS)).toEqual({
      IAMRole: 'ExistsAndWarnIfChanges',
      IAMRolePolicy: 'ExistsAndWarnIfChanges',
      SecurityGroupRule: 'Ignore',
      EC2KeyPair: 'Sync',
      AutoScalingGroup: 'WarnIfInsufficientAccess',
    });
    expect(parseLifecycleOverrides([], AWS_LIFECYCLE_KINDS)).toEqual({});
    // The same lifecycle twice (a kops name and kforge's) is no conflict.
    expect(parseLifecycleOverrides(['SSHKey=Ignore', 'EC2KeyPair=Ignore'], AWS_LIFECYCLE_KINDS)).toEqual({ EC2KeyPair: 'Ignore' });
  });

  it('refuses an unknown kind, listing the valid kinds', () => {
    const e = usageError(['IamRole=Ignore']);
    expect(e.code).toBe('USAGE');
    expect(e.message).toContain('--lifecycle-overrides: unknown task kind "IamRole" in "IamRole=Ignore"; valid kinds: AutoScalingGroup, AutoScalingLifecycleHook, AutoscalingGroup, AutoscalingLifecycleHook, DNSName, DNSRecord, EBSVolume, EC2KeyPair');
    expect(usageError(['constructor=Ignore']).message).toContain('unknown task kind "constructor"');
  });

  it('refuses an unknown lifecycle, listing the valid lifecycles', () => {
    expect(usageError(['IAMRole=Skip']).message).toBe(
      '--lifecycle-overrides: unknown lifecycle "Skip" in "IAMRole=Skip"; valid lifecycles: Sync, Ignore, WarnIfInsufficientAccess, ExistsAndValidates, ExistsAndWarnIfChanges',
    );
  });

  it('refuses malformed items and a kind given two lifecycles', () => {
    for (const bad of ['IAMRole', 'IAMRole=', '=Ignore', 'IAMRole=Ignore=Sync']) expect(usageError([bad]).message).toContain(`"${bad}" is not Kind=Lifecycle`);
    expect(usageError(['IAMRole=Ignore', 'IAMRole=Sync']).message).toBe('--lifecycle-overrides: IAMRole is given two lifecycles, Ignore and Sync');
  });

  it('knows every AWS task kind, and maps only to kinds that exist', () => {
    const dir = path.join(__dirname, '../../src/cloud/aws/tasks');
    const kinds = new Set(fs.readdirSync(dir).flatMap((f) => [...fs.readFileSync(path.join(dir, f), 'utf8').matchAll(/readonly kind = '(\w+)'/g)].map((m) => m[1] as string)));
    expect(kinds.size).toBeGreaterThan(20);
    expect([...new Set(Object.values(AWS_LIFECYCLE_KINDS))].sort()).toEqual([...kinds].sort());
    // kforge's own names always work, so what the plan prints can be pasted into the flag.
    for (const k of kinds) expect(AWS_LIFECYCLE_KINDS[k]).toBe(k);
  });

  it('knows every GCE task kind, and maps only to kinds that exist', () => {
    const dir = path.join(__dirname, '../../src/cloud/gce/tasks');
    const source = fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n');
    // Most tasks name their kind in a field; the health check's is one of two, set in its constructor.
    const kinds = new Set([...source.matchAll(/readonly kind = '(\w+)'/g), ...source.matchAll(/this\.kind = [^;]*'(\w+)' : '(\w+)'/g)].flatMap((m) => m.slice(1) as string[]));
    expect(kinds.size).toBeGreaterThan(10);
    expect([...new Set(Object.values(GCE_LIFECYCLE_KINDS))].sort()).toEqual([...kinds].sort());
    for (const k of kinds) expect(GCE_LIFECYCLE_KINDS[k]).toBe(k);
    // kops's GCE names map to kforge's kinds.
    expect(parseLifecycleOverrides(['Subnet=Ignore,HTTPHealthcheck=ExistsAndWarnIfChanges', 'FirewallRule=Ignore'], GCE_LIFECYCLE_KINDS)).toEqual({ Subnetwork: 'Ignore', HttpHealthCheck: 'ExistsAndWarnIfChanges', FirewallRule: 'Ignore' });
  });
});
