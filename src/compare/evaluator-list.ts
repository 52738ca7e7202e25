/** Evaluator names as a comparison's sentences list them. */
import { wordList } from "../word-list.js";

/** Most evaluator names a sentence lists; past them it counts the others, whose figures the table gives. */
const MAX_LISTED_NAMES = 5;

/**
 * The evaluators a sentence is about: their names, or with a wide config (a team's hundred evaluators, all
 * skipping the rows without a reference) `all N evaluators` when they are all `total` of those it could be
 * about, else the first {@link MAX_LISTED_NAMES} and how many more, so that one sentence does not list them all.
 * `noun` says what they are all of: `evaluators in both runs` where a comparison left out some in one run only.
 */
export function evaluatorList(names: readonly string[], total: number, noun = "evaluators"): string {
  if (names.length > MAX_LISTED_NAMES && names.length === total) return `all ${names.length} ${noun}`;
  const { listed, more } = firstListed(names);
  return more ? `${listed.join(", ")} ${more}` : listed.join(", ");
}

/**
 * The cut {@link evaluatorList} makes, for a list whose items say more than a name: the first
 * {@link MAX_LISTED_NAMES} items, and `and N more evaluators` for the rest (null when none is left out).
 */
export function firstListed<T>(items: readonly T[]): { listed: T[]; more: string | null } {
  const more = items.length - MAX_LISTED_NAMES;
  return { listed: items.slice(0, MAX_LISTED_NAMES), more: more > 0 ? `and ${more} more evaluator${more === 1 ? "" : "s"}` : null };
}

/**
 * Names as a sentence's subject: `a, b and c`; past {@link MAX_LISTED_NAMES}, as {@link evaluatorList} gives them
 * (`all N evaluators` only when `total`, the evaluators the sentence could be about, is given and they are all of it).
 */
export function evaluatorNames(names: readonly string[], total = Number.NaN, noun = "evaluators"): string {
  return names.length > MAX_LISTED_NAMES ? evaluatorList(names, total, noun) : wordList(names, "and");
}

/**
 * What `all N …` counts in a comparison's sentences: the evaluators compared, which are those in both runs; said
 * so where one run has others (named on their `only in` line), lest "all 6 evaluators" read as all of a run's 7.
 */
export function comparedNoun(c: { only_in_a: readonly string[]; only_in_b: readonly string[] }): string {
  return c.only_in_a.length + c.only_in_b.length > 0 ? "evaluators in both runs" : "evaluators";
}
