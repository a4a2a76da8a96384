import { NotUpdatedError } from '../errors/not-updated-error';

/**
 * Refuses a keypair command on a keyset that does not exist yet (`missing` names it; undefined: all
 * there): as in kops, a cluster's keysets are created by its first update, not by create.
 */
export function requireKeysets(cluster: string, missing: string | undefined): void {
  if (missing === undefined) return;
  throw new NotUpdatedError(`cluster "${cluster}" has no ${missing} yet: its PKI is created by the first update; run "kforge update cluster ${cluster} --yes" first`);
}
