import type { JWTPayload } from 'jose';
import type { VerifiedNode } from './aws-identity-verifier';
import { GCE_TOKEN_PREFIX } from './gce-identity-token';
import { IdentityDenied } from './identity-denied';

// jose's subpaths, not its index: the nodeup artifact (which runs this service) then carries 39 KB of jose, not 127 KB.
/* eslint-disable @typescript-eslint/no-require-imports -- tsc's node10 resolution cannot type package subpaths; their types are the index's */
const { jwtVerify } = require('jose/jwt/verify') as Pick<typeof import('jose'), 'jwtVerify'>;
const { createRemoteJWKSet } = require('jose/jwks/remote') as Pick<typeof import('jose'), 'createRemoteJWKSet'>;
const errors = require('jose/errors') as typeof import('jose').errors;
/* eslint-enable @typescript-eslint/no-require-imports */

/** Google's public keys for the tokens it signs (the instance identity tokens among them). */
export const GOOGLE_JWKS_URL = 'https://www.googleapis.com/oauth2/v3/certs';
/** The issuers Google writes into its ID tokens (google-auth-library accepts the same two). */
export const GOOGLE_ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];

/** What Compute's instances.get says of one instance, as far as the verifier needs it. */
export interface GceInstanceFacts {
  /** The numeric id, as a decimal string. */
  id: string;
  name: string;
  /** RUNNING, STOPPING, TERMINATED, … */
  status: string;
  labels: Readonly<Record<string, string>>;
  /** The instance's metadata items (`cluster-name`, `kops-k8s-io-instance-group-name`, …). */
  metadata: Readonly<Record<string, string>>;
}

/** The verifier's configuration: the cluster's facts and the service's own settings, never anything from a request. */
export interface GceIdentityVerifierOptions {
  clusterName: string;
  /** The cluster's project id; a token of an instance in another project is refused. */
  project: string;
  /** The audience the node must have asked Google for: this service's URL (`https://kops-controller.internal.<cluster>:3988`). */
  audience: string;
  /** The JWKS the token's signature is checked against. Default GOOGLE_JWKS_URL; tests serve their own. */
  jwksUrl?: string;
  /** The names of this cluster's worker instance groups: only their instances get node certificates. */
  workerGroups: readonly string[];
  /** Compute's instances.get by zone and name (undefined when the instance does not exist). */
  getInstance(zone: string, name: string): Promise<GceInstanceFacts | undefined>;
  /** Default: the clock. */
  now?: () => Date;
}

/** How far the node's clock (and so `iat`/`exp`) may be off ours. */
const CLOCK_SKEW_S = 60;

/**
 * Verifies a GCE node's identity from Google's instance identity token (kforge's replacement for kops's
 * Shielded-VM TPM signature, docs/node-identity.md): an RS256 JWT the metadata server hands the VM, signed by
 * Google (checked against Google's JWKS), for this service's audience, unexpired, about an instance of the
 * cluster's project. Compute then has to show that instance RUNNING, with the token's id, labelled and
 * annotated as a worker of one of this cluster's groups; its node name is its instance name (what kubelet
 * registers as on GCE: the hostname's first label).
 */
export class GceIdentityVerifier {
  private readonly jwks: ReturnType<typeof createRemoteJWKSet>;

  constructor(private readonly options: GceIdentityVerifierOptions) {
    // jose caches the keys and fetches again (at most every 30 s) for a kid it does not know: Google rotates its keys.
    this.jwks = createRemoteJWKSet(new URL(options.jwksUrl ?? GOOGLE_JWKS_URL), { timeoutDuration: 10_000 });
  }

