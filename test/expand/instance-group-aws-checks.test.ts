import { newCluster } from '../../src/create/new-cluster';
import { expandCluster } from '../../src/ops/expand-cluster';

// Instance-group settings AWS would refuse at CreateAutoScalingGroup, and fields kforge does not build
// yet, fail validation with their paths, before anything is written or called.

function errorsOf(edit: (spec: Record<string, unknown>) => void): string {
  const { cluster, instanceGroups } = newCluster({ name: 'checks.example.com', zones: ['us-east-1a'], cloud: 'aws' });
  edit(instanceGroups.find((g) => g.spec.role === 'Node')?.spec as unknown as Record<string, unknown>);
  try {
    expandCluster(cluster, instanceGroups, 'memfs://store');
  } catch (e) {
    return (e as Error).message;
  }
  return '';
}

it('maxInstanceLifetime must be 0 or within AWS\'s one day to one year', () => {
  expect(errorsOf((s) => (s.maxInstanceLifetime = '1h'))).toContain('InstanceGroup/nodes-us-east-1a: spec.maxInstanceLifetime: 1h is 3600 s; AWS takes 0 (no limit) or 24h to 8760h');
  expect(errorsOf((s) => (s.maxInstanceLifetime = '9000h'))).toContain('spec.maxInstanceLifetime: 9000h is 32400000 s');
  expect(errorsOf((s) => (s.maxInstanceLifetime = '168h'))).toBe('');
  expect(errorsOf((s) => (s.maxInstanceLifetime = '0'))).toBe('');
});

it('suspendProcesses names Auto Scaling processes; additionalSecurityGroups are sg- ids', () => {
  const message = errorsOf((s) => {
    s.suspendProcesses = ['AZRebalance', 'Rebalance'];
    s.additionalSecurityGroups = ['default'];
  });
  expect(message).toContain('spec.suspendProcesses[1]: "Rebalance" is not an Auto Scaling process');
  expect(message).toContain('spec.additionalSecurityGroups[0]: "default" is not a security group id (sg-…)');
  expect(message).not.toContain('suspendProcesses[0]');
});

it('fields not built yet are refused with the reason, never accepted and ignored', () => {
  expect(errorsOf((s) => (s.maxPrice = '0.05'))).toContain('spec.maxPrice: is not supported yet: Spot instances are not built yet');
  expect(errorsOf((s) => (s.warmPool = { minSize: 1 }))).toContain('spec.warmPool: is not supported yet: warm pools are not built yet');
  expect(errorsOf((s) => (s.externalLoadBalancers = [{ loadBalancerName: 'x' }]))).toContain('spec.externalLoadBalancers: is not supported yet');
  expect(errorsOf((s) => (s.manager = 'Karpenter'))).toContain('spec.manager: is not supported yet: Karpenter-managed groups');
  expect(errorsOf((s) => (s.role = 'APIServer'))).toContain('InstanceGroup/nodes-us-east-1a: spec.role: is not supported yet: APIServer instance groups');
  expect(errorsOf((s) => (s.mixedInstancesPolicy = { instances: ['m5.large', 'm5a.large'] }))).toBe('');
  expect(errorsOf((s) => (s.mixedInstancesPolicy = { instances: [] }))).toContain('spec.mixedInstancesPolicy.instances: names no instance type');
  expect(errorsOf((s) => (s.mixedInstancesPolicy = { instanceRequirements: { cpu: { min: '2' } } }))).toContain('spec.mixedInstancesPolicy.instanceRequirements: is not supported yet');
  expect(errorsOf((s) => (s.hooks = [{ name: 'x.service', manifest: '[Unit]' }]))).toContain('spec.hooks: is not supported yet');
  expect(errorsOf((s) => (s.additionalUserData = [{ name: 'x.sh', type: 'text/x-shellscript', content: '#!/bin/sh' }]))).toBe('');
});
