/** kops's default lifetime of an `--admin` credential (`kubeconfig.DefaultKubecfgAdminLifetime`). */
export const DEFAULT_ADMIN = '18h';

/**
 * The command line with a bare `--admin` given kops's default lifetime: kops's `--admin` takes an optional
 * value (`--admin` or `--admin=2h`), and an oclif string flag always needs one.
 */
export function withAdminDefault(argv: readonly string[]): string[] {
  return argv.map((a) => (a === '--admin' ? `--admin=${DEFAULT_ADMIN}` : a));
}
