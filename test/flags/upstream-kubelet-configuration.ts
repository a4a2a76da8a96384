/**
 * Top-level fields of upstream KubeletConfiguration (kubelet.config.k8s.io/v1beta1), the JSON names of
 * the struct in kubernetes/kubernetes staging/src/k8s.io/kubelet/config/v1beta1/types.go (commit
 * 001332b0422071acf4860769f18e34b5e9b7c1bc, read with the search tool; no kubelet or Go toolchain is
 * installable offline here to ask kubelet itself). apiVersion and kind come from metav1.TypeMeta.
 */
export const KUBELET_CONFIGURATION_FIELDS: ReadonlySet<string> = new Set([
  'apiVersion', 'kind',
  'enableServer', 'staticPodPath', 'podLogsDir', 'syncFrequency', 'fileCheckFrequency', 'httpCheckFrequency', 'staticPodURL',
  'staticPodURLHeader', 'address', 'port', 'readOnlyPort', 'tlsCertFile', 'tlsPrivateKeyFile', 'tlsCipherSuites', 'tlsCurvePreferences',
  'tlsMinVersion', 'rotateCertificates', 'serverTLSBootstrap', 'authentication', 'authorization', 'registryPullQPS', 'registryBurst',
  'imagePullCredentialsVerificationPolicy', 'preloadedImagesVerificationAllowlist', 'eventRecordQPS', 'eventBurst',
  'enableDebuggingHandlers', 'enableContentionProfiling', 'healthzPort', 'healthzBindAddress', 'oomScoreAdj', 'clusterDomain',
  'clusterDNS', 'streamingConnectionIdleTimeout', 'nodeStatusUpdateFrequency', 'nodeStatusReportFrequency', 'nodeLeaseDurationSeconds',
  'imageMinimumGCAge', 'imageMaximumGCAge', 'imageGCHighThresholdPercent', 'imageGCLowThresholdPercent', 'volumeStatsAggPeriod',
  'kubeletCgroups', 'systemCgroups', 'cgroupRoot', 'cgroupsPerQOS', 'cgroupDriver', 'cpuManagerPolicy', 'singleProcessOOMKill',
  'cpuManagerPolicyOptions', 'cpuManagerReconcilePeriod', 'draManagerReconcilePeriod', 'memoryManagerPolicy', 'topologyManagerPolicy',
  'topologyManagerScope', 'topologyManagerPolicyOptions', 'qosReserved', 'runtimeRequestTimeout', 'hairpinMode', 'maxPods', 'podCIDR',
  'podPidsLimit', 'resolvConf', 'runOnce', 'cpuCFSQuota', 'cpuCFSQuotaPeriod', 'nodeStatusMaxImages', 'maxOpenFiles', 'contentType',
  'kubeAPIQPS', 'kubeAPIBurst', 'serializeImagePulls', 'maxParallelImagePulls', 'evictionHard', 'evictionSoft', 'evictionSoftGracePeriod',
  'evictionPressureTransitionPeriod', 'evictionMaxPodGracePeriod', 'evictionMinimumReclaim', 'mergeDefaultEvictionSettings',
  'podsPerCore', 'enableControllerAttachDetach', 'protectKernelDefaults', 'makeIPTablesUtilChains', 'iptablesMasqueradeBit',
  'iptablesDropBit', 'featureGates', 'failSwapOn', 'memorySwap', 'containerLogMaxSize', 'containerLogMaxFiles', 'containerLogMaxWorkers',
  'containerLogMonitorInterval', 'configMapAndSecretChangeDetectionStrategy', 'systemReserved', 'kubeReserved', 'reservedSystemCPUs',
  'showHiddenMetricsForVersion', 'systemReservedCgroup', 'kubeReservedCgroup', 'enforceNodeAllocatable', 'allowedUnsafeSysctls',
  'volumePluginDir', 'providerID', 'kernelMemcgNotification', 'logging', 'enableSystemLogHandler', 'enableSystemLogQuery',
  'shutdownGracePeriod', 'shutdownGracePeriodCriticalPods', 'shutdownGracePeriodByPodPriority', 'crashLoopBackOff', 'reservedMemory',
  'enableProfilingHandler', 'enableDebugFlagsHandler', 'seccompDefault', 'memoryThrottlingFactor', 'memoryReservationPolicy',
  'registerWithTaints', 'registerNode', 'tracing', 'localStorageCapacityIsolation', 'containerRuntimeEndpoint', 'imageServiceEndpoint',
  'failCgroupV1', 'userNamespaces',
]);

/** The top-level fields of the same struct whose type is metav1.Duration (a Go duration string in YAML). */
export const KUBELET_CONFIGURATION_DURATIONS: ReadonlySet<string> = new Set([
  'syncFrequency', 'fileCheckFrequency', 'httpCheckFrequency', 'streamingConnectionIdleTimeout', 'nodeStatusUpdateFrequency',
  'nodeStatusReportFrequency', 'imageMinimumGCAge', 'imageMaximumGCAge', 'volumeStatsAggPeriod', 'cpuManagerReconcilePeriod',
  'draManagerReconcilePeriod', 'runtimeRequestTimeout', 'cpuCFSQuotaPeriod', 'evictionPressureTransitionPeriod',
  'containerLogMonitorInterval', 'shutdownGracePeriod', 'shutdownGracePeriodCriticalPods',
]);

const UNIT_NS: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/**
 * Go's time.ParseDuration (what metav1.Duration's UnmarshalJSON calls), in nanoseconds: an optional sign,
 * then "0" or one or more decimal numbers each with a unit (ns, us, µs, ms, s, m, h). Undefined when Go
 * would refuse the string.
 */
export function parseGoDuration(text: string): number | undefined {
  const m = /^([-+]?)(.*)$/s.exec(text) as RegExpExecArray;
  const sign = m[1] === '-' ? -1 : 1;
  const rest = m[2] as string;
  if (rest === '0') return 0;
  if (rest === '') return undefined;
  const part = /(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;
  let total = 0;
  let at = 0;
  while (at < rest.length) {
    part.lastIndex = at;
    const p = part.exec(rest);
    if (!p) return undefined;
    total += Number(p[1]) * (UNIT_NS[p[2] as string] as number);
    at = part.lastIndex;
  }
  return sign * total;
}
