import Completion from './completion';
import Create from './create/index';
import CreateCluster from './create/cluster';
import CreateInstanceGroup from './create/instancegroup';
import DeleteCluster from './delete/cluster';
import DeleteInstanceGroup from './delete/instancegroup';
import EditCluster from './edit/cluster';
import EditInstanceGroup from './edit/instancegroup';
import GetClusters from './get/clusters';
import GetInstanceGroups from './get/instancegroups';
import Replace from './replace';

/** Every command, by oclif id (`:` separates topics); loaded at once, so commands import their logic lazily. */
export const COMMANDS = {
  completion: Completion,
  create: Create,
  'create:cluster': CreateCluster,
  'create:instancegroup': CreateInstanceGroup,
  'delete:cluster': DeleteCluster,
  'delete:instancegroup': DeleteInstanceGroup,
  'edit:cluster': EditCluster,
  'edit:instancegroup': EditInstanceGroup,
  'get:clusters': GetClusters,
  'get:instancegroups': GetInstanceGroups,
  replace: Replace,
};
