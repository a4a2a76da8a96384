import type { NodeupConfig } from '../model/nodeup-config-builder';
import type { NodeFile } from './node-file';
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
  return [{ path: '/etc/systemd/system/kubelet.service', mode: 0o644, content: unit }];
}

