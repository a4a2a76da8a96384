import * as http from 'node:http';
import { AwsCloud } from '../../../src/cloud/aws/aws-cloud';
import { awsErrorMessage, classifyAwsError, isRetryableAwsError } from '../../../src/cloud/aws/aws-errors';

// An endpoint that answers with an HTML page (a proxy's or load balancer's error page, a captive portal):
// each protocol's parser fails differently (EC2's throws an XML parse error, the query protocols make an
// `Unknown` error), and kforge says the same thing for both.

let server: http.Server;
let endpoint: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<html><head><title>500 Internal Server Error</title></head><body><h1>Oops</h1></body></html>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const cloud = (): AwsCloud => new AwsCloud({ clusterName: 'x.example.com', region: 'us-east-1', env: { AWS_ENDPOINT_URL: endpoint }, credentials: { accessKeyId: 'a', secretAccessKey: 'b' }, maxAttempts: 1 });

it.each([
  ['EC2 DescribeVpcs', async (c: AwsCloud) => { const { sdk, client } = await c.ec2(); await client.send(new sdk.DescribeVpcsCommand({})); }],
  ['STS GetCallerIdentity', async (c: AwsCloud) => { const { sdk, client } = await c.sts(); await client.send(new sdk.GetCallerIdentityCommand({})); }],
  ['Auto Scaling DescribeAutoScalingGroups', async (c: AwsCloud) => { const { sdk, client } = await c.autoScaling(); await client.send(new sdk.DescribeAutoScalingGroupsCommand({})); }],
])('%s: names the operation, the endpoint and the status; still a retryable 5xx', async (operation, call) => {
  let error: unknown;
  try {
    await call(cloud());
  } catch (e) {
    error = e;
  }
  const service = operation.replace(/ \w+$/, '').replace(/ /g, '');
  const message = awsErrorMessage(error);
  expect(message).toBe(`${service} ${operation.split(' ').pop()} to ${endpoint}: the answer (HTTP 500, text/html) is not an AWS API answer; is AWS_ENDPOINT_URL (or a proxy) pointing at something else?`);
  expect(message).not.toMatch(/parse|mismatched|Deserialization/i);
  expect(isRetryableAwsError(error)).toBe(true);
  expect(classifyAwsError(error)).not.toBe('throttled');
});
