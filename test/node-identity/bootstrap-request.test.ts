import { BOOTSTRAP_API_VERSION, parseBootstrapRequest } from '../../src/node-identity/node-identity-server';
import { IdentityDenied } from '../../src/node-identity/identity-denied';

// The request shapes the service accepts (kops's BootstrapRequest, plus the claimed node name): a config
// request (includeNodeConfig) may name no certificate and no node; anything else must name both.

const parse = (o: unknown): unknown => parseBootstrapRequest(Buffer.from(JSON.stringify(o)));
const refusal = (o: unknown): { status: number; reason: string } | undefined => {
  try {
    parse(o);
    return undefined;
  } catch (e) {
    if (!(e instanceof IdentityDenied)) throw e;
    return { status: e.status, reason: e.reason };
  }
};

it('accepts a config request with no certificate and no node name (kops nodeup sends certs {} and includeNodeConfig)', () => {
  expect(parse({ apiVersion: BOOTSTRAP_API_VERSION, certs: {}, includeNodeConfig: true })).toEqual({ apiVersion: BOOTSTRAP_API_VERSION, nodeName: undefined, certs: {}, includeNodeConfig: true });
  expect(parse({ apiVersion: BOOTSTRAP_API_VERSION, includeNodeConfig: true })).toEqual(expect.objectContaining({ certs: {}, includeNodeConfig: true }));
});

it('refuses (400) a request that asks for nothing, a non-boolean includeNodeConfig, and certificates without a node name', () => {
  expect(refusal({ apiVersion: BOOTSTRAP_API_VERSION, nodeName: 'ip-10-0-0-1.ec2.internal', certs: {} })).toEqual({ status: 400, reason: 'certs names no certificate' });
  expect(refusal({ apiVersion: BOOTSTRAP_API_VERSION, certs: {}, includeNodeConfig: 'yes' })).toEqual({ status: 400, reason: 'includeNodeConfig is not a boolean' });
  expect(refusal({ apiVersion: BOOTSTRAP_API_VERSION, certs: { kubelet: 'x' }, includeNodeConfig: true })).toEqual({ status: 400, reason: 'nodeName undefined is not a node name' });
  expect(refusal({ apiVersion: BOOTSTRAP_API_VERSION, certs: {}, includeNodeConfig: false })).toEqual({ status: 400, reason: 'nodeName undefined is not a node name' });
});
