import { KforgeError } from '../../errors/kforge-error';

/** An instance group's image matches no AMI the account can see; names the group and the field. */
export class ImageNotFoundError extends KforgeError {
  constructor(
    readonly instanceGroup: string,
    readonly image: string,
  ) {
    super('IMAGE_NOT_FOUND', `InstanceGroup/${instanceGroup} spec.image: no image "${image}" is visible to this account in the cluster's region`);
  }
}
