import type { AddonBuilder } from './addon';
import { metricsServerAddon } from './metrics-server-addon';
import { nodeProblemDetectorAddon } from './node-problem-detector-addon';
import { buildNodeTerminationHandlerAddon } from './node-termination-handler-addon';

/**
 * Every addon builder, in the order kops lists its channel entries. Each helper module adds its builder here;
 * the channel is assembled from their results in this order.
 */
export const ADDON_BUILDERS: AddonBuilder[] = [
  metricsServerAddon,
  nodeProblemDetectorAddon,
  buildNodeTerminationHandlerAddon,
];