  /** Checks `authorization` (the body is not signed by Google's token); resolves to the verified node, or rejects with IdentityDenied naming the reason. */
  async verify(authorization: string | undefined, _body?: Buffer): Promise<VerifiedNode> {
    if (!authorization?.startsWith(GCE_TOKEN_PREFIX)) throw new IdentityDenied(`no GCE identity token (Authorization: ${GCE_TOKEN_PREFIX.trim()} …)`);
    const token = authorization.slice(GCE_TOKEN_PREFIX.length).trim();
    const payload = await this.verifyToken(token);
    const ce = (payload.google as { compute_engine?: Record<string, unknown> } | undefined)?.compute_engine;
    const field = (k: string): string => (typeof ce?.[k] === 'string' || typeof ce?.[k] === 'number' ? String(ce[k]) : '');
    const [project, zone, id, name] = [field('project_id'), field('zone'), field('instance_id'), field('instance_name')];
    if (!project || !zone || !id || !name) throw new IdentityDenied('the identity token has no google.compute_engine claims (the node must ask with format=full)');
    if (project !== this.options.project) throw new IdentityDenied(`instance ${name} (${id}) is in project ${project}, not the cluster's ${this.options.project}`);
    if (!/^[a-z][-a-z0-9]{0,62}$/.test(name) || !/^[a-z]+-[a-z]+\d+-[a-z]$/.test(zone)) throw new IdentityDenied(`the token names instance ${JSON.stringify(name)} in zone ${JSON.stringify(zone)}, which are not GCE names`);
    const who = `instance ${name} (${id}, ${zone})`;
    let instance: GceInstanceFacts | undefined;
    try {
      instance = await this.options.getInstance(zone, name);
    } catch (e) {
      // The node may retry: the service, not the node, could not finish the check.
      throw new IdentityDenied(`${who}: instances.get failed: ${e instanceof Error ? e.message : String(e)}`, 503);
    }
    if (!instance) throw new IdentityDenied(`${who} does not exist`);
    if (instance.id !== id) throw new IdentityDenied(`${who}: the instance of that name now has id ${instance.id} (the token's instance is gone)`);
    if (instance.status !== 'RUNNING') throw new IdentityDenied(`${who} is ${instance.status}, not RUNNING`);
    const c = this.options.clusterName;
    const safe = c.replace(/\./g, '-');
    if (instance.labels['k8s-io-cluster-name'] !== safe || instance.metadata['cluster-name'] !== c) throw new IdentityDenied(`${who} is not labelled with cluster ${c} (label k8s-io-cluster-name ${JSON.stringify(instance.labels['k8s-io-cluster-name'] ?? null)}, metadata cluster-name ${JSON.stringify(instance.metadata['cluster-name'] ?? null)})`);
    const group = instance.labels['k8s-io-instance-group'];
    if (instance.labels['k8s-io-role-control-plane'] !== undefined || instance.labels['k8s-io-role-master'] !== undefined) throw new IdentityDenied(`${who} is a control-plane instance (group ${group ?? '(none)'}); the service issues worker certificates only`);
    if (!group || instance.metadata['kops-k8s-io-instance-group-name'] !== group) throw new IdentityDenied(`${who}: label k8s-io-instance-group ${JSON.stringify(group ?? null)} and metadata kops-k8s-io-instance-group-name ${JSON.stringify(instance.metadata['kops-k8s-io-instance-group-name'] ?? null)} do not name one group`);
    if (!this.options.workerGroups.includes(group)) throw new IdentityDenied(`${who} is in group ${group}, not a worker group of cluster ${c} (${this.options.workerGroups.join(', ') || 'none'})`);
    return { instanceId: id, instanceGroup: group, role: String(payload.email ?? payload.sub ?? ''), nodeName: name };
  }

  /** The token's claims once Google's signature, the issuer, the audience and the times hold. */
  private async verifyToken(token: string): Promise<JWTPayload> {
    try {
      const { payload } = await jwtVerify(token, this.jwks, {
        algorithms: ['RS256'],
        issuer: GOOGLE_ISSUERS,
        audience: this.options.audience,
        clockTolerance: CLOCK_SKEW_S,
        requiredClaims: ['exp', 'iat'],
        currentDate: this.options.now?.(),
      });
      return payload;
    } catch (e) {
      throw tokenRefusal(e);
    }
  }
}

/** jose's error classes (never their messages) say why a token is refused. */
function tokenRefusal(e: unknown): IdentityDenied {
  if (e instanceof errors.JWTExpired) return new IdentityDenied(`the identity token expired (exp ${String(e.payload.exp)})`);
  if (e instanceof errors.JWTClaimValidationFailed) return new IdentityDenied(`the identity token's ${e.claim} claim fails (${e.reason}): ${JSON.stringify(e.payload[e.claim] ?? null)}`);
  if (e instanceof errors.JWSSignatureVerificationFailed) return new IdentityDenied("the identity token's signature is not Google's (it does not verify with the key its kid names)");
  if (e instanceof errors.JWKSNoMatchingKey) return new IdentityDenied("the identity token's kid is not one of Google's keys");
  if (e instanceof errors.JOSEAlgNotAllowed) return new IdentityDenied('the identity token is not signed with RS256');
  if (e instanceof errors.JWKSTimeout || e instanceof errors.JWKSInvalid) return new IdentityDenied(`Google's keys could not be read: ${e.code}`, 503);
  if (e instanceof errors.JWSInvalid || e instanceof errors.JWTInvalid || e instanceof errors.JOSENotSupported || e instanceof errors.JWKSMultipleMatchingKeys) return new IdentityDenied(`the identity token is not a JWT Google signs (${e.code})`);
  // Anything else is the key fetch failing (network, HTTP status): the node may retry.
  return new IdentityDenied(`Google's keys could not be read: ${e instanceof Error ? e.message : String(e)}`, 503);
}
