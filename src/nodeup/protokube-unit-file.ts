import type { NodeupConfig } from '../model/nodeup-config-builder';
import type { NodeFile } from './node-file';
import { NODEUP_BINARY } from './nodeup-unit-file';
import { systemdExecLine } from './systemd-exec-line';

/** Where user-data writes the boot config (templates/nodeup-user-data.sh), which protokube reads. */
export const BOOT_CONFIG_PATH = '/opt/kforge/conf/kube_env.yaml';

/**
 * `/etc/systemd/system/kforge-protokube.service` on control-plane machines only (kops's protokube.service):
 * runs `kforge protokube` from the nodeup artifact, which carries both commands, so the machine claims its
 * etcd volumes and writes its etcd members. The boot config's path is fixed because user-data always
 * writes it there, and the nodeup config (which is what this renderer sees) does not know where it is.
 * protokube loops on its own; Restart=always with no start limit brings it back after a crash, as kops's
 * unit does, since a control plane without it never gets etcd.
 */
export function protokubeUnitFiles(config: NodeupConfig): NodeFile[] {
  // APIServer machines hold no etcd member (protokube refuses their boot config), workers none either.
  if (config.InstanceGroupRole !== 'ControlPlane') return [];
  const content = [
    '# Written by kforge nodeup on control-plane machines; changes are overwritten.',
    '[Unit]',
    'Description=kforge protokube: claim this machine\'s etcd volumes and write its etcd members',
    // After nodeup's boot run (a oneshot), so certificates and the hosts file are current first.
    'After=network-online.target containerd.service kforge-nodeup.service',
    'Wants=network-online.target',
    'StartLimitIntervalSec=0',
    '',
    '[Service]',
    `ExecStart=${systemdExecLine([NODEUP_BINARY, 'protokube', `--conf=${BOOT_CONFIG_PATH}`])}`,
    'Restart=always',
    'RestartSec=3s',
    '',
    '[Install]',
    'WantedBy=multi-user.target',
    '',
  ].join('\n');
  return [{ path: '/etc/systemd/system/kforge-protokube.service', mode: 0o644, content }];
}
