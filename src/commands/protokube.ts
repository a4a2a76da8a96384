import { Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base-command';

/** `kforge protokube --conf FILE`: claims this control-plane machine's etcd volumes and writes its etcd members. */
export default class Protokube extends BaseCommand {
  static override summary = "Run on a control-plane machine: claim its zone's etcd volumes, mount them, write the etcd static pods and publish the members' names.";
  static override description =
    'Reads the completed spec and the etcd CAs from the state store the boot config (kube_env.yaml) names. For each etcd cluster it attaches a free volume tagged for the cluster in its own zone (the cloud decides a race: a VolumeInUse answer is a lost claim), waits for the device, formats it only if it has no filesystem, mounts it at /mnt/master-<volume>, and writes the etcd static pod manifest with certificates issued on the machine. It then publishes the stable names (etcd-<member>.internal.<cluster>, api.internal.<cluster>) in Route 53 (AWS) or Cloud DNS (GCE, with api.<cluster> when the API has no load balancer) or, with DNS type none, in /etc/hosts. Last, it applies the bootstrap channel (addons/bootstrap-channel.yaml in the state store) to the local API server with server-side apply, addon by addon when its manifest hash changed, and prunes what an addon no longer renders. It loops (--interval) so that a replacement machine takes its volume back and changed addons are applied; --once runs one pass. See docs/protokube.md.';
  static override examples = [
    '<%= config.bin %> protokube --conf /opt/kforge/conf/kube_env.yaml',
    '<%= config.bin %> protokube --conf kube_env.yaml --once --root /tmp/node --instance-id i-0123 --zone us-east-1a --internal-ip 10.0.1.5',
  ];
  static override flags = {
    conf: Flags.string({ description: 'The boot config file (kube_env.yaml) user-data writes', required: true }),
    root: Flags.string({ description: 'The node filesystem root: files, mounts and /etc/hosts go under it', default: '/' }),
    once: Flags.boolean({ description: 'Run one pass and exit (errors exit non-zero)' }),
    interval: Flags.integer({ description: 'Seconds between passes when looping', default: 60, min: 1 }),
    'instance-id': Flags.string({ description: 'This machine’s instance id. Default: from EC2 instance metadata' }),
    zone: Flags.string({ description: 'This machine’s availability zone. Default: from EC2 instance metadata' }),
    'internal-ip': Flags.string({ description: 'This machine’s internal address. Default: from EC2 instance metadata (GCE: the metadata server)' }),
    'device-dir': Flags.string({ description: 'Where a volume’s device appears by id (nvme-Amazon_Elastic_Block_Store_vol…; GCE: google-<disk>)', default: '/dev/disk/by-id' }),
    dns: Flags.string({ description: 'Where names go. Default: the spec’s DNS type (the Route 53 or Cloud DNS zone spec.dnsZone, or /etc/hosts for none)', options: ['public', 'private', 'none'] }),
    'device-timeout': Flags.integer({ description: 'Seconds to wait for a device after the attach', default: 120, min: 1 }),
    kubeconfig: Flags.string({ description: 'The kubeconfig (under --root) the bootstrap channel is applied with', default: '/var/lib/kforge/kubeconfig' }),
    'api-wait': Flags.integer({ description: 'Seconds a pass retries while the API server is not up before leaving the addons to the next pass', default: 30, min: 0 }),
    output: Flags.string({ char: 'o', description: 'Output format of --once', options: ['text', 'json'], default: 'text' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Protokube);
    const { runProtokube, runProtokubeLoop, summarizeReport } = await import('../protokube/run-protokube');
    const { UsageError } = await import('../errors/usage-error');
    const net = await import('node:net');
    if (flags['internal-ip'] !== undefined && net.isIP(flags['internal-ip']) === 0) throw new UsageError(`--internal-ip: "${flags['internal-ip']}" is not an IP address`);
    if (flags.zone !== undefined && !/^[a-z]{2}(-[a-z]+)+-\d+[a-z]$/.test(flags.zone)) throw new UsageError(`--zone: "${flags.zone}" is not an AWS availability zone (e.g. us-east-1a)`);
    const options = {
      conf: flags.conf,
      root: flags.root,
      identity: { instanceId: flags['instance-id'], zone: flags.zone, internalIp: flags['internal-ip'] },
      deviceDir: flags['device-dir'],
      dns: flags.dns as 'public' | 'private' | 'none' | undefined,
      deviceTimeoutMs: flags['device-timeout'] * 1000,
      kubeconfig: flags.kubeconfig,
      apiWaitMs: flags['api-wait'] * 1000,
    };
    if (flags.once) {
      const report = await runProtokube(options);
      this.out(flags.output === 'json' ? JSON.stringify(report, null, 2) : summarizeReport(report));
      return;
    }
    await runProtokubeLoop(options, flags.interval * 1000, { report: (text) => this.out(text), failure: (text) => process.stderr.write(`${text}\n`) });
  }
}
