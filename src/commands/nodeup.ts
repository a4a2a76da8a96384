import { Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base-command';

/** `kforge nodeup --conf FILE`: turns a nodeup config into the files of a node, under --root. */
export default class Nodeup extends BaseCommand {
  static override summary = 'Write the files of a node (containerd, kubelet, static pods, certificates, kubeconfigs, sysctls) from its nodeup config.';
  static override description =
    'Runs on the node (or against a directory with --root). Reads an instance group\'s nodeupconfig.yaml, as "update cluster" stores it under <cluster>/igconfig/<role>/<group>/, reads the node\'s keysets from the state store (the config\'s ConfigBase, or --state), and writes containerd\'s config and unit, kubelet\'s unit, the CA certificates, the certificates and keys the flags name (a control-plane node issues its own from the CAs), the kubeconfigs, the static pod manifests, /etc/hosts entries when the cluster has no DNS, and the kernel settings. Idempotent: files that already match are left alone, a certificate still good is kept, and a second run reports no changes. Each stage is recorded in /var/lib/kforge/nodeup-status.json and printed as "kforge-nodeup-stage: <stage>" on stderr and the console. It starts no service (see docs/nodeup.md).';
  static override examples = [
    '<%= config.bin %> nodeup --conf nodeupconfig.yaml',
    '<%= config.bin %> nodeup --conf nodeupconfig.yaml --state s3://my-state-store   # bare metal: where the keysets are',
    '<%= config.bin %> nodeup --conf nodeupconfig.yaml --root /tmp/node --dry-run',
    '<%= config.bin %> nodeup --conf nodeupconfig.yaml --root /tmp/node -o json',
    '<%= config.bin %> nodeup --conf /opt/kforge/conf/kube_env.yaml --install-systemd-unit   # as user-data runs it',
  ];
  static override flags = {
    conf: Flags.string({ description: 'The nodeup config file (nodeupconfig.yaml), or the boot config user-data writes', required: true }),
    root: Flags.string({ description: 'Install into this directory instead of /', default: '/' }),
    state: Flags.string({ description: "The state store holding the cluster's keysets (<state>/<cluster>/pki/private/); default: the config's ConfigBase" }),
    'dry-run': Flags.boolean({ description: 'List what would be written, write nothing' }),
    assets: Flags.boolean({
      description: "Also download the node's assets (kubelet, kubectl, containerd, runc, CNI plugins), check each sha256, and install them; a mismatch installs nothing",
    }),
    'install-systemd-unit': Flags.boolean({ description: 'Also install kforge-nodeup.service, which runs nodeup again at boot with the same --conf (user-data passes it)' }),
    output: Flags.string({ char: 'o', description: 'Output format', options: ['text', 'json'], default: 'text' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Nodeup);
    const { recordStage } = await import('../nodeup/nodeup-stage');
    const sinks = { root: flags.root, dryRun: flags['dry-run'], console: process.env.KFORGE_NODEUP_CONSOLE || undefined } as Parameters<typeof recordStage>[1];
    try {
      await this.nodeup(flags, (stage) => recordStage(stage, sinks), (cluster, group) => Object.assign(sinks, { cluster, instanceGroup: group }));
    } catch (e) {
      const { KforgeError } = await import('../errors/kforge-error');
      try {
        recordStage(`failed: ${e instanceof KforgeError ? e.code : 'INTERNAL'}`, sinks);
      } catch {
        // The status file's own path escapes the root: the error being reported already says so, or says more.
      }
      throw e;
    }
  }

  private async nodeup(
    flags: { conf: string; root: string; state?: string; 'dry-run': boolean; assets: boolean; 'install-systemd-unit': boolean; output: string },
    stage: (s: import('../nodeup/nodeup-stage').NodeupStage) => void,
    identify: (cluster: string, group: string) => void,
  ): Promise<void> {
    const { readNodeupConfigFile } = await import('../nodeup/read-nodeup-config-file');
    const { renderNodeFiles } = await import('../nodeup/render-node-files');
    const { applyNodeFiles } = await import('../nodeup/apply-node-files');
    const { fetchNodeKeysets } = await import('../nodeup/node-keysets');
    const { issueNodeCertificates } = await import('../nodeup/node-certificates');
    const { readEtcHosts } = await import('../nodeup/read-etc-hosts');
    let gce: import('../cloud/gce/gce-instance-identity').GceInstanceIdentity | undefined;
    const config = await readNodeupConfigFile(flags.conf, async (boot) => {
      if (boot.CloudProvider !== 'gce') return;
      // On GCE the instance's identity and the state store's token come from the metadata server.
      const { readGceInstanceIdentity } = await import('../cloud/gce/gce-instance-identity');
      const { checkGceNodeIdentity } = await import('../nodeup/gce-node');
      process.env.METADATA_SERVER_DETECTION ||= 'assume-present';
      gce = await readGceInstanceIdentity();
      checkGceNodeIdentity(boot, gce, `--conf ${flags.conf}`);
    });
    identify(config.ClusterName, config.InstanceGroupName);
    stage('config-fetched');
    const keysets = await fetchNodeKeysets(config, { state: flags.state });
    stage('keysets-read');
    // Assets first: every download is checked before anything, file or binary, is installed.
    let assets: Array<{ file: string; target: string; action: string }> = [];
    if (flags.assets && !flags['dry-run']) {
      const { nodeAssets } = await import('../nodeup/node-assets');
      const { installAssets } = await import('../nodeup/install-assets');
      const arch = process.arch === 'arm64' ? 'arm64' : 'amd64';
      assets = await installAssets(nodeAssets(config.Assets, arch), flags.root, { backoffMs: Number(process.env.KFORGE_TEST_ASSET_BACKOFF_MS) || undefined });
      stage('assets-installed');
    }
    const { kubeletNodeName } = await import('../nodeup/kubelet-node-name');
    const os = await import('node:os');
    // The machine's hostname is read here, so the renderer and the certificate requests stay pure.
    const nodeName = kubeletNodeName(config, gce ? (await import('../nodeup/gce-node')).gceNodeName(gce) : os.hostname());
    const { usesNodeIdentityService, obtainNodeIdentityCertificates } = await import('../nodeup/node-identity-certificates');
    let certificates;
    if (usesNodeIdentityService(config) && !flags['dry-run']) {
      const { requestNodeCertificates } = await import('../node-identity/request-node-certificates');
      const server = config.ConfigServer as NonNullable<typeof config.ConfigServer>;
      // The proof is the cloud's: a signed STS request on AWS, Google's instance identity token on GCE.
      const options = { cluster: config.ClusterName, servers: server.Servers, caCertificates: server.CACertificates, region: server.Region, cloud: gce ? 'gce' : 'aws' };
      // spec.nodeIdentity.mode Approval: no cloud proof; the request waits for "kforge approve node-request".
      const approval = server.Approval ? await import('../nodeup/approval-requester') : undefined;
      const requester = approval?.approvalRequester(config, approval.noticeWriter(flags.root));
      certificates = await obtainNodeIdentityCertificates(config, flags.root, nodeName, requester ?? ((name, keys) => requestNodeCertificates(name, keys, options)));
      stage('certificates-issued');
    } else certificates = await issueNodeCertificates(config, keysets, flags.root, nodeName);
    const files = renderNodeFiles(config, { source: flags.conf, pki: { keysets, certificates }, etcHosts: readEtcHosts(flags.root) });
    if (flags['install-systemd-unit']) {
      const { nodeupUnitFile } = await import('../nodeup/nodeup-unit-file');
      const path = await import('node:path');
      files.push(nodeupUnitFile(path.resolve(flags.conf), { assets: flags.assets }));
    }
    const report = applyNodeFiles(files, flags.root, { dryRun: flags['dry-run'] });
    stage('files-written');
    stage('done');
    const summary = { cluster: config.ClusterName, instanceGroup: config.InstanceGroupName, role: config.InstanceGroupRole, ...(gce ? { node: { name: nodeName, zone: gce.zone, project: gce.project, internalIp: gce.internalIp } } : {}), ...report, assets };
    if (flags.output === 'json') {
      this.out(JSON.stringify(summary, null, 2));
      return;
    }
    const verb = (a: string) => (report.dryRun ? { created: 'would create', changed: 'would change', unchanged: 'unchanged' }[a] : a) as string;
    const lines = [`nodeup: instance group ${config.InstanceGroupName} (${config.InstanceGroupRole}) of cluster ${config.ClusterName}, root ${report.root}${report.dryRun ? ' (dry run: nothing written)' : ''}`];
    for (const a of assets) if (a.action !== 'unchanged') lines.push(`  ${'installed'.padEnd(12)} ${a.file} -> ${a.target}`);
    for (const f of report.files) if (f.action !== 'unchanged') lines.push(`  ${verb(f.action).padEnd(12)} ${f.mode} ${f.path}`);
    lines.push(
      report.created + report.changed === 0 && assets.every((a) => a.action === 'unchanged')
        ? `No changes: ${report.unchanged} files up to date.`
        : `${report.files.length} files: ${report.created} ${verb('created')}, ${report.changed} ${verb('changed')}, ${report.unchanged} unchanged.`,
    );
    this.out(lines.join('\n'));
  }
}
