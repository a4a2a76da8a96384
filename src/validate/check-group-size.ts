import type { InstanceGroup } from '../api/types';
import type { FieldError } from '../errors/field-error';

/**
 * The most instances one instance group may ask for (spec.minSize, spec.maxSize) unless it opts in. 1000
 * is far above what a group of a working cluster needs (Kubernetes is tested up to 5000 nodes in all) and
 * above new AWS accounts' default quotas (On-Demand vCPUs), yet a slip of the keyboard (100000 for 10)
 * lands above it and never reaches CreateAutoScalingGroup.
 */
export const MAX_GROUP_SIZE = 1000;

/** The annotation that lets one instance group go above MAX_GROUP_SIZE: `"true"` means the size is meant. */
export const ALLOW_LARGE_GROUP_ANNOTATION = 'kforge.dev/allow-large-instance-group';

/** Sizes above MAX_GROUP_SIZE in a group without the opt-in annotation, one error per field. */
export function checkGroupSize(ig: InstanceGroup): FieldError[] {
  if (ig.metadata.annotations?.[ALLOW_LARGE_GROUP_ANNOTATION] === 'true') return [];
  const object = `InstanceGroup/${ig.metadata.name}`;
  const fields = [
    ['spec.minSize', ig.spec.minSize],
    ['spec.maxSize', ig.spec.maxSize],
  ] as const;
  return fields
    .filter(([, size]) => typeof size === 'number' && size > MAX_GROUP_SIZE)
    .map(([path, size]) => ({
      object,
      path,
      message:
        `${size} instances is above the bound of ${MAX_GROUP_SIZE} per instance group, which guards against a mistyped size; ` +
        `if you mean it, set metadata.annotations["${ALLOW_LARGE_GROUP_ANNOTATION}"]: "true" on the group`,
    }));
}
