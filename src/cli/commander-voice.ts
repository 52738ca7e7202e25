/**
 * commander's own error messages in simeval's voice: "simeval: " first, the flag or argument and the value
 * given, then what was expected, as simeval's own messages say them. A message not recognised keeps
 * commander's words, its "error: " made "simeval: ".
 */
import { wordList } from "../word-list.js";

/** The long flag of commander's option label (`-c, --config <file>` → `--config`), or the label itself. */
function longFlag(label: string): string {
  return /--[\w-]+/.exec(label)?.[0] ?? label;
}

/** `--seed needs a value: --seed <n>` from commander's label `--seed <n>` and what is said of the flag. */
function withValue(label: string, said: string): string {
  const flag = longFlag(label);
  return `${flag} ${said}: ${flag}${label.slice(label.indexOf(flag) + flag.length)}`;
}

/**
 * `show takes 1 argument, received 2: "a", "b"`, `list takes no arguments, received "x"`: what a command takes
 * and the words it was given, each quoted (one without its count). Every refusal of arguments begins so.
 */
export function takesReceived(name: string, takes: string, args: readonly string[]): string {
  return `${name} takes ${takes}, received ${args.length === 1 ? "" : `${args.length}: `}${args.map((a) => JSON.stringify(a)).join(", ")}`;
}

/**
 * `show takes 1 argument, received 2: "a", "b"` (and why an option may have been read as one); `baseline takes at
 * most 2 arguments, …` when some may be left out (`optional`), as `simeval baseline` alone takes none.
 */
function excessArguments(name: string, expected: number, args: readonly string[], optional: boolean): string {
  const given = takesReceived(name, expected === 0 ? "no arguments" : `${optional ? "at most " : ""}${expected} argument${expected === 1 ? "" : "s"}`, args);
  return args.some((a) => a.startsWith("-")) ? `${given}; after --, every word is read as an argument, options too: give the options before --` : given;
}

/**
 * `message` (commander's, starting "error: ") as simeval says it. `command`: the command's name and usage
 * (`compare`, `[options] <run_a> <run_b>`), to say what a missing argument is.
 *
 * - a choice not allowed: `simeval: --pair-by "id" is not one of its choices; expected row or key`
 * - an option without its value: `simeval: --seed needs a value: --seed <n>`
 * - a required option not given: `simeval: --type is required: --type <type>` (and, when `args` hold it, that it came after `--`)
 * - an unknown option: `simeval: unknown option '--confg': run has no --confg; did you mean --config?`
 * - a missing argument: `simeval: compare needs its <run_b> argument: simeval compare [options] <run_a> <run_b>`
 * - too many arguments (`args`: the command's, as commander read them): `simeval: show takes 1 argument, received 2:
 *   "a", "b"; usage: simeval show [options] <run>`, with a word on `--` when one of them reads as an option
 *   ("takes at most 2 arguments" when `optional`: some of the command's arguments may be left out)
 */
export function inSimevalVoice(message: string, command?: { name: string; usage: string; args?: readonly string[]; optional?: boolean }): string {
  const text = message.replace(/\n$/, "");
  const choice = /^error: option '(.+?)' argument '([\s\S]*)' is invalid\. Allowed choices are (.+)\.$/.exec(text);
  if (choice) return `simeval: ${longFlag(choice[1]!)} ${JSON.stringify(choice[2])} is not one of its choices; expected ${wordList(choice[3]!.split(", "), "or")}\n`;
  const valueless = /^error: option '(.+?)' argument missing$/.exec(text);
  if (valueless) return `simeval: ${withValue(valueless[1]!, "needs a value")}\n`;
  const required = /^error: required option '(.+?)' not specified$/.exec(text);
  if (required) {
    // Given after `--` (`score -- -t exact_match …`), the option was read as an argument: said, rather than only "required".
    const flags = required[1]!.split(/[ ,|]+/).filter((f) => f.startsWith("-"));
    const afterDashes = command?.args?.some((a) => flags.some((f) => a === f || a.startsWith(f.startsWith("--") ? `${f}=` : f))) === true;
    return `simeval: ${withValue(required[1]!, "is required")}${afterDashes ? "; it was given after --, where every word is read as an argument: give the options before --" : ""}\n`;
  }
  const missing = /^error: missing required argument '(.+)'$/.exec(text);
  if (missing && command) return `simeval: ${command.name} needs its <${missing[1]}> argument: simeval ${command.name} ${command.usage}\n`;
  // As checkOptionWords says the unknown options it sees first: `unknown option '-o': run has no -o; did you mean --out?`.
  const unknown = /^error: unknown option '(.+?)'(?:\n\(Did you mean (.+)\?\))?$/.exec(text);
  if (unknown) {
    const flag = unknown[1]!.replace(/=[\s\S]*$/, "");
    const has = command ? `: ${command.name} has no ${flag}` : ": simeval takes only --help and --version before a command";
    return `simeval: unknown option '${unknown[1]}'${has}${unknown[2] === undefined ? "" : `; did you mean ${unknown[2]}?`}\n`;
  }
  const excess = /^error: too many arguments for '.+'\. Expected (\d+) arguments? but got (\d+)\.$/.exec(text);
  if (excess && command?.args) return `simeval: ${excessArguments(command.name, Number(excess[1]), command.args, command.optional === true)}; usage: simeval ${command.name} ${command.usage}\n`;
  return message.replace(/^error: /, "simeval: ");
}
