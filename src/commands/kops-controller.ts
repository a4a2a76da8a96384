import { Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base-command';

/** `kforge kops-controller --conf FILE`: the node-identity service on a control-plane machine (kops's kops-controller bootstrap server). */
export default class KopsController extends BaseCommand {
  static override summary = 'Run on a control-plane machine: the node-identity service that issues each node its own kubelet certificate once the cloud (AWS or GCE) vouches for the node.';
  static override description =
    "Listens with TLS on port 3988 (kops's kops-controller port) with a serving certificate for kops-controller.internal.<cluster> from the kops-controller-ca keyset. A node POSTs /bootstrap with the public keys it made, the node name it claims, and a sts:GetCallerIdentity request signed with its instance role; the service executes that request itself, only against the STS endpoint of the cluster's region, and issues CN=system:node:<name>, O=system:nodes when AWS answers with an assumed role of one of this cluster's instance roles whose session is a running instance of the cluster, in a group of that role, whose private DNS name is the claimed name. On GCE the proof is Google's instance identity token for https://kops-controller.internal.<cluster>:3988, checked against Google's keys, of a RUNNING instance of one of the cluster's worker groups; the node name is the instance name. Every decision is one log line on stdout. Runs until stopped (kforge-kops-controller.service). See docs/node-identity.md.";
  static override examples = [
    '<%= config.bin %> kops-controller --conf /opt/kforge/conf/kube_env.yaml',
    '<%= config.bin %> kops-controller --conf kube_env.yaml --listen 127.0.0.1:3988 --sts-endpoint http://127.0.0.1:5000',
  ];
  static override flags = {
    conf: Flags.string({ description: 'The boot config file (kube_env.yaml) user-data writes on a control-plane machine', required: true }),
    listen: Flags.string({ description: 'Address and port to listen on', default: '0.0.0.0:3988' }),
    'sts-endpoint': Flags.string({ description: "The STS endpoint that executes nodes' signed requests. Default: https://sts.<cluster region>.amazonaws.com" }),
    'google-jwks-url': Flags.string({ description: "On GCE: where Google's public keys for instance identity tokens are read. Default: https://www.googleapis.com/oauth2/v3/certs" }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(KopsController);
    const { runKopsController } = await import('../node-identity/run-kops-controller');
    const { UsageError } = await import('../errors/usage-error');
    const m = /^(.*):(\d{1,5})$/.exec(flags.listen);
    if (!m || Number(m[2]) > 65535) throw new UsageError(`--listen: "${flags.listen}" is not ADDRESS:PORT (e.g. 0.0.0.0:3988)`);
    if (flags['sts-endpoint'] !== undefined && !/^https?:\/\/[^/]+\/?$/.test(flags['sts-endpoint'])) throw new UsageError(`--sts-endpoint: "${flags['sts-endpoint']}" is not an http(s) URL without a path`);
    if (flags['google-jwks-url'] !== undefined && !/^https?:\/\/[^/]+(\/\S*)?$/.test(flags['google-jwks-url'])) throw new UsageError(`--google-jwks-url: "${flags['google-jwks-url']}" is not an http(s) URL`);
    const server = await runKopsController({ conf: flags.conf, host: m[1], port: Number(m[2]), stsEndpoint: flags['sts-endpoint'], googleJwksUrl: flags['google-jwks-url'], log: (line) => this.log(line) });
    // Serve until systemd stops the unit.
    await new Promise<void>((resolve) => {
      const stop = (): void => void server.close().then(resolve);
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });
  }
}
