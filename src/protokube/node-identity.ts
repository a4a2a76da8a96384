import { ProtokubeError } from './protokube-error';

/** Who this control-plane machine is: what AttachVolume needs, and the address its names resolve to. */
export interface NodeIdentity {
  instanceId: string;
  zone: string;
  internalIp: string;
}

const IMDS = 'http://169.254.169.254';
const TIMEOUT_MS = 2000;

/**
 * The identity from the given values, asking EC2 instance metadata (IMDSv2: a session token, then the
 * values) only for what is missing. AWS_EC2_METADATA_SERVICE_ENDPOINT moves the endpoint, as for the SDK.
 */
export async function resolveNodeIdentity(given: Partial<NodeIdentity>, env: NodeJS.ProcessEnv = process.env): Promise<NodeIdentity> {
  if (given.instanceId && given.zone && given.internalIp) return given as NodeIdentity;
  const base = (env.AWS_EC2_METADATA_SERVICE_ENDPOINT || IMDS).replace(/\/+$/, '');
  const fetchText = async (url: string, init: RequestInit): Promise<string> => {
    let res: Response;
    try {
      res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (e) {
      throw new ProtokubeError(
        `cannot reach EC2 instance metadata at ${base} (${e instanceof Error ? e.message : String(e)}); off EC2, pass --instance-id, --zone and --internal-ip`,
      );
    }
    if (!res.ok) throw new ProtokubeError(`EC2 instance metadata ${url} answered HTTP ${res.status}; pass --instance-id, --zone and --internal-ip`);
    return (await res.text()).trim();
  };
  const token = await fetchText(`${base}/latest/api/token`, { method: 'PUT', headers: { 'X-aws-ec2-metadata-token-ttl-seconds': '60' } });
  const get = (p: string) => fetchText(`${base}/latest/meta-data/${p}`, { headers: { 'X-aws-ec2-metadata-token': token } });
  return {
    instanceId: given.instanceId || (await get('instance-id')),
    zone: given.zone || (await get('placement/availability-zone')),
    internalIp: given.internalIp || (await get('local-ipv4')),
  };
}
