/**
 * Where kops's nodeup writes the cloud config (nodeup/pkg/model/cloudconfig.go CloudConfigFilePath): nodeup writes it
 * on a GCE control-plane machine, the gcp-cloud-controller addon mounts it and names it in `--cloud-config`.
 */
export const GCE_CLOUD_CONFIG_PATH = '/etc/kubernetes/cloud.config';
