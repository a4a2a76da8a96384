import type { NodeupConfig } from '../model/nodeup-config-builder';
import type { NodeFile } from './node-file';

// kops's SysctlBuilder (nodeup/pkg/model/sysctls.go): common settings, then what kubelet's
// --protect-kernel-defaults requires, then forwarding for pod traffic.
const COMMON = [
  '# Kubernetes Settings',
  '',
  'vm.max_map_count = 262144',
  '',
  'kernel.softlockup_panic = 1',
  'kernel.softlockup_all_cpu_backtrace = 1',
  '',
  '# Increase the number of connections',
  'net.core.somaxconn = 65535',
  '',
  '# Maximum Socket Receive Buffer',
  'net.core.rmem_max = 16777216',
  '',
  '# Default Socket Send Buffer',
  'net.core.wmem_max = 16777216',
  '',
  '# Tell kernel how long to keep sockets in the state FIN-WAIT-2',
  'net.ipv4.tcp_fin_timeout = 15',
  '',
  '# Enable TCP window scaling',
  'net.ipv4.tcp_window_scaling = 1',
  '',
  '# Increase the maximum total buffer-space allocatable',
  'net.ipv4.tcp_wmem = 4096 12582912 16777216',
  'net.ipv4.tcp_rmem = 4096 12582912 16777216',
  '',
  '# Increase the number of outstanding syn requests allowed',
  'net.ipv4.tcp_max_syn_backlog = 3240000',
  '',
  '# Increase the maximal number of timewait sockets held by system simultaneously',
  'net.ipv4.tcp_max_tw_buckets = 1440000',
  '',
  '# For persistent HTTP connections',
  'net.ipv4.tcp_slow_start_after_idle = 0',
  '',
  '# Increase the tcp-time-wait buckets pool size to prevent simple DOS attacks',
  'net.ipv4.tcp_tw_reuse = 1',
  '',
  '# Max number of packets that can be queued on interface input',
  '# If kernel is receiving packets faster than can be processed',
  '# this queue increases',
  'net.core.netdev_max_backlog = 16384',
  '',
  '# Increase size of file handles and inode cache',
  'fs.file-max = 2097152',
  '',
  '# Max number of inotify instances and watches for a user',
  '# Since dockerd runs as a single user, the default instances value of 128 per user is too low',
  '# e.g. uses of inotify: nginx ingress controller, kubectl logs -f',
  'fs.inotify.max_user_instances = 8192',
  'fs.inotify.max_user_watches = 524288',
  '',
];
const PROTECT_KERNEL_DEFAULTS = ['# Settings kubelet --protect-kernel-defaults requires', 'vm.overcommit_memory = 1', 'kernel.panic = 10', 'kernel.panic_on_oops = 1', ''];
const FORWARDING = ['# Pod traffic is routed through the node', 'net.ipv4.ip_forward = 1', ''];

/**
 * The kernel settings of a node: `/etc/sysctl.d/99-k8s-general.conf` with kops's values (plus those
 * kubelet's --protect-kernel-defaults checks, when set), and `/etc/modules-load.d/k8s.conf` loading
 * overlay (containerd's snapshotter) and br_netfilter (bridged pod traffic through iptables).
 */
export function kernelSettingsFiles(config: NodeupConfig): NodeFile[] {
  const protect = config.ComponentFlags.kubelet.includes('--protect-kernel-defaults=true');
  const sysctls = [...COMMON, ...(protect ? PROTECT_KERNEL_DEFAULTS : []), ...FORWARDING].join('\n');
  return [
    { path: '/etc/sysctl.d/99-k8s-general.conf', mode: 0o644, content: sysctls },
    { path: '/etc/modules-load.d/k8s.conf', mode: 0o644, content: 'overlay\nbr_netfilter\n' },
  ];
}
