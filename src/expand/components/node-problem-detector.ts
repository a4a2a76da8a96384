import type { ClusterSpec } from '../../api/types';
import images from '../assets/addon-images/node-problem-detector.json';

/** kops's NodeProblemDetectorOptionsBuilder: defaults only when the block is present (kops: pkg/model/components/nodeproblemdetector.go). */
export function expandNodeProblemDetector(spec: ClusterSpec): void {
  const npd = spec.nodeProblemDetector;
  if (!npd) return;
  const image = images['node-problem-detector'];
  npd.enabled ??= false;
  npd.cpuRequest ??= '20m';
  npd.memoryRequest ??= '100Mi';
  npd.memoryLimit ??= '100Mi';
  npd.image ??= `${image.image}:${image.tag}`;
}
