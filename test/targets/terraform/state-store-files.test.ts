import type { ManagedFilesPlan } from '../../../src/ops/plan-managed-files';
import { renderStateStoreFiles, stateStoreFiles } from '../../../src/targets/terraform/state-store-files';

// Which state-store objects a `--target terraform` run wrote, and who owns them (pure; the CLI test is
// terraform-state-store-owner.test.ts).

const plan = {
  cluster: 'x.example.com',
  keysetsToCreate: ['kubernetes-ca', 'etcd-clients-ca'],
  files: [
    { path: 'x.example.com/igconfig/node/nodes/nodeupconfig.yaml', action: 'update', diff: '- a\n+ b\n' },
    { path: 'x.example.com/cluster-completed.spec', action: 'none' },
  ],
} as unknown as ManagedFilesPlan;
const discovery = [{ path: 's3://oidc/x/openid/v1/jwks', action: 'create' as const }];

describe('state-store files of the terraform target', () => {
  it('lists keysets created, managed files and discovery documents, sorted, each owned by kforge', () => {
    expect(stateStoreFiles(plan, discovery)).toEqual([
      { type: 'Keypair', name: 'etcd-clients-ca', action: 'create', owner: 'kforge' },
      { type: 'Keypair', name: 'kubernetes-ca', action: 'create', owner: 'kforge' },
      { type: 'ManagedFile', name: 's3://oidc/x/openid/v1/jwks', action: 'create', owner: 'kforge' },
      { type: 'ManagedFile', name: 'x.example.com/cluster-completed.spec', action: 'none', owner: 'kforge' },
      { type: 'ManagedFile', name: 'x.example.com/igconfig/node/nodes/nodeupconfig.yaml', action: 'update', owner: 'kforge' },
    ]);
  });

  it('prints each object with what kforge did and its owner, and says Terraform owns none', () => {
    expect(renderStateStoreFiles(stateStoreFiles(plan, discovery)).split('\n')).toEqual([
      'State store: kforge wrote 4 of these 5 objects itself; Terraform will own none of them (kubernetes.tf has no state-store resource):',
      '  Keypair etcd-clients-ca                                          created    owner: kforge',
      '  Keypair kubernetes-ca                                            created    owner: kforge',
      '  ManagedFile s3://oidc/x/openid/v1/jwks                           created    owner: kforge',
      '  ManagedFile x.example.com/cluster-completed.spec                 unchanged  owner: kforge',
      '  ManagedFile x.example.com/igconfig/node/nodes/nodeupconfig.yaml  updated    owner: kforge',
      '',
    ]);
  });

  it('counts the objects Terraform would own when there are any', () => {
    const text = renderStateStoreFiles([{ type: 'ManagedFile', name: 'x/cluster-completed.spec', action: 'none', owner: 'terraform' }]);
    expect(text.split('\n')[0]).toBe('State store: kforge wrote 0 of these 1 objects itself; Terraform will own 1 (written at terraform apply):');
    expect(text).toContain('owner: terraform');
  });
});
