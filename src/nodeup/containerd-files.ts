import type { NodeupConfig } from '../model/nodeup-config-builder';
import type { NodeFile } from './node-file';
import { NodeupConfigError } from './nodeup-config-error';

/** Where nodeup --assets puts containerd (node-assets.ts extracts the release tarball under /usr/local; found by test/e2e). */
const CONTAINERD_BINARY = '/usr/local/bin/containerd';

/**
 * containerd's files, as kops's ContainerdBuilder writes them: `/etc/containerd/config.toml` in the
 * version 2 format (read by containerd 1.6 and 2.x): the CRI plugin with the sandbox image from the
 * config's pause image, runc through the v2 shim with the systemd cgroup driver (kubelet runs
 * `--cgroup-driver=systemd`), the CNI directories; and the systemd unit.
 */
export function containerdFiles(config: NodeupConfig): NodeFile[] {
  const settings = config.containerdConfig as { logLevel?: unknown };
  const logLevel = typeof settings.logLevel === 'string' ? settings.logLevel : 'info';
  const toml = [
    '# Written by kforge nodeup from the nodeup config; changes are overwritten.',
    'version = 2',
    '',
    '[debug]',
    `  level = ${tomlString(logLevel, 'containerdConfig.logLevel')}`,
    '',
    '[plugins]',
    '  [plugins."io.containerd.grpc.v1.cri"]',
    `    sandbox_image = ${tomlString(config.Images.pause, 'Images.pause')}`,
    '    [plugins."io.containerd.grpc.v1.cri".cni]',
    '      bin_dir = "/opt/cni/bin/"',
    '      conf_dir = "/etc/cni/net.d/"',
    '    [plugins."io.containerd.grpc.v1.cri".containerd]',
    '      default_runtime_name = "runc"',
    '      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]',
    '        runtime_type = "io.containerd.runc.v2"',
    '        [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]',
    '          SystemdCgroup = true',
    '',
  ].join('\n');
  const unit = [
    '# Written by kforge nodeup; upstream containerd.service with kops\'s limits.',
    '[Unit]',
    'Description=containerd container runtime',
    'Documentation=https://containerd.io',
    'After=network.target local-fs.target',
    '',
    '[Service]',
    'ExecStartPre=-/sbin/modprobe overlay',
    `ExecStart=${CONTAINERD_BINARY} --config /etc/containerd/config.toml`,
    'Type=notify',
    'Delegate=yes',
    'KillMode=process',
    'Restart=always',
    'RestartSec=5',
    'LimitNPROC=infinity',
    'LimitCORE=infinity',
    'LimitNOFILE=1048576',
    'TasksMax=infinity',
    'OOMScoreAdjust=-999',
    '',
    '[Install]',
    'WantedBy=multi-user.target',
    '',
  ].join('\n');
  return [
    { path: '/etc/containerd/config.toml', mode: 0o644, content: toml },
    { path: '/etc/systemd/system/containerd.service', mode: 0o644, content: unit },
  ];
}

// Image references and log levels never need escapes; anything else is refused rather than quoted.
function tomlString(value: string, field: string): string {
  if (!/^[A-Za-z0-9._:/@+-]+$/.test(value)) throw new NodeupConfigError(`${field}: ${JSON.stringify(value)} is not a plain image reference or word`);
  return `"${value}"`;
}
