import { INPUT_LIMITS, formatBytes } from '../api/input-limits';
import type { NodeupConfig } from '../model/nodeup-config-builder';
import { readLimited } from '../util/read-limited';
import { NodeupConfigError } from './nodeup-config-error';
import { parseNodeupConfig } from './parse-nodeup-config';

/** Reads and parses a local nodeupconfig.yaml (the bare-metal `--conf FILE` path); errors name the file. */
export async function readNodeupConfigFile(file: string): Promise<NodeupConfig> {
  let read;
  try {
    read = await readLimited(file, INPUT_LIMITS.fileBytes);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'is a directory' : String(code ?? e);
    throw new NodeupConfigError(`--conf ${file}: cannot read: ${why}`);
  }
  if (read.truncated) throw new NodeupConfigError(`--conf ${file}: larger than ${formatBytes(INPUT_LIMITS.fileBytes)}; not a nodeup config`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
  } catch {
    throw new NodeupConfigError(`--conf ${file}: not UTF-8 text; not a nodeup config`);
  }
  return parseNodeupConfig(text, file);
}
