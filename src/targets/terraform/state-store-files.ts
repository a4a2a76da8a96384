import type { ManagedFileChange, ManagedFilesPlan } from '../../ops/plan-managed-files';

/** One state-store object of a `--target terraform` run: what the run did to it, and who owns it from now on. */
export interface StateStoreFile {
  /** `Keypair` (by keyset name) or `ManagedFile` (by path in the store, or URL for a discovery document). */
  type: 'Keypair' | 'ManagedFile';
  name: string;
  /** What kforge did to it in this run; `none` when it was already up to date. */
  action: ManagedFileChange['action'];
  /**
   * Who writes it: `kforge` (this command, at once) or `terraform` (a resource of kubernetes.tf, at `terraform
   * apply`). kforge renders no state-store object as Terraform (no `aws_s3_object`), so every one is `kforge`'s:
   * the user-data in the output names nodeup configs that must exist before Terraform launches anything.
   */
  owner: 'kforge' | 'terraform';
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The state-store objects of a `--target terraform` run, each marked with its owner: the keysets it created,
 * the completed spec and nodeup configs, and the OIDC discovery documents, sorted by type then name.
 */
export function stateStoreFiles(managed: ManagedFilesPlan, discoveryFiles: readonly ManagedFileChange[]): StateStoreFile[] {
  const owner = 'kforge' as const;
  return [
    ...managed.keysetsToCreate.map((name): StateStoreFile => ({ type: 'Keypair', name, action: 'create', owner })),
    ...[...managed.files, ...discoveryFiles].map((f): StateStoreFile => ({ type: 'ManagedFile', name: f.path, action: f.action, owner })),
  ].sort((a, b) => (a.type === b.type ? cmp(a.name, b.name) : cmp(a.type, b.type)));
}

const DONE: Record<StateStoreFile['action'], string> = { create: 'created', update: 'updated', delete: 'deleted', none: 'unchanged' };

/**
 * The text summary: every state-store object with what kforge did and its owner, then one line saying
 * which objects Terraform will own (none, today), so nobody expects `terraform destroy` to remove them.
 */
export function renderStateStoreFiles(files: readonly StateStoreFile[]): string {
  const width = Math.max(0, ...files.map((f) => `${f.type} ${f.name}`.length));
  const lines = files.map((f) => `  ${`${f.type} ${f.name}`.padEnd(width)}  ${DONE[f.action].padEnd(9)}  owner: ${f.owner}`);
  const terraform = files.filter((f) => f.owner === 'terraform');
  const kforge = files.filter((f) => f.owner === 'kforge' && f.action !== 'none').length;
  return [
    `State store: kforge wrote ${kforge} of these ${files.length} objects itself; ${terraform.length === 0 ? 'Terraform will own none of them (kubernetes.tf has no state-store resource)' : `Terraform will own ${terraform.length} (written at terraform apply)`}:`,
    ...lines,
    '',
  ].join('\n');
}
