/** The last nodeup stage found on an instance's serial console. */
export interface ConsoleStage {
  /** As nodeup recorded it: `config-fetched`, …, `done`, or `failed: <code>`. */
  stage: string;
  failed: boolean;
}

const MARKER = 'kforge-nodeup-stage:';
// Stage names nodeup writes (src/nodeup/nodeup-stage.ts) and the failure form; anything else is noise.
const STAGE = /^(config-fetched|keysets-read|assets-installed|certificates-issued|files-written|done|failed: [A-Z][A-Z0-9_]{1,60})$/;
// CSI escape sequences (colors, cursor moves) systemd and getty write to the console.
// eslint-disable-next-line no-control-regex -- the console carries terminal escapes
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]/g;
// A kernel message: `[   12.345678] text` to the end of the console line.
const KERNEL = /\[\s*\d+\.\d+\]\s/;
// eslint-disable-next-line no-control-regex -- strip what a serial line can carry besides text
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/g;

function stageIn(line: string): string | undefined {
  const at = line.indexOf(MARKER);
  if (at < 0) return undefined;
  const rest = line.slice(at + MARKER.length).replace(CONTROL, '').trim();
  return STAGE.test(rest) ? rest : undefined;
}

/**
 * The last nodeup stage in a serial console's text (EC2 GetConsoleOutput). The console is noisy: CR
 * and CRLF line ends, terminal escapes, prefixes such as `cloud-init[812]: `, a first line cut off by the
 * output window, and kernel messages printed into the middle of a line (the kernel ends the line, prints
 * its message, and the rest of nodeup's line follows on the next one). Kernel text is removed and a line
 * it interrupted is read together with its continuation. Only a known stage on a finished line counts:
 * the last line, without its line end, may still be being written (`failed: ASS`), and a joined line
 * that reads as no stage is ignored.
 */
export function parseConsoleStage(text: string): ConsoleStage | undefined {
  const raw = text.replace(ANSI, '').replace(/\r\n?/g, '\n').split('\n');
  // A last line without its end may still be being written (or was cut): not a stage yet.
  raw.pop();
  // Each console line without its kernel text, and whether the kernel interrupted it.
  const lines: Array<{ text: string; interrupted: boolean }> = [];
  for (const l of raw) {
    const k = KERNEL.exec(l);
    if (!k) lines.push({ text: l, interrupted: false });
    else if (k.index > 0) lines.push({ text: l.slice(0, k.index), interrupted: true });
    else if (lines.length > 0) lines[lines.length - 1].interrupted = true;
  }
  let last: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const own = stageIn(lines[i].text);
    const joined = lines[i].interrupted && i + 1 < lines.length ? stageIn(lines[i].text + lines[i + 1].text) : undefined;
    const found = own ?? joined;
    if (found) last = found;
    if (!own && joined) i++;
  }
  return last === undefined ? undefined : { stage: last, failed: last.startsWith('failed:') };
}

/** A short phrase for a stage, for validate's messages. */
export function describeStage(s: ConsoleStage): string {
  switch (s.stage) {
    case 'config-fetched':
      return 'nodeup fetched its config, then stopped reporting (reading keysets)';
    case 'keysets-read':
      return 'nodeup read its keysets, then stopped reporting (installing assets)';
    case 'assets-installed':
      return 'nodeup installed its assets, then stopped reporting (writing files)';
    case 'certificates-issued':
      return 'nodeup got its certificates from the node-identity service, then stopped reporting (writing files)';
    case 'files-written':
      return 'nodeup wrote the node\'s files; kubelet has not registered the node';
    case 'done':
      return 'nodeup finished; kubelet has not registered the node (check kubelet and the API name)';
    default:
      return `nodeup ${s.stage}`;
  }
}
