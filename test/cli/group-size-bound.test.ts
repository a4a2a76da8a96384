import * as fs from 'node:fs';
import * as path from 'node:path';
import { expectCleanFailure, runCli, tempDir, treeDigest } from '../helpers/cli';

// The bound on instance-group sizes (src/validate/check-group-size.ts), as users meet it: a size above
// 1000 is refused naming the group and the field, before anything is written; the group's opt-in
// annotation lets it through.

const CLUSTER = 'big.example.com';
let store: string;
let dir: string;

const kforge = (args: string[]) => runCli([...args, '--state', store]);

/** An InstanceGroup manifest of `size` nodes, with or without the opt-in annotation. */
function manifest(name: string, size: number, allowLarge: boolean): string {
  const file = path.join(dir, `${name}.yaml`);
  const annotations = allowLarge ? '  annotations:\n    kforge.dev/allow-large-instance-group: "true"\n' : '';
  fs.writeFileSync(
    file,
    `apiVersion: kops.k8s.io/v1alpha2\nkind: InstanceGroup\nmetadata:\n  name: ${name}\n${annotations}  labels:\n    kops.k8s.io/cluster: ${CLUSTER}\n` +
      `spec:\n  machineType: t3.medium\n  minSize: 10\n  maxSize: ${size}\n  role: Node\n  subnets:\n  - us-east-1a\n`,
  );
  return file;
}

beforeAll(() => {
  store = tempDir('kforge-size-store-');
  dir = tempDir('kforge-size-files-');
  const created = kforge(['create', 'cluster', CLUSTER, '--zones', 'us-east-1a', '--cloud', 'aws', '--dns', 'none']);
  expect(created.stderr).toBe('');
  expect(created.status).toBe(0);
});

afterAll(() => {
  for (const d of [store, dir]) if (d) fs.rmSync(d, { recursive: true, force: true });
});

describe('instance-group sizes above 1000', () => {
  it('create instancegroup --min-size 100000 --max-size 100000 is refused naming both fields; the store is unchanged', () => {
    const before = treeDigest(store);
    const r = kforge(['create', 'instancegroup', 'huge', '--name', CLUSTER, '--subnet', 'us-east-1a', '--min-size', '100000', '--max-size', '100000']);
    expectCleanFailure(r);
    expect(r.stderr).toContain('InstanceGroup/huge: spec.minSize: 100000 instances is above the bound of 1000 per instance group');
    expect(r.stderr).toContain('InstanceGroup/huge: spec.maxSize: 100000 instances is above the bound of 1000 per instance group');
    expect(r.stderr).toContain('metadata.annotations["kforge.dev/allow-large-instance-group"]: "true"');
    expect(treeDigest(store)).toBe(before);
  });

  it('a manifest with maxSize 1001 is refused with its file, line and field; 1000 is accepted', () => {
    const before = treeDigest(store);
    const r = kforge(['create', '-f', manifest('over', 1001, false)]);
    expectCleanFailure(r);
    expect(r.stderr).toMatch(/over\.yaml:\d+: InstanceGroup\/over: spec\.maxSize: 1001 instances is above the bound of 1000/);
    expect(treeDigest(store)).toBe(before);
    expect(kforge(['create', '-f', manifest('at-bound', 1000, false)]).status).toBe(0);
  });

  it('the opt-in annotation lets a group of 5000 through', () => {
    const created = kforge(['create', '-f', manifest('meant', 5000, true)]);
    expect(created.stderr).toBe('');
    expect(created.status).toBe(0);
    const listed = kforge(['get', 'instancegroups', '--name', CLUSTER]);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(/^meant\s+Node\s+t3\.medium\s+10\s+5000\s+us-east-1a$/m);
  });
});
