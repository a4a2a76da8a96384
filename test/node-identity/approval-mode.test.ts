import { generateKeyPairSync } from 'node:crypto';
import { newCluster } from '../../src/create/new-cluster';
import { approvalConfigServer } from '../../src/model/approval-config-server';
import { buildIamPolicies } from '../../src/model/aws/iam-model-builder';
import { approvalHandler } from '../../src/node-identity/approval-handler';
import { ApprovalQueue } from '../../src/node-identity/approval-queue';
import { NodeIdentityServer, startNodeIdentityServer } from '../../src/node-identity/node-identity-server';
import { requestApprovedCertificates } from '../../src/node-identity/request-approved-certificates';
import { completeCluster } from '../../src/ops/expand-cluster';
import { decideNodeRequest, listNodeRequests } from '../../src/ops/node-request-ops';
import { issueKeypair } from '../../src/pki/issue-keypair';
import type { Keypair } from '../../src/pki/keypair';
import { StatePaths } from '../../src/state/state-paths';
import { MemoryVfs } from '../../src/state/vfs/memory-vfs';
import { validateSpec } from '../../src/validate/validate-spec';
import { opensslSubject } from './node-identity-helpers';

// The mode's effects that need no process: the control plane's IAM statement, the workers' ConfigServer, the
// validation outside AWS, and nodeup's bounded wait against the service (in this process, with a store in
// memory) that never approves.

const CLUSTER = 'mode.example.com';

function completed(mode?: 'Automatic' | 'Approval') {
  const { cluster, instanceGroups } = newCluster({ name: CLUSTER, zones: ['us-east-1a'] });
  if (mode) cluster.spec.nodeIdentity = { mode };
  return { cluster: completeCluster(cluster, instanceGroups, 's3://bucket/team'), instanceGroups };
}

test("Approval mode gives the control plane's role PutObject on <cluster>/node-requests/ only; Automatic (the default) nothing", () => {
  const sid = 'kforgeControlPlaneRecordNodeRequests';
  const approval = completed('Approval');
  const statement = buildIamPolicies(approval.cluster, approval.instanceGroups).controlPlane.Statement.find((s) => s.Sid === sid);
  expect(statement).toEqual({ Sid: sid, Effect: 'Allow', Action: ['s3:PutObject'], Resource: `arn:aws:s3:::bucket/team/${CLUSTER}/node-requests/*` });
  for (const mode of [undefined, 'Automatic'] as const) {
    const c = completed(mode);
    expect(buildIamPolicies(c.cluster, c.instanceGroups).controlPlane.Statement.map((s) => s.Sid)).not.toContain(sid);
  }
  // Workers read their config from the store in Approval mode; in Automatic mode (a ConfigServer, here through
  // the API load balancer: the cluster has no DNS) they have no S3 action at all.
  const automatic = completed('Automatic');
  const s3 = (docs: ReturnType<typeof buildIamPolicies>['nodeGroups']) => Object.values(docs).flatMap((d) => d.Statement.flatMap((st) => [st.Action].flat())).filter((a) => String(a).startsWith('s3:'));
  expect(s3(buildIamPolicies(approval.cluster, approval.instanceGroups).nodeGroups)).toContain('s3:GetObject');
  expect(s3(buildIamPolicies(automatic.cluster, automatic.instanceGroups).nodeGroups)).toEqual([]);
});

test('Approval mode gives workers (not the control plane) a ConfigServer with Approval, once kops-controller-ca exists', () => {
  const { cluster, instanceGroups } = completed('Approval');
  const worker = instanceGroups.find((g) => g.spec.role === 'Node');
  const cp = instanceGroups.find((g) => g.spec.role !== 'Node');
  if (!worker || !cp) throw new Error('groups');
  const certs = { bundles: { 'kops-controller-ca': 'PEM' }, primaryIds: {} } as unknown as Parameters<typeof approvalConfigServer>[2];
  expect(approvalConfigServer(cluster, worker, certs)).toEqual({ Servers: [`https://kops-controller.internal.${CLUSTER}:3988`], CACertificates: 'PEM', Region: 'us-east-1', Approval: true });
  expect(approvalConfigServer(cluster, cp, certs)).toBeUndefined();
  expect(approvalConfigServer(cluster, worker, undefined)).toBeUndefined();
  expect(approvalConfigServer(completed('Automatic').cluster, worker, certs)).toBeUndefined();
});

test('spec.nodeIdentity.mode Approval outside AWS is refused with its path; Automatic is accepted on GCE', () => {
  const { cluster, instanceGroups } = newCluster({ name: 'gce.example.com', zones: ['us-central1-a'], cloud: 'gce' });
  cluster.spec.nodeIdentity = { mode: 'Approval' };
  expect(validateSpec(cluster, instanceGroups)).toContainEqual({ object: 'Cluster/gce.example.com', path: 'spec.nodeIdentity.mode', message: 'Approval is not supported on gce yet: the approval queue runs on AWS control planes only (Automatic works on gce)' });
  cluster.spec.nodeIdentity = { mode: 'Automatic' };
  expect(validateSpec(cluster, instanceGroups).filter((e) => e.path.startsWith('spec.nodeIdentity'))).toEqual([]);
});

