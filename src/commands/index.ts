import ApproveNodeRequest from './approve/node-request';
import Completion from './completion';
import Create from './create/index';
import CreateCluster from './create/cluster';
import CreateInstanceGroup from './create/instancegroup';
import CreateKeypair from './create/keypair';
import CreateSshPublicKey from './create/sshpublickey';
import CreateStateStore from './create/state-store';
import DeleteCluster from './delete/cluster';
import DeleteInstanceGroup from './delete/instancegroup';
import DeleteSshPublicKey from './delete/sshpublickey';
import DenyNodeRequest from './deny/node-request';
import DistrustKeypair from './distrust/keypair';
import EditCluster from './edit/cluster';
import EditInstanceGroup from './edit/instancegroup';
import Get from './get/index';
import GetAll from './get/all';
import GetClusters from './get/clusters';
import ExportKubeconfig from './export/kubeconfig';
import GetInstances from './get/instances';
import GetInstanceGroups from './get/instancegroups';
import GetKeypairs from './get/keypairs';
import GetNodeRequests from './get/node-requests';
import GetNodeupConfig from './get/nodeup-config';
import GetSshPublicKeys from './get/sshpublickeys';
import KopsController from './kops-controller';
import Nodeup from './nodeup';
import PromoteKeypair from './promote/keypair';
import Protokube from './protokube';
import Replace from './replace';
import SetCluster from './set/cluster';
import SetInstanceGroup from './set/instancegroup';
import UnsetCluster from './unset/cluster';
import UnsetInstanceGroup from './unset/instancegroup';
import RollingUpdateCluster from './rolling-update/cluster';
import UpdateCluster from './update/cluster';
import ValidateCluster from './validate/cluster';

/** Every command, by oclif id (`:` separates topics); loaded at once, so commands import their logic lazily. */
export const COMMANDS = {
  'approve:node-request': ApproveNodeRequest,
  completion: Completion,
  create: Create,
  'create:cluster': CreateCluster,
  'create:instancegroup': CreateInstanceGroup,
  'create:keypair': CreateKeypair,
  'create:sshpublickey': CreateSshPublicKey,
  'create:state-store': CreateStateStore,
  'delete:cluster': DeleteCluster,
  'delete:instancegroup': DeleteInstanceGroup,
  'delete:sshpublickey': DeleteSshPublicKey,
  'deny:node-request': DenyNodeRequest,
  'distrust:keypair': DistrustKeypair,
  'edit:cluster': EditCluster,
  'edit:instancegroup': EditInstanceGroup,
  get: Get,
  'get:all': GetAll,
  'get:clusters': GetClusters,
  'export:kubeconfig': ExportKubeconfig,
  'get:instancegroups': GetInstanceGroups,
  'get:instances': GetInstances,
  'get:keypairs': GetKeypairs,
  'get:node-requests': GetNodeRequests,
  'get:nodeup-config': GetNodeupConfig,
  'get:sshpublickeys': GetSshPublicKeys,
  'kops-controller': KopsController,
  nodeup: Nodeup,
  'promote:keypair': PromoteKeypair,
  protokube: Protokube,
  replace: Replace,
  'set:cluster': SetCluster,
  'set:instancegroup': SetInstanceGroup,
  'unset:cluster': UnsetCluster,
  'unset:instancegroup': UnsetInstanceGroup,
  'rolling-update:cluster': RollingUpdateCluster,
  'update:cluster': UpdateCluster,
  'validate:cluster': ValidateCluster,
};
