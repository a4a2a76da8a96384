import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AnyTask } from '../../tasks/task';
import { addKopsOutputs } from './kops-outputs';
import { TerraformWriter } from './terraform-writer';

/** What `--target terraform` produced: files by path relative to the output directory, and resource addresses. */
export interface TerraformOutput {
  /** `kubernetes.tf` and `data/<file>`, in sorted order. */
  files: Map<string, string>;
  /** Every resource address (`aws_vpc.x`), sorted. */
  resources: string[];
}

/**
 * The Terraform form of a cluster's tasks: every task renders itself (`renderTerraform`), then kops's
 * outputs and locals, the AWS provider for `region` and the required provider versions. Pure and
 * deterministic: the same tasks give the same bytes. Launch templates need their image resolved first.
 */
export function renderTerraformOutput(cluster: string, region: string, tasks: readonly AnyTask[]): TerraformOutput {
  const writer = new TerraformWriter(region);
  writer.renderTasks(tasks);
  addKopsOutputs(writer, cluster, region, tasks);
  return { files: writer.files(), resources: writer.addresses() };
}

/** Writes the output under `dir` (created if needed); each file is written whole, then renamed into place. */
export function writeTerraformOutput(dir: string, output: TerraformOutput): void {
  for (const [rel, content] of output.files) {
    const file = path.join(dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.tmp-${process.pid}`;
    fs.writeFileSync(tmp, content);
    fs.renameSync(tmp, file);
  }
}
