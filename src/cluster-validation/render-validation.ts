import { renderTable } from '../cli/output';
import type { ValidationResult } from './validation-result';

/** The `-o json`/`-o yaml` object (schemas/validate-cluster-output.schema.json). */
export function validationOutput(result: ValidationResult, valid: boolean): Record<string, unknown> {
  return { cluster: result.cluster, valid, failures: result.failures, nodes: result.nodes };
}

/** The table form: nodes, then the failures, then the verdict, as kops prints it. */
export function renderValidationTable(result: ValidationResult, valid: boolean, note?: string): string {
  const parts: string[] = [`Validating cluster ${result.cluster}`, ''];
  parts.push('NODE STATUS');
  parts.push(renderTable(['NAME', 'ROLE', 'INSTANCE GROUP', 'READY'], result.nodes.map((n) => [n.name, n.role, n.instanceGroup ?? '', n.ready ? 'True' : n.status])).trimEnd());
  parts.push('');
  if (result.failures.length > 0) {
    parts.push('VALIDATION ERRORS');
    parts.push(renderTable(['KIND', 'NAME', 'MESSAGE', 'CAUSE'], result.failures.map((f) => [f.kind, f.name, f.message, f.cause ?? ''])).trimEnd());
    parts.push('');
  }
  parts.push(valid ? `Your cluster ${result.cluster} is ready` : `Validation failed${note ? `: ${note}` : ''}`);
  return `${parts.join('\n')}\n`;
}
