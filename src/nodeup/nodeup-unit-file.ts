import type { NodeFile } from './node-file';
import { systemdExecLine } from './systemd-exec-line';

/** Where user-data installs the nodeup artifact (templates/nodeup-user-data.sh). */
export const NODEUP_BINARY = '/opt/kforge/bin/nodeup';

/**
 * `/etc/systemd/system/kforge-nodeup.service` (kops's kops-configuration.service): runs nodeup again at
 * every boot with the same boot config, so a rebooted machine brings its files up to date (and fetches a
 * nodeup config that changed, if its hash is still the one the machine was launched with). With `assets`
 * (the install run had `--assets`, as user-data's does) the boot run downloads and checks the assets too,
 * so an asset the config changed is fetched; cached ones cost nothing.
 */
export function nodeupUnitFile(confPath: string, options: { assets?: boolean } = {}): NodeFile {
  const content = [
    '# Written by kforge nodeup --install-systemd-unit; changes are overwritten.',
    '[Unit]',
    'Description=kforge nodeup: bring this machine to its instance group\'s node configuration',
    'After=network-online.target',
    'Wants=network-online.target',
    '',
    '[Service]',
    'Type=oneshot',
    `ExecStart=${systemdExecLine([NODEUP_BINARY, `--conf=${confPath}`, ...(options.assets ? ['--assets'] : [])])}`,
    '',
    '[Install]',
    'WantedBy=multi-user.target',
    '',
  ].join('\n');
  return { path: '/etc/systemd/system/kforge-nodeup.service', mode: 0o644, content };
}
