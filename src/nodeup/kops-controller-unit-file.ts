import type { NodeupConfig } from '../model/nodeup-config-builder';
import type { NodeFile } from './node-file';
import { NODEUP_BINARY } from './nodeup-unit-file';
import { BOOT_CONFIG_PATH } from './protokube-unit-file';
import { systemdExecLine } from './systemd-exec-line';

/**
 * `/etc/systemd/system/kforge-kops-controller.service` on control-plane machines only: runs the node-identity
 * service (`nodeup kops-controller`, docs/node-identity.md) from the nodeup artifact, as kops runs
 * kops-controller on its control plane. It needs the control plane's role (the state store's CAs, STS,
 * DescribeInstances), which workers do not have. Restart=always with no start limit, as protokube's unit:
 * without it no new worker gets a kubelet certificate.
 */
export function kopsControllerUnitFiles(config: NodeupConfig): NodeFile[] {
  if (config.InstanceGroupRole !== 'ControlPlane') return [];
  const content = [
    '# Written by kforge nodeup on control-plane machines; changes are overwritten.',
    '[Unit]',
    "Description=kforge kops-controller: issue each node its own kubelet certificate once the cloud vouches for it",
    'After=network-online.target kforge-nodeup.service',
    'Wants=network-online.target',
    'StartLimitIntervalSec=0',
    '',
    '[Service]',
    `ExecStart=${systemdExecLine([NODEUP_BINARY, 'kops-controller', `--conf=${BOOT_CONFIG_PATH}`])}`,
    'Restart=always',
    'RestartSec=3s',
    '',
    '[Install]',
    'WantedBy=multi-user.target',
    '',
  ].join('\n');
  return [{ path: '/etc/systemd/system/kforge-kops-controller.service', mode: 0o644, content }];
}
