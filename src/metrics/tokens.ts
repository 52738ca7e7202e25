/**
 * Tokenizers shared by the token-based metrics. One definition of "word" for the whole project.
 */

import { notAString } from "./arguments.js";
import { countCharNgrams } from "./ngram-counts.js";

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
/**
 * A white space run other than a single space (a space and more, or any other white space first): a
 * single space is left as it is, which on ordinary text is nearly every run — replacing each of those,
 * as `/\s+/g` would, takes seconds and hundreds of megabytes on a 50 MB text.
 */
const WHITESPACE_RUN = / \s+|[^\S ]\s*/g;

/**
 * A text split under one rule (`rule`: "w"/"W" for words, "3c"/"3C" for character 3-grams; upper case
 * for case-sensitive), with what was asked of it so far.
 */
interface Split {
  text: string;
  rule: string;
  tokens?: readonly string[];
  counts?: ReadonlyMap<string, number>;
}

/**
 * The last texts split (a row's output and expected, under each rule its evaluators use): the
 * evaluators of a row split the same two texts (jaccard_similarity and tfidf_similarity both, and the
 * explanation of a row after its verdict), which then costs once.
 */
const recent: Split[] = [];
const RECENT = 8;

function split(text: string, rule: string): Split {
  for (const s of recent) if (s.text === text && s.rule === rule) return s;
  const s: Split = { text, rule };
  if (recent.unshift(s) > RECENT) recent.pop();
  return s;
}

/**
 * Word tokens: maximal runs of Unicode letters, marks and numbers (`\p{L}`, `\p{M}`, `\p{N}`).
 * Punctuation, apostrophes, underscores, hyphens and periods split words and never stick to them;
 * CJK text yields tokens. Lower-cased with `toLowerCase` (locale-independent) unless `caseSensitive`.
 * The array is frozen: callers that split the same text share it. Throws EvalError (INPUT_INVALID)
 * when `text` is not a string.
 */
export function wordTokens(text: string, caseSensitive = false): readonly string[] {
  if (typeof text !== "string") throw notAString("wordTokens", "text", text);
  return words(split(text, caseSensitive ? "W" : "w"), caseSensitive);
}

/** {@link countTokens} of {@link wordTokens}, shared by the callers that count the same text's words. */
export function wordCounts(text: string, caseSensitive = false): ReadonlyMap<string, number> {
  const s = split(text, caseSensitive ? "W" : "w");
  return (s.counts ??= countTokens(words(s, caseSensitive)));
}

/** The words of a split text, made on first use (one lookup in {@link recent} per call above). */
function words(s: Split, caseSensitive: boolean): readonly string[] {
  return (s.tokens ??= Object.freeze((caseSensitive ? s.text : s.text.toLowerCase()).match(WORD) ?? []));
}

/** Whether two texts are equal under the tokenizers' case rule (lower-cased unless `caseSensitive`). */
export function equalUnderCase(a: string, b: string, caseSensitive = false): boolean {
  return caseSensitive ? a === b : a.toLowerCase() === b.toLowerCase();
}

/** Collapses every run of Unicode white space to one space and trims the ends. Throws EvalError (INPUT_INVALID) when `text` is not a string. */
export function collapseWhitespace(text: string): string {
  if (typeof text !== "string") throw notAString("collapseWhitespace", "text", text);
  return text.replace(WHITESPACE_RUN, " ").trim();
}

/**
 * Overlapping character n-grams over code points, after collapsing white space runs to one space and
 * trimming (and lower-casing unless `caseSensitive`). A non-empty text shorter than `n` is one token;
 * an empty one yields none. `n` must be an integer >= 1. Throws EvalError (INPUT_INVALID) when `text`
 * is not a string.
 */
export function charNgrams(text: string, n: number, caseSensitive = false): string[] {
  if (typeof text !== "string") throw notAString("charNgrams", "text", text);
  const prepared = ngramText(text, n, caseSensitive);
  const points = Array.from(prepared);
  if (points.length === 0) return [];
  if (points.length <= n) return [prepared];
  const grams: string[] = new Array<string>(points.length - n + 1);
  for (let i = 0; i + n <= points.length; i++) grams[i] = points.slice(i, i + n).join("");
  return grams;
}

/**
 * {@link countTokens} of {@link charNgrams} — the same tokens, counts and first-seen order — without
 * an array of every n-gram (see {@link countCharNgrams}), so that a 50 MB text takes seconds.
 * Shared by the callers that count the same text's n-grams; the Map must not be changed. Throws
 * EvalError (INPUT_INVALID) when `text` is not a string.
 */
export function charNgramCounts(text: string, n: number, caseSensitive = false): ReadonlyMap<string, number> {
  if (typeof text !== "string") throw notAString("charNgramCounts", "text", text);
  const s = split(text, `${n}${caseSensitive ? "C" : "c"}`);
  return (s.counts ??= countCharNgrams(ngramText(text, n, caseSensitive), n));
}

/** The text that n-grams are taken of: case rule applied, white space collapsed; checks `n`. */
function ngramText(text: string, n: number, caseSensitive: boolean): string {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`ngram size must be an integer >= 1, received ${n}`);
  return collapseWhitespace(caseSensitive ? text : text.toLowerCase());
}

/** Token -> count. */
export function countTokens(tokens: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}
