import { KforgeError } from '../../errors/kforge-error';

/** A launch template was rendered before its image was resolved to an AMI id (a pipeline bug: resolve images first). */
export class ImageNotResolvedError extends KforgeError {
  constructor(task: string) {
    super('IMAGE_NOT_RESOLVED', `${task}: the image was not resolved to an AMI id before rendering`);
  }
}
