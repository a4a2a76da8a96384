import type { Image } from '@aws-sdk/client-ec2';

/** An instance group's `spec.image` split as kops does: an `ami-…` id, `<owner>/<name>` or a bare name. */
export interface ImageRef {
  id?: string;
  /** An account id (`099720109477`) or an owner alias (`amazon`). */
  owner?: string;
  name: string;
}

/** Splits an image reference; image names contain slashes themselves (`ubuntu/images/…`), so only a leading account id or alias is an owner. */
export function parseImageRef(ref: string): ImageRef {
  if (/^ami-[0-9a-f]+$/.test(ref)) return { id: ref, name: ref };
  const slash = ref.indexOf('/');
  if (slash > 0 && /^(\d{12}|amazon|aws-marketplace|self)$/.test(ref.slice(0, slash))) return { owner: ref.slice(0, slash), name: ref.slice(slash + 1) };
  return { name: ref };
}

/** The image among `images` that `ref` names; with several of one name (other owners, re-registrations), the newest. */
export function pickImage(images: readonly Image[], ref: string): Image | undefined {
  const r = parseImageRef(ref);
  return images
    .filter((i) => (r.id ? i.ImageId === r.id : i.Name === r.name && (!r.owner || i.OwnerId === r.owner || i.ImageOwnerAlias === r.owner)))
    .sort((a, b) => ((a.CreationDate ?? '') < (b.CreationDate ?? '') ? 1 : -1))[0];
}
