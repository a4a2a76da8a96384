import type { Addon, AddonBuilder } from './addon';

/** kops's `limit-range.addons.k8s.io` (upup/models/cloudup/resources/addons/limit-range.addons.k8s.io/v1.5.0.yaml): a 100m CPU default request in `default`. Always rendered, as in kops. */
export const limitRangeAddon: AddonBuilder = (): Addon[] => [
  {
    name: 'limit-range.addons.k8s.io',
    manifestFile: 'v1.5.0.yaml',
    objects: [{ apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'limits', namespace: 'default' }, spec: { limits: [{ type: 'Container', defaultRequest: { cpu: '100m' } }] } }],
  },
];
