import { CA_VALIDITY_MS } from '../../pki/cluster-pki';
import { issueKeypair } from '../../pki/issue-keypair';
import { AddonApplyError } from './addon-apply-error';
import { collectionPath } from './collection-path';
import type { KubeApiClient } from './kube-api-client';
import type { ResourceMapper, ResourceMapping } from './resource-mapper';

const NAMESPACE = 'kube-system';

/**
 * kops's PKI for an addon with `needsPKI` (channels/pkg/channels/addon.go, `installPKI`): a CA of its own,
 * kept in the Secret `kube-system/<addon>-ca` (`kubernetes.io/tls`), and a cert-manager `Issuer`
 * `kube-system/<addon>` signing with it, which the addon's Certificates name. The CA's key is made here, on
 * the control plane, and goes only into that Secret.
 */
export class AddonPki {
  constructor(
    private readonly client: KubeApiClient,
    private readonly mapper: ResourceMapper,
  ) {}

  /** kops's `IsPKIInstalled`: both the Secret and the Issuer exist (two reads, on every pass, as kops). */
  async installed(addon: string): Promise<boolean> {
    const secret = await this.client.request('GET', `/api/v1/namespaces/${NAMESPACE}/secrets/${encodeURIComponent(`${addon}-ca`)}`);
    if (secret.status === 404) return false;
    if (secret.status !== 200) throw new AddonApplyError(`addon ${addon}: reading Secret ${NAMESPACE}/${addon}-ca: ${secret.status} ${secret.body?.message ?? ''}`.trim());
    const issuers = await this.issuers(addon);
    const issuer = await this.client.request('GET', `${collectionPath(issuers, NAMESPACE)}/${encodeURIComponent(addon)}`);
    if (issuer.status === 404) return false;
    if (issuer.status !== 200) throw new AddonApplyError(`addon ${addon}: reading Issuer ${NAMESPACE}/${addon}: ${issuer.status} ${issuer.body?.message ?? ''}`.trim());
    return true;
  }

  /**
   * Creates the CA Secret and the Issuer, each create-only: one that exists already is kept (kops ignores
   * AlreadyExists), so a CA that signed certificates is never replaced.
   */
  async install(addon: string): Promise<void> {
    const ca = await issueKeypair({ subject: { commonName: addon }, usage: 'ca', validityMs: CA_VALIDITY_MS, dnsNames: [addon] });
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `${addon}-ca`, namespace: NAMESPACE },
      type: 'kubernetes.io/tls',
      stringData: { 'tls.crt': ca.certificatePem, 'tls.key': ca.privateKeyPem as string },
    };
    await this.create(addon, '/api/v1/namespaces/kube-system/secrets', secret, `Secret ${NAMESPACE}/${addon}-ca`);
    const issuer = { apiVersion: 'cert-manager.io/v1', kind: 'Issuer', metadata: { name: addon, namespace: NAMESPACE }, spec: { ca: { secretName: `${addon}-ca` } } };
    await this.create(addon, collectionPath(await this.issuers(addon), NAMESPACE), issuer, `Issuer ${NAMESPACE}/${addon}`);
  }

  private async issuers(addon: string): Promise<ResourceMapping> {
    const m = await this.mapper.forKind('cert-manager.io/v1', 'Issuer');
    if (!m) throw new AddonApplyError(`addon ${addon}: needsPKI wants a cert-manager Issuer, and the API server does not serve cert-manager.io/v1 Issuer (is cert-manager's addon applied?)`);
    return m;
  }

  private async create(addon: string, path: string, body: unknown, what: string): Promise<void> {
    const r = await this.client.request('POST', path, { query: { fieldManager: 'kforge' }, body });
    // The message of a refusal never echoes the answer (it may quote the body, which holds the key): status and reason only.
    if (r.status === 201 || (r.status === 409 && r.body?.reason === 'AlreadyExists')) return;
    throw new AddonApplyError(`addon ${addon}: creating ${what}: ${r.status} ${r.body?.reason ?? ''}`.trim());
  }
}
