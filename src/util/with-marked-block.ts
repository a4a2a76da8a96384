/**
 * Pure: `text` with the block between the lines `begin` and `end` set to `lines`, every byte outside the
 * block kept as it was (a config file others edit too, such as /etc/hosts). An earlier block is replaced in
 * place; a new one is appended, or put first when the text's last line has no newline; empty `lines`
 * remove the block. Undefined when there is no block and none is wanted (nothing to write).
 */
export function withMarkedBlock(text: string, begin: string, end: string, lines: readonly string[]): string | undefined {
  const block = lines.length === 0 ? '' : `${begin}\n${lines.map((l) => `${l}\n`).join('')}${end}\n`;
  // The marker counts only as a whole line: at the start, or after a newline.
  const at = text.startsWith(`${begin}\n`) ? 0 : text.indexOf(`\n${begin}\n`);
  const start = at <= 0 ? at : at + 1;
  const endAt = start < 0 ? -1 : text.indexOf(`${end}\n`, start);
  if (start >= 0 && endAt >= 0) return text.slice(0, start) + block + text.slice(endAt + end.length + 1);
  if (block === '') return undefined;
  return text === '' || text.endsWith('\n') ? text + block : block + text;
}
