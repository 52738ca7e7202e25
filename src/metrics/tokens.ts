/**
 * Tokenizers shared by the token-based metrics. One definition of "word" for the whole project.
 */

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const WHITESPACE_RUN = /\s+/gu;

/**
 * Word tokens: maximal runs of Unicode letters, marks and numbers (`\p{L}`, `\p{M}`, `\p{N}`).
 * Punctuation, apostrophes, underscores, hyphens and periods split words and never stick to them;
 * CJK text yields tokens. Lower-cased with `toLowerCase` (locale-independent) unless `caseSensitive`.
 */
export function wordTokens(text: string, caseSensitive = false): string[] {
  const source = caseSensitive ? text : text.toLowerCase();
  return source.match(WORD) ?? [];
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
