// A proxy in front of moto_server that plays AWS's part moto 5.2.1 lacks for network load balancers: AWS gives
// every NLB one network interface per subnet, described `ELB net/<name>/<id>` (the tail of its ARN), with a
// private address of that subnet, and removes them with the load balancer; moto makes none. After moto answered
// a CreateLoadBalancer that made a network load balancer, the proxy creates the missing interfaces (one per
// subnet of the answer, in its security groups) straight at moto before the client gets the answer; after a
// DeleteLoadBalancer it deletes them. Everything else passes through untouched.
//
// A separate process (started by test/helpers/moto-server.ts), not a server inside jest: tests run the CLI with
// spawnSync, which blocks jest's event loop. Usage: node moto-nlb-proxy.js <moto URL>; prints its port on
// stdout. `POST /__moto-nlb-proxy/keys` with `{"accessKeyId","secretAccessKey"}` sets the credentials it calls
// moto with (default test/test; a moto that enforces IAM needs a user's keys).
'use strict';
const http = require('node:http');
const { URL, URLSearchParams } = require('node:url');
const { CreateNetworkInterfaceCommand, DeleteNetworkInterfaceCommand, DescribeNetworkInterfacesCommand, EC2Client } = require('@aws-sdk/client-ec2');

const upstream = new URL(process.argv[2]);
let keys = { accessKeyId: 'test', secretAccessKey: 'test' };
const agent = new http.Agent({ keepAlive: false });

function forward(req, body) {
  return new Promise((resolve, reject) => {
    const out = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode || 502, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    out.on('error', reject);
    out.end(body);
  });
}

/**
 * A network load balancer's region and AWS's description of its interfaces (`ELB net/<name>/<id>`), from its
 * ARN: AWS's says `loadbalancer/net/…`, moto 5.2.1's says `loadbalancer/app/…` for every type.
 */
function nlbOfArn(arn) {
  const m = /^arn:[^:]+:elasticloadbalancing:([^:]+):\d+:loadbalancer\/(?:app|net)\/([^/]+\/[^/]+)$/.exec(arn || '');
  return m ? { region: m[1], description: `ELB net/${m[2]}` } : undefined;
}

async function withEc2(region, fn) {
  const ec2 = new EC2Client({ endpoint: upstream.origin, region, credentials: keys, maxAttempts: 1 });
  try {
    await fn(ec2);
  } finally {
    ec2.destroy();
  }
}

async function interfacesOf(ec2, description) {
  const out = await ec2.send(new DescribeNetworkInterfacesCommand({ Filters: [{ Name: 'description', Values: [description] }] }));
  return out.NetworkInterfaces || [];
}

async function playAws(method, body, answer) {
  if (answer.status !== 200 || method !== 'POST') return;
  const params = new URLSearchParams(body);
  const action = params.get('Action');
  const text = answer.body.toString('utf8');
  if (action === 'CreateLoadBalancer') {
    const lb = nlbOfArn((/<LoadBalancerArn>([^<]+)<\/LoadBalancerArn>/.exec(text) || [])[1]);
    if (!lb || !text.includes('<Type>network</Type>')) return;
    const subnets = [...new Set([...text.matchAll(/<SubnetId>(subnet-[0-9a-f]+)<\/SubnetId>/g)].map((m) => m[1]))];
    const groups = [...((/<SecurityGroups>([\s\S]*?)<\/SecurityGroups>/.exec(text) || [])[1] || '').matchAll(/<member>(sg-[0-9a-f]+)<\/member>/g)].map((m) => m[1]);
    await withEc2(lb.region, async (ec2) => {
      const existing = await interfacesOf(ec2, lb.description);
      for (const subnet of subnets) {
        if (existing.some((ni) => ni.SubnetId === subnet)) continue;
        await ec2.send(new CreateNetworkInterfaceCommand({ SubnetId: subnet, Description: lb.description, Groups: groups.length > 0 ? groups : undefined }));
      }
    });
  } else if (action === 'DeleteLoadBalancer') {
    const lb = nlbOfArn(params.get('LoadBalancerArn'));
    if (!lb) return;
    await withEc2(lb.region, async (ec2) => {
      for (const ni of await interfacesOf(ec2, lb.description)) await ec2.send(new DeleteNetworkInterfaceCommand({ NetworkInterfaceId: ni.NetworkInterfaceId }));
    });
  }
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    void (async () => {
      const body = Buffer.concat(chunks);
      if (req.url === '/__moto-nlb-proxy/keys' && req.method === 'POST') {
        keys = JSON.parse(body.toString('utf8'));
        res.writeHead(204);
        res.end();
        return;
      }
      let answer;
      try {
        answer = await forward(req, body);
        await playAws(req.method, body.toString('utf8'), answer);
      } catch (e) {
        process.stderr.write(`moto-nlb-proxy: ${req.method} ${req.url}: ${e && e.message}\n`);
        req.socket.destroy();
        return;
      }
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    })();
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
