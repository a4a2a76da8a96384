import { promises as fs, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { decodeInput, INPUT_LIMITS } from '../api/input-limits';
import { formatFieldError } from '../errors/field-error';
import { KforgeError } from '../errors/kforge-error';
import { ValidationError } from '../errors/validation-error';
import { runInForeground } from '../util/foreground-child';
import { readLimited } from '../util/read-limited';

/** How an edit session ended. */
export type EditOutcome = { status: 'saved'; text: string } | { status: 'unchanged' };

/** Validates and saves edited text; throws ValidationError to send the user back to the editor. */
export type EditApply = (text: string) => Promise<void>;

const HEADER = [
  '# Please edit the object below. Lines beginning with a "#" will be ignored,',
  '# and an empty file will abort the edit. If an error occurs while saving this file will be',
  '# reopened with the relevant failures.',
  '#',
];

/** The editor command: $KUBE_EDITOR, then $EDITOR, then vi (kubectl's and kops's order). */
export function editorCommand(env: NodeJS.ProcessEnv = process.env): string {
  return env.KUBE_EDITOR || env.EDITOR || 'vi';
}

/**
 * kubectl-style edit loop: open the text in the user's editor; on invalid input reopen it with the
 * errors in a comment header above the user's own text; only a valid result is applied. Unchanged
 * text cancels. Errors from `apply` other than ValidationError end the loop (nothing is saved). A signal
 * (SIGINT, SIGTERM, SIGHUP) ends the editor and the edit; the temporary directory is removed however
 * kforge ends, even by process.exit from another signal handler.
 */
export async function editLoop(initial: string, apply: EditApply, env: NodeJS.ProcessEnv = process.env): Promise<EditOutcome> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kforge-edit-'));
  const file = path.join(dir, 'edit.yaml');
  let content = [...HEADER, initial].join('\n');
  let previousFailed: string | undefined;
  let lastErrors: string[] = [];
  // The rejected text is kept on disk when the edit is cancelled, so the user's work is not lost.
  let keepFile = false;
  const removeOnExit = () => {
    if (!keepFile) rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', removeOnExit);
  try {
    for (;;) {
      await fs.writeFile(file, content, { mode: 0o600 });
      // `exec`: the editor replaces the shell, so a signal passed on to the child reaches the editor itself.
      const r = await runInForeground('sh', ['-c', `exec ${editorCommand(env)} "$1"`, 'kforge-editor', file], { env });
      if (r.error) throw new KforgeError('EDITOR_FAILED', `cannot start editor "${editorCommand(env)}": ${r.error.message}`);
      if (r.signal) throw new KforgeError('INTERRUPTED', `edit interrupted by ${r.signal}; no changes made`, 128 + (os.constants.signals[r.signal] ?? 0));
      if (r.status !== 0) throw new KforgeError('EDITOR_FAILED', `editor "${editorCommand(env)}" exited with status ${r.status}; no changes made`);
      const edited = stripComments(await readEdited(file, () => (keepFile = true)));
      if (edited.trim() === '') throw new KforgeError('EDIT_CANCELLED', 'Edit cancelled: saved file was empty');
      if (previousFailed !== undefined && edited === previousFailed) {
        keepFile = true;
        throw new KforgeError(
          'EDIT_CANCELLED',
          `Edit cancelled: no valid changes were saved (edited file kept at ${file}). The file had these errors:\n${lastErrors.map((l) => `  ${l}`).join('\n')}`,
        );
      }
      if (edited === stripComments(initial)) return { status: 'unchanged' };
      try {
        await apply(edited);
        return { status: 'saved', text: edited };
      } catch (e) {
        if (!(e instanceof ValidationError)) throw e;
        previousFailed = edited;
        lastErrors = e.errors.map((fe) => formatFieldError({ ...fe, file: undefined }));
        const errs = lastErrors.map((l) => `#   ${l}`);
        content = [...HEADER, '# The edited file had the following errors:', ...errs, '#', edited].join('\n');
      }
    }
  } finally {
    process.removeListener('exit', removeOnExit);
    if (!keepFile) await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Reads the edited file within the input limits; one that breaks them ends the edit and is kept on disk. */
async function readEdited(file: string, keep: () => void): Promise<string> {
  const read = await readLimited(file, INPUT_LIMITS.fileBytes);
  try {
    return decodeInput(read.bytes, read.truncated, 'edited object');
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    keep();
    throw new ValidationError(e.errors, `the edited object (kept at ${file})`);
  }
}

/** Removes full-line comments, as the edit header and error notes are comments. */
export function stripComments(text: string): string {
  return text
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .join('\n')
    .replace(/\s+$/, '\n');
}