describe('nodeup waiting for an approval', () => {
  let server: NodeIdentityServer;
  let controllerCa: Keypair;
  let start: (port: number) => Promise<NodeIdentityServer>;
  const vfs = new MemoryVfs('approval-mode-test');
  const logs: string[] = [];

  beforeAll(async () => {
    const ca = await issueKeypair({ subject: { commonName: 'kubernetes-ca' }, usage: 'ca', validityMs: 10 * 365 * 86400_000 });
    controllerCa = await issueKeypair({ subject: { commonName: 'kops-controller-ca' }, usage: 'ca', validityMs: 10 * 365 * 86400_000 });
    const serving = await issueKeypair({ subject: { commonName: 'kops-controller' }, usage: 'server', validityMs: 365 * 86400_000, dnsNames: [`kops-controller.internal.${CLUSTER}`] }, controllerCa);
    const approval = approvalHandler(new ApprovalQueue(vfs, CLUSTER), ca);
    const verify = () => Promise.reject(new Error('no proof is verified in Approval mode'));
    start = (port) => startNodeIdentityServer({ tls: { cert: serving.certificatePem, key: serving.privateKeyPem ?? '' }, ca, verify, approval, log: (l) => logs.push(l) }, { port, host: '127.0.0.1' });
    server = await start(0);
    // approve/deny need the cluster to exist in the store.
    await vfs.write(StatePaths.config(CLUSTER), 'kind: Cluster\n');
  });

  afterAll(() => server?.close());

  test('a service restarting while the node waits (a rolling update of the control plane) does not end the wait; the approval then does', async () => {
    const key = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const port = server.port;
    const notices: string[] = [];
    let round = 0;
    const certs = await requestApprovedCertificates('metal-5.example.com', { kubelet: key }, {
      cluster: CLUSTER,
      servers: [`https://127.0.0.1:${port}`],
      caCertificates: controllerCa.certificatePem,
      onPending: (name) => notices.push(`pending ${name}`),
      onUnreachable: () => notices.push('unreachable'),
      sleep: async () => {
        round += 1;
        if (round === 1) await server.close();
        if (round === 2) {
          server = await start(port);
          const [pending] = await listNodeRequests(vfs, CLUSTER);
          await decideNodeRequest(vfs, CLUSTER, pending.name, 'Approved');
        }
      },
    });
    expect(notices).toEqual([expect.stringMatching(/^pending metal-5\.example\.com-[0-9a-f]{16}$/), 'unreachable']);
    expect(opensslSubject(certs.kubelet)).toBe('subject=CN=system:node:metal-5.example.com,O=system:nodes');
  });

  test('a refusal while waiting (the name approved for other keys meanwhile) ends the wait with NODE_IDENTITY_FAILED', async () => {
    const pem = () => generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const options = { cluster: CLUSTER, servers: [`https://127.0.0.1:${server.port}`], caCertificates: controllerCa.certificatePem, onPending: () => undefined };
    let round = 0;
    let mine = '';
    const p = requestApprovedCertificates('metal-6.example.com', { kubelet: pem() }, {
      ...options,
      onPending: (name) => (mine = name),
      sleep: async () => {
        round += 1;
        if (round > 1) return;
        // Another machine claims the same name and an operator approves that one.
        await expect(requestApprovedCertificates('metal-6.example.com', { kubelet: pem() }, { ...options, maxWaitMs: 0 })).rejects.toMatchObject({ code: 'NODE_IDENTITY_FAILED' });
        const other = (await listNodeRequests(vfs, CLUSTER)).filter((r) => r.nodeName === 'metal-6.example.com' && r.name !== mine);
        expect(other).toHaveLength(1);
        await decideNodeRequest(vfs, CLUSTER, other[0].name, 'Approved');
      },
    });
    await expect(p).rejects.toMatchObject({ code: 'NODE_IDENTITY_FAILED', message: expect.stringContaining('answered HTTP 403') as unknown });
  });

  test('polls with a doubling wait bounded at maxPollMs, then fails with NODE_IDENTITY_FAILED naming the request and the command', async () => {
    const waits: number[] = [];
    const pending: string[] = [];
    const key = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const p = requestApprovedCertificates('metal-3.example.com', { kubelet: key }, {
      cluster: CLUSTER,
      servers: [`https://127.0.0.1:${server.port}`],
      caCertificates: controllerCa.certificatePem,
      onPending: (name) => pending.push(name),
      maxWaitMs: 300_000,
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    });
    await expect(p).rejects.toMatchObject({ code: 'NODE_IDENTITY_FAILED', message: expect.stringMatching(/^node metal-3\.example\.com's request metal-3\.example\.com-[0-9a-f]{16} was not approved within 300 s; approve it with "kforge approve node-request metal-3\.example\.com-[0-9a-f]{16}"/) as unknown });
    // 5, 10, 20, 40, 60, 60, ... s: never more than a minute, 300 s in all.
    expect(waits).toEqual([5000, 10000, 20000, 40000, 60000, 60000, 60000, 45000]);
    expect(new Set(pending).size).toBe(1);
    expect(logs.filter((l) => / 202 pending: request metal-3\.example\.com-[0-9a-f]{16} for node metal-3\.example\.com \(kubelet sha256:[0-9a-f]{64}\) recorded for approval$/.test(l))).toHaveLength(1);
    expect(logs.filter((l) => / 202 pending: request metal-3\.example\.com-.* waits for approval$/.test(l))).toHaveLength(8);
  });
});
