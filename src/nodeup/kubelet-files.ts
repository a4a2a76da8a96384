import type { NodeupConfig } from '../model/nodeup-config-builder';
import { flagFilePath } from './flag-file-path';
import type { NodeFile } from './node-file';
import { NodeupConfigError } from './nodeup-config-error';
import { systemdExecLine } from './systemd-exec-line';

/**
 * kubelet's systemd unit (kops's KubeletBuilder): ExecStart is exactly the rendered argv of
 * `ComponentFlags.kubelet`, written into the unit itself rather than kops's /etc/sysconfig/kubelet, so
 * the unit alone says how kubelet starts. kubelet starts after containerd, and is restarted forever.
 */
export function kubeletFiles(config: NodeupConfig): NodeFile[] {
  const unit = [
    '# Written by kforge nodeup from ComponentFlags.kubelet of the nodeup config; changes are overwritten.',
    '[Unit]',
    'Description=Kubernetes Kubelet Server',
    'Documentation=https://github.com/kubernetes/kubernetes',
    'After=containerd.service',
    'Wants=containerd.service',
    'StartLimitIntervalSec=0',
    '',
    '[Service]',
    `ExecStart=${systemdExecLine(config.ComponentFlags.kubelet)}`,
    'Restart=always',
    'RestartSec=2s',
    'KillMode=process',
    'User=root',
    'CPUAccounting=true',
    'MemoryAccounting=true',
    '',
    '[Install]',
    'WantedBy=multi-user.target',
    '',
  ].join('\n');
  return [{ path: '/etc/systemd/system/kubelet.service', mode: 0o644, content: unit }, ...kubeletConfigFiles(config)];
}

/**
 * kubelet's KubeletConfiguration file (kops's /var/lib/kubelet/kubelet.conf), written at the path the argv's
 * `--config` names so the two cannot disagree. Either without the other is refused: kubelet would fail to
 * start on a missing file, or silently drop the file's settings.
 */
function kubeletConfigFiles(config: NodeupConfig): NodeFile[] {
  const configPath = flagFilePath(config, 'kubelet', 'config');
  const content = config.KubeletConfigFile;
  if (content === undefined && configPath === undefined) return [];
  if (content === undefined) throw new NodeupConfigError(`ComponentFlags.kubelet: names --config=${configPath}, but the nodeup config has no KubeletConfigFile to write there`);
  if (configPath === undefined) {
    throw new NodeupConfigError('KubeletConfigFile: is set, but ComponentFlags.kubelet has no --config=<absolute path> that names where kubelet reads it');
  }
  return [{ path: configPath, mode: 0o644, content }];
}

