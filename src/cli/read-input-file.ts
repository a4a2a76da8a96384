import { decodeInput, INPUT_LIMITS } from '../api/input-limits';
import { UsageError } from '../errors/usage-error';
import { readLimited } from '../util/read-limited';

/**
 * Reads a manifest named by -f (`-` is stdin); names the file in errors. At most INPUT_LIMITS.fileBytes
 * are read, and the text must be UTF-8: both are refused with file and line (ValidationError).
 */
export async function readInputFile(file: string): Promise<string> {
  let read;
  try {
    read = await readLimited(file === '-' ? (process.stdin as AsyncIterable<Buffer>) : file, INPUT_LIMITS.fileBytes);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'is a directory' : String(code ?? e);
    throw new UsageError(`-f ${file}: cannot read: ${why}`);
  }
  return decodeInput(read.bytes, read.truncated, file);
}
