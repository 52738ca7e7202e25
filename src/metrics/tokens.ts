/**
 * Tokenizers shared by the token-based metrics. One definition of "word" for the whole project.
 */

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const WHITESPACE_RUN = /\s+/gu;

/** A text split into words under one case rule, with its word counts once asked for. */
interface Split {
  text: string;
  caseSensitive: boolean;
  tokens: readonly string[];
  counts: ReadonlyMap<string, number> | undefined;
}

/**
 * The last texts split (a row's output and expected): the evaluators of a row split the same two texts
 * (jaccard_similarity and tfidf_similarity both), which then costs once.
 */
const recent: Split[] = [];
const RECENT = 4;

function split(text: string, caseSensitive: boolean): Split {
  for (const s of recent) if (s.text === text && s.caseSensitive === caseSensitive) return s;
  const tokens = Object.freeze((caseSensitive ? text : text.toLowerCase()).match(WORD) ?? []);
  const s: Split = { text, caseSensitive, tokens, counts: undefined };
  if (recent.unshift(s) > RECENT) recent.pop();
  return s;
}

/**
 * Word tokens: maximal runs of Unicode letters, marks and numbers (`\p{L}`, `\p{M}`, `\p{N}`).
 * Punctuation, apostrophes, underscores, hyphens and periods split words and never stick to them;
 * CJK text yields tokens. Lower-cased with `toLowerCase` (locale-independent) unless `caseSensitive`.
 * The array is frozen: callers that split the same text share it.
 */
export function wordTokens(text: string, caseSensitive = false): readonly string[] {
  return split(text, caseSensitive).tokens;
}

/** {@link countTokens} of {@link wordTokens}, shared by the callers that count the same text's words. */
export function wordCounts(text: string, caseSensitive = false): ReadonlyMap<string, number> {
  const s = split(text, caseSensitive);
  return (s.counts ??= countTokens(s.tokens));
}

/** Whether two texts are equal under the tokenizers' case rule (lower-cased unless `caseSensitive`). */
export function equalUnderCase(a: string, b: string, caseSensitive = false): boolean {
  return caseSensitive ? a === b : a.toLowerCase() === b.toLowerCase();
}

/** Collapses every run of Unicode white space to one space and trims the ends. */
export function collapseWhitespace(text: string): string {
  return text.replace(WHITESPACE_RUN, " ").trim();
}

/**
 * Overlapping character n-grams over code points, after collapsing white space runs to one space and
 * trimming (and lower-casing unless `caseSensitive`). A non-empty text shorter than `n` is one token;
 * an empty one yields none. `n` must be an integer >= 1.
 */
export function charNgrams(text: string, n: number, caseSensitive = false): string[] {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`ngram size must be an integer >= 1, received ${n}`);
  const prepared = collapseWhitespace(caseSensitive ? text : text.toLowerCase());
  const points = Array.from(prepared);
  if (points.length === 0) return [];
  if (points.length <= n) return [prepared];
  const grams: string[] = new Array<string>(points.length - n + 1);
  for (let i = 0; i + n <= points.length; i++) grams[i] = points.slice(i, i + n).join("");
  return grams;
}

/** Token -> count. */
export function countTokens(tokens: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}
