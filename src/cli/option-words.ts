import type { Command, Option } from "commander";
import { EvalError } from "../errors.js";
import { wordList } from "../word-list.js";

/**
 * Checks the words given to `command` (after its name, up to `--`) for what commander lets through
 * without a word or with the wrong one, each a USAGE error naming the word and what to write instead:
 * - an option whose value is missing, followed by another of the command's options (`--name --no-db`):
 *   commander took that option as the value, so a run was named "--no-db" and recorded, and `runs --db
 *   --json` read a database file named "--json". A value that starts with "-" is given as `--name=-x`,
 *   and one that is no option of this command (`score -e -V`) is taken as it is;
 * - a switch given a value (`--json=yes`), which commander called an unknown option;
 * - a short option joined to its value by `=` (`-n=foo`), whose value commander took as "=foo" (the message
 *   offers `-n foo` or `--name=foo`, and only `--name=-x` for a value that starts with "-");
 * - a short option the command lacks that one of its long options begins with (`run -o`, as `score -o`):
 *   commander said "unknown option" and, as it suggests only long options, nothing more.
 */
export function checkOptionWords(command: Command, words: readonly string[]): void {
  const options = command.options as readonly Option[];
  const byFlag = (flag: string) => options.find((o) => o.long === flag || o.short === flag);
  const isOption = (word: string) =>
    word === "-h" || word === "--help" || word.startsWith("--help=") || options.some((o) => word === o.short || word === o.long || (o.long !== undefined && word.startsWith(`${o.long}=`)));
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    if (word === "--") return;
    const eq = word.indexOf("=");
    if (word.startsWith("--") && eq > 2) {
      const option = byFlag(word.slice(0, eq));
      if (option && !option.required && !option.optional) {
        throw new EvalError("USAGE", `${word.slice(0, eq)} takes no value (it is a switch: give it alone), received ${JSON.stringify(word)}`);
      }
      continue;
    }
    if (/^-[^-]=/.test(word)) {
      const option = byFlag(word.slice(0, 2));
      if (option?.required) {
        const value = word.slice(3);
        // A value starting with "-" (`-n=--no-db`) is given only as `--name=VALUE`: `-n --no-db` is refused (above).
        const spaced = value.startsWith("-") ? "" : `${word.slice(0, 2)} ${value} or `;
        throw new EvalError("USAGE", `${word}: ${word.slice(0, 2)} would take ${JSON.stringify(`=${value}`)} as its value; write ${spaced}${option.long}=${value}`);
      }
      continue;
    }
    const option = byFlag(word);
    if (!option && /^-[a-zA-Z]$/.test(word) && word !== "-h") unknownShortOption(command, word);
    if (option?.required && i + 1 < words.length) {
      const next = words[i + 1] as string;
      if (isOption(next)) {
        throw new EvalError(
          "USAGE",
          `${word} was given no value: the word after it, ${JSON.stringify(next)}, is one of ${command.name()}'s options; give ${word} a value (one that starts with "-" as ${option.long ?? word}=VALUE)`,
        );
      }
      i++; // the value, whatever it reads like
    }
  }
}

/** USAGE naming the long options that `-x` likely meant (those beginning `--x`), when there are any. */
function unknownShortOption(command: Command, word: string): void {
  const letter = word.slice(1).toLowerCase();
  const longs = (command.options as readonly Option[]).flatMap((o) => (o.long?.startsWith(`--${letter}`) && !o.negate ? [o.long] : []));
  if (!longs.length) return;
  throw new EvalError("USAGE", `unknown option '${word}': ${command.name()} has no ${word}; did you mean ${wordList(longs, "or")}?`);
}
