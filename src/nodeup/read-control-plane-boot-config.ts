import * as fs from 'node:fs';
import { UsageError } from '../errors/usage-error';
import { BootConfig, parseBootConfig } from './boot-config';

/**
 * The boot config (`--conf`, kube_env.yaml) of a program that runs on AWS control-plane machines only
 * (protokube, the node-identity service): refused with one line naming the file and why otherwise.
 * `why` completes "CloudProvider is X; …" (e.g. "protokube supports aws only"); `clouds` are the ones it runs on.
 */
export function readControlPlaneBootConfig(file: string, program: string, why: string, clouds: readonly string[] = ['aws']): BootConfig & { ConfigBase: string } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`--conf ${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  const boot = parseBootConfig(text);
  if (!boot) throw new UsageError(`--conf ${file}: not a boot config (kube_env.yaml with CloudProvider, ClusterName, ConfigBase, InstanceGroupName, InstanceGroupRole, NodeupConfigHash)`);
  if (!['ControlPlane', 'Master'].includes(boot.InstanceGroupRole)) {
    throw new UsageError(`--conf ${file}: InstanceGroupRole is ${boot.InstanceGroupRole}; ${program} runs on control-plane machines only`);
  }
  if (!clouds.includes(boot.CloudProvider)) throw new UsageError(`--conf ${file}: CloudProvider is ${boot.CloudProvider}; ${why}`);
  // The control plane reads the store with its own role; only workers get their config from the service.
  if (boot.ConfigBase === undefined) throw new UsageError(`--conf ${file}: no ConfigBase; ${program} reads the state store, which a control-plane boot config names`);
  return { ...boot, ConfigBase: boot.ConfigBase };
}
