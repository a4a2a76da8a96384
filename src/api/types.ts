// The API types are generated from schemas/ (npm run generate); this file names the ones kforge uses.
export type {
  Cluster,
  ClusterSpec,
  ClusterSubnetSpec,
  EtcdClusterSpec,
  EtcdMemberSpec,
  InstanceGroup,
  InstanceGroupSpec,
  KubeletConfigSpec,
  RollingUpdate,
  UserData,
} from './generated/types';
