import { runCli, tempDir } from '../helpers/cli';
import { writeManagedFilesOf } from '../helpers/write-managed-files';

// docs/output-formats.md: a list where the command lists, an object where it shows one thing.

const store = tempDir();
const NAME = 'shapes.k8s.local';
beforeAll(async () => {
  expect(runCli(['create', 'cluster', NAME, '--zones', 'us-east-1a', '--state', store]).status).toBe(0);
  await writeManagedFilesOf(store, NAME); // its keypairs
  expect(runCli(['create', 'cluster', 'other.k8s.local', '--zones', 'us-east-1a', '--state', store]).status).toBe(0);
});

function json(args: string[]): unknown {
  const r = runCli([...args, '-o', 'json', '--state', store]);
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout);
}

const kinds = (v: unknown) => (v as Array<{ kind: string }>).map((o) => o.kind);

describe('-o json shapes', () => {
  it('get clusters lists Clusters only; get cluster NAME is the object', () => {
    expect(kinds(json(['get', 'clusters']))).toEqual(['Cluster', 'Cluster']);
    expect(json(['get', 'cluster', NAME])).toMatchObject({ kind: 'Cluster', metadata: { name: NAME } });
    expect(json(['get', 'cluster', NAME, '--full'])).toMatchObject({ kind: 'Cluster', metadata: { name: NAME } });
  });

  it('get all NAME lists the cluster and its instance groups', () => {
    expect(kinds(json(['get', 'all', NAME]))).toEqual(['Cluster', 'InstanceGroup', 'InstanceGroup']);
  });

  it('get instancegroups lists; one named group is the object', () => {
    expect(kinds(json(['get', 'instancegroups', '--name', NAME]))).toEqual(['InstanceGroup', 'InstanceGroup']);
    expect(json(['get', 'instancegroup', 'nodes-us-east-1a', '--name', NAME])).toMatchObject({ kind: 'InstanceGroup', metadata: { name: 'nodes-us-east-1a' } });
  });

  it('get keypairs is always a list of rows', () => {
    const rows = json(['get', 'keypairs', 'kubernetes-ca', '--name', NAME]) as Array<Record<string, unknown>>;
    expect(Array.isArray(rows)).toBe(true);
    expect(Object.keys(rows[0]).sort()).toEqual(['algorithm', 'distrusted', 'id', 'issuer', 'keyset', 'notAfter', 'primary', 'subject']);
  });
});
