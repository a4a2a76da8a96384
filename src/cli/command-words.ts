import { editDistance } from './edit-distance';
import { UsageError } from '../errors/usage-error';

/** What command-word checking needs of a command class. */
export interface CommandShape {
  aliases?: string[];
  args?: Record<string, unknown>;
  strict?: boolean;
}

const HELP_FLAGS = new Set(['--help', '-h']);

/**
 * Checks the command words of `argv` against the command table (oclif ids, `:`-separated) before oclif
 * sees them, and returns the argv to run: `help WORDS...` becomes `WORDS... --help`; an unknown command
 * is named as typed, with the closest command suggested; a topic given flags but no command is an error.
 * (oclif would report `command get:clsuters:x not found`, or print the topic's help and exit 0.)
 */
export function checkCommandWords(argv: string[], commands: Record<string, CommandShape>, bin = 'kforge'): string[] {
  const args = argv[0] === 'help' ? [...argv.slice(1), '--help'] : argv;
  const ids = new Map<string, CommandShape>();
  for (const [id, cmd] of Object.entries(commands)) {
    ids.set(id, cmd);
    for (const a of cmd.aliases ?? []) ids.set(a, cmd);
  }
  const topics = new Set([...ids.keys()].flatMap((id) => id.split(':').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join(':'))));
  const end = args.findIndex((a) => a.startsWith('-'));
  const words = end === -1 ? args : args.slice(0, end);
  if (words.length === 0) return args;
  const matched: string[] = [];
  for (const w of words) {
    const id = [...matched, w].join(':');
    if (!ids.has(id) && !topics.has(id)) break;
    matched.push(w);
    // The words after a command that takes arguments are its arguments (`get cluster get`), unless the
    // command is also a topic and the next word is one of its subcommands (`get clusters` beside `get NAME`).
    const next = words[matched.length];
    const subcommandNext = next !== undefined && (ids.has(`${id}:${next}`) || topics.has(`${id}:${next}`));
    if (takesArgs(ids.get(id)) && !subcommandNext) break;
  }
  const matchedId = matched.join(':');
  const rest = words.slice(matched.length);
  const cmd = ids.get(matchedId);
  // A command that is also a topic (`get NAME` beside `get clusters`) takes cluster names, which always
  // hold a dot: a dotless word there is a mistyped subcommand, also when --help follows it.
  const mistypedSubcommand = cmd !== undefined && topics.has(matchedId) && rest.length > 0 && !rest[0].includes('.');
  if (cmd && !mistypedSubcommand && (rest.length === 0 || !topics.has(matchedId) || takesArgs(cmd))) return args;
  if (!cmd && matched.length > 0 && rest.length === 0) {
    if (args.length === words.length || args.some((a) => HELP_FLAGS.has(a))) return args;
    const subcommands = [...new Set(Object.keys(commands).filter((id) => id.startsWith(`${matchedId}:`) && id.split(':').length === matched.length + 1))];
    throw new UsageError(`"${bin} ${matched.join(' ')}" needs a command: ${subcommands.map((id) => `${bin} ${id.replaceAll(':', ' ')}`).join(', ')}`);
  }
  throw unknownCommand(words, matched.length, [...ids.keys()], bin);
}

/** Whether words after this command are its arguments rather than a subcommand. */
function takesArgs(cmd: CommandShape | undefined): boolean {
  return cmd !== undefined && (cmd.strict === false || Object.keys(cmd.args ?? {}).length > 0);
}

/** The error for words that name no command: the words as typed and, when one is close, a suggestion. */
function unknownCommand(words: string[], known: number, ids: string[], bin: string): UsageError {
  let best: { id: string; typed: string; distance: number } | undefined;
  for (const id of ids) {
    const depth = id.split(':').length;
    if (depth > words.length || depth <= known) continue;
    const typed = words.slice(0, depth).join(' ');
    const wanted = id.replaceAll(':', ' ');
    const distance = editDistance(typed, wanted);
    if (distance > Math.min(3, Math.floor(wanted.length / 3))) continue;
    if (!best || distance < best.distance || (distance === best.distance && depth > best.typed.split(' ').length)) best = { id: wanted, typed, distance };
  }
  if (best) return new UsageError(`unknown command "${best.typed}". Did you mean "${bin} ${best.id}"?`);
  return new UsageError(`unknown command "${words.slice(0, known + 1).join(' ')}". "${bin} --help" lists the commands.`);
}
