import { promises as fs } from 'node:fs';
import { UsageError } from '../errors/usage-error';

/** Reads a manifest named by -f (`-` is stdin); names the file in errors. */
export async function readInputFile(file: string): Promise<string> {
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    return await fs.readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'is a directory' : String(code ?? e);
    throw new UsageError(`-f ${file}: cannot read: ${why}`);
  }
}
