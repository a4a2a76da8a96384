import { NodeupConfigError } from './nodeup-config-error';

/**
 * A systemd `ExecStart=` value that starts exactly `argv`: every argument escaped for systemd's word
 * splitting (quotes, C escapes), specifiers (`%` → `%%`) and variable expansion (`$` → `$$`), one
 * argument per continued line. Control characters cannot be written in a unit and are refused.
 */
export function systemdExecLine(argv: string[]): string {
  return argv.map(systemdWord).join(' \\\n  ');
}

function systemdWord(arg: string): string {
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(arg)) throw new NodeupConfigError(`argument ${JSON.stringify(arg)} holds a control character, which a systemd unit cannot carry`);
  const escaped = arg.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%').replace(/\$/g, '$$$$');
  return arg === '' || /[\s"'\\;]/.test(arg) ? `"${escaped}"` : escaped;
}
