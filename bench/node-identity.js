#!/usr/bin/env node
// Node-identity benchmark: wall time of 100 concurrent honest bootstrap requests (TLS, the signed
// GetCallerIdentity executed against STS, DescribeInstances, two certificates issued) against a local
// moto_server standing in for AWS, so it measures the service and moto, not AWS's latency.
// Usage: node bench/node-identity.js [rounds]   (default 5). Needs a build (npm run build) and moto_server.
'use strict';
const { spawn } = require('node:child_process');
const { generateKeyPairSync } = require('node:crypto');
const https = require('node:https');
const net = require('node:net');
const os = require('node:os');
const { EC2Client, RunInstancesCommand } = require('@aws-sdk/client-ec2');
const { IAMClient, CreateRoleCommand } = require('@aws-sdk/client-iam');
const { STSClient, AssumeRoleCommand } = require('@aws-sdk/client-sts');
const { AwsCloud } = require('../dist/cloud/aws/aws-cloud');
const { createAwsIdentityToken } = require('../dist/node-identity/aws-identity-token');
const { AwsIdentityVerifier } = require('../dist/node-identity/aws-identity-verifier');
const { describeInstanceFacts } = require('../dist/node-identity/describe-instance-facts');
const { BOOTSTRAP_API_VERSION, startNodeIdentityServer } = require('../dist/node-identity/node-identity-server');
const { issueKeypair } = require('../dist/pki/issue-keypair');
const { median } = require('./interleave');

const rounds = Number(process.argv[2] || 5);
const CLUSTER = 'bench.example.com';
const ROLE = 'nodes-nodes-a.bench.example.com';

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function post(port, ca, body, authorization) {
  return new Promise((resolve, reject) => {
    const req = https.request({ host: '127.0.0.1', port, path: '/bootstrap', method: 'POST', ca, servername: `kops-controller.internal.${CLUSTER}`, headers: { authorization }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function main() {
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const moto = spawn('moto_server', ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  try {
    for (let i = 0; i < 100; i++) {
      const up = await new Promise((resolve) => require('node:http').get(`${endpoint}/moto-api/`, (res) => (res.resume(), resolve(res.statusCode === 200))).on('error', () => resolve(false)));
      if (up) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const config = { endpoint, region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } };
    const role = (await new IAMClient(config).send(new CreateRoleCommand({ RoleName: ROLE, AssumeRolePolicyDocument: '{}' }))).Role;
    // One of moto's built-in images.
    const run = await new EC2Client(config).send(
      new RunInstancesCommand({ ImageId: 'ami-12c6146b', MinCount: 1, MaxCount: 1, TagSpecifications: [{ ResourceType: 'instance', Tags: [{ Key: 'KubernetesCluster', Value: CLUSTER }, { Key: 'kops.k8s.io/instancegroup', Value: 'nodes-a' }] }] }),
    );
    const instance = run.Instances[0];
    const c = (await new STSClient(config).send(new AssumeRoleCommand({ RoleArn: role.Arn, RoleSessionName: instance.InstanceId }))).Credentials;
    const credentials = { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.SessionToken };
    const ca = await issueKeypair({ subject: { commonName: 'kubernetes-ca' }, usage: 'ca', validityMs: 3650 * 86400000 });
    const controllerCa = await issueKeypair({ subject: { commonName: 'kops-controller-ca' }, usage: 'ca', validityMs: 3650 * 86400000 });
    const serving = await issueKeypair({ subject: { commonName: 'kops-controller' }, usage: 'server', validityMs: 86400000, dnsNames: [`kops-controller.internal.${CLUSTER}`] }, controllerCa);
    const cloud = new AwsCloud({ clusterName: CLUSTER, region: 'us-east-1', env: { AWS_ENDPOINT_URL: endpoint }, credentials: config.credentials });
    const verifier = new AwsIdentityVerifier({ clusterName: CLUSTER, region: 'us-east-1', stsEndpoint: endpoint, accountId: '123456789012', roles: new Map([[ROLE, ['nodes-a']]]), describeInstance: (id) => describeInstanceFacts(cloud, id) });
    const server = await startNodeIdentityServer({ tls: { cert: serving.certificatePem, key: serving.privateKeyPem }, ca, verify: (a, b) => verifier.verify(a, b), log: () => undefined }, { port: 0, host: '127.0.0.1' });
    console.log(`node-identity benchmark, ${rounds} rounds of 100 concurrent honest requests, ${os.cpus().length} cores (${os.cpus()[0].model}); AWS is moto_server on loopback`);
    const times = [];
    for (let r = 0; r < rounds; r++) {
      const requests = Array.from({ length: 100 }, () => {
        const key = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey.export({ type: 'spki', format: 'pem' });
        const body = JSON.stringify({ apiVersion: BOOTSTRAP_API_VERSION, nodeName: instance.PrivateDnsName, certs: { kubelet: key, 'kube-proxy': key } });
        return { body, token: createAwsIdentityToken(body, { region: 'us-east-1', stsEndpoint: endpoint, credentials }) };
      });
      const t0 = process.hrtime.bigint();
      const statuses = await Promise.all(requests.map((q) => post(server.port, controllerCa.certificatePem, q.body, q.token)));
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (statuses.some((s) => s !== 200)) throw new Error(`not all issued: ${statuses.filter((s) => s !== 200).join(',')}`);
    }
    console.log(`100 concurrent requests, all 200        ${median(times).toFixed(0).padStart(6)} ms   (median; ${(median(times) / 100).toFixed(1)} ms per request)`);
    await server.close();
  } finally {
    moto.kill();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
