import type { AddonBuilder } from './addon';
import { buildNodeTerminationHandlerAddon } from './node-termination-handler-addon';

/**
 * Every addon builder, in the order kops lists its channel entries. Each helper module adds its builder here;
 * the channel is assembled from their results in this order.
 */
export const ADDON_BUILDERS: AddonBuilder[] = [
  buildNodeTerminationHandlerAddon,
];
