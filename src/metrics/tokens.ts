/**
 * Tokenizers shared by the token-based metrics. One definition of "word" for the whole project.
 */

import type { EvalError } from "../errors.js";
import { badArgument, notAString, notAToken, notTokens } from "./arguments.js";
import { countCharNgrams } from "./ngram-counts.js";
import { lowerCase } from "./lower-case.js";

/**
 * A word: a letter or number, then letters, marks and numbers. Marks join the word they follow; marks with no letter
 * before them (U+FE0F after an emoji, `✔️`, or a keycap's U+20E3, `#️⃣`) belong to the symbol and are no word.
 */
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;
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
 * Word tokens: maximal runs of Unicode letters, marks and numbers (`\p{L}`, `\p{M}`, `\p{N}`) that start with a
 * letter or number (a mark after an emoji, U+FE0F, is no word). Punctuation, apostrophes, underscores, hyphens and periods split words and never stick to them;
 * CJK text yields tokens. Lower-cased by {@link lowerCase} (locale-independent; "ς" as "σ") unless `caseSensitive`.
 * The array is frozen: callers that split the same text share it. Throws EvalError (INPUT_INVALID)
 * when `text` is not a string or `caseSensitive` is given and not a boolean.
 */
export function wordTokens(text: string, caseSensitive = false): readonly string[] {
  if (typeof text !== "string") throw notAString("wordTokens", "text", text);
  if (typeof caseSensitive !== "boolean") throw notABoolean("wordTokens", caseSensitive);
  return words(split(text, caseSensitive ? "W" : "w"), caseSensitive);
}

/** {@link countTokens} of {@link wordTokens}, shared by the callers that count the same text's words. */
export function wordCounts(text: string, caseSensitive = false): ReadonlyMap<string, number> {
  const s = split(text, caseSensitive ? "W" : "w");
  return (s.counts ??= checkedCounts("wordCounts", "tokens", words(s, caseSensitive)));
}

/** The words of a split text, made on first use (one lookup in {@link recent} per call above). */
function words(s: Split, caseSensitive: boolean): readonly string[] {
  return (s.tokens ??= Object.freeze((caseSensitive ? s.text : lowerCase(s.text)).match(WORD) ?? []));
}

/**
 * Whether two texts that yield no token are the same: equal under the tokenizers' case rule (lower-cased
 * unless `caseSensitive`) once every white-space run is collapsed to one space and the ends trimmed, as
 * character n-grams see a text. So `"  "` is `""`, and `" !! "` is `"!!"`, as `" a "` is `"a"` by its words.
 */
export function equalWithoutTokens(a: string, b: string, caseSensitive = false): boolean {
  const [x, y] = [collapseWhitespace(a), collapseWhitespace(b)];
  return caseSensitive ? x === y : lowerCase(x) === lowerCase(y);
}

/** Collapses every run of white space (`\s`: Unicode's space separators, tabs, line breaks, U+FEFF) to one space and trims the ends. Throws EvalError (INPUT_INVALID) when `text` is not a string. */
export function collapseWhitespace(text: string): string {
  if (typeof text !== "string") throw notAString("collapseWhitespace", "text", text);
  return text.replace(WHITESPACE_RUN, " ").trim();
}

/**
 * Overlapping character n-grams over code points, after collapsing white space runs to one space and
 * trimming (and lower-casing unless `caseSensitive`). A non-empty text shorter than `n` is one token;
 * an empty one yields none. Throws EvalError (INPUT_INVALID) when `text` is not a string, `n` is not
 * an integer >= 1 or `caseSensitive` is given and not a boolean.
 */
export function charNgrams(text: string, n: number, caseSensitive = false): string[] {
  if (typeof text !== "string") throw notAString("charNgrams", "text", text);
  if (typeof caseSensitive !== "boolean") throw notABoolean("charNgrams", caseSensitive);
  const prepared = ngramText("charNgrams", text, n, caseSensitive);
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
 * EvalError (INPUT_INVALID) when `text` is not a string, `n` is not an integer >= 1 or `caseSensitive`
 * is given and not a boolean.
 */
export function charNgramCounts(text: string, n: number, caseSensitive = false): ReadonlyMap<string, number> {
  if (typeof text !== "string") throw notAString("charNgramCounts", "text", text);
  if (!Number.isInteger(n) || n < 1) throw badArgument("charNgramCounts", "n", "an integer >= 1", n);
  if (typeof caseSensitive !== "boolean") throw notABoolean("charNgramCounts", caseSensitive);
  return ngramCounts(text, n, caseSensitive);
}

/** {@link charNgramCounts} for the evaluators and reports, whose text, `n` and case rule were checked once, with their config. */
export function ngramCounts(text: string, n: number, caseSensitive: boolean): ReadonlyMap<string, number> {
  const s = split(text, `${n}${caseSensitive ? "C" : "c"}`);
  return (s.counts ??= countCharNgrams(ngramText("charNgramCounts", text, n, caseSensitive), n));
}

/** The error for a `caseSensitive` flag that is not a boolean: "no", 0 or 1 were read as true or false. */
function notABoolean(fn: string, value: unknown): EvalError {
  return badArgument(fn, "caseSensitive", "a boolean (true or false)", value);
}

/** The text that n-grams are taken of: case rule applied, white space collapsed; checks `n`. */
function ngramText(fn: string, text: string, n: number, caseSensitive: boolean): string {
  if (!Number.isInteger(n) || n < 1) throw badArgument(fn, "n", "an integer >= 1", n);
  return collapseWhitespace(caseSensitive ? text : lowerCase(text));
}

/**
 * Token -> count, in first-seen order. Throws EvalError (INPUT_INVALID) when `tokens` is not a list (a
 * string would be counted by its characters) or one of them is not a string.
 */
export function countTokens(tokens: readonly string[]): Map<string, number> {
  const bad = notTokens("countTokens", "tokens", tokens);
  if (bad) throw bad;
  return checkedCounts("countTokens", "tokens", tokens);
}

/** {@link countTokens} of a list a public caller gave as `fn`'s argument `arg`: INPUT_INVALID at its first entry that is not a string. */
export function checkedCounts(fn: string, arg: string, tokens: Iterable<unknown>): Map<string, number> {
  const counts = new Map<string, number>();
  let i = 0;
  for (const t of tokens) {
    if (typeof t !== "string") throw notAToken(fn, arg, i, t);
    counts.set(t, (counts.get(t) ?? 0) + 1);
    i++;
  }
  return counts;
}

/** A token of a text and what it was made of: `text.slice(start, end)` (UTF-16 offsets, end exclusive). */
export interface TokenSpan {
  token: string;
  start: number;
  end: number;
}

/**
 * {@link wordTokens} with where each one is in `text`, for the tokens that start before `limit` (a
 * UTF-16 offset; a token that crosses it is whole): for reports that mark the words of a shown, possibly
 * cut text. The tokens are the words of the same rule and case rule, so with no `limit` they are
 * `wordTokens(text, caseSensitive)`. Throws EvalError (INPUT_INVALID) when `text` is not a string.
 */
export function wordTokenSpans(text: string, caseSensitive = false, limit = Infinity): TokenSpan[] {
  if (typeof text !== "string") throw notAString("wordTokenSpans", "text", text);
  // The whole text under the case rule, as wordTokens splits it.
  const prepared = caseSensitive ? text : lowerCase(text);
  const starts = new CaseOffsets(text, caseSensitive);
  const ends = new CaseOffsets(text, caseSensitive);
  const spans: TokenSpan[] = [];
  const word = new RegExp(WORD.source, WORD.flags);
  for (let m = word.exec(prepared); m !== null; m = word.exec(prepared)) {
    const start = starts.start(m.index);
    if (start >= limit) break;
    spans.push({ token: m[0], start, end: ends.end(m.index + m[0].length) });
  }
  return spans;
}

/**
 * {@link charNgrams} with where each one is in `text`, for the n-grams that start before `limit` (a
 * UTF-16 offset; an n-gram that crosses it is whole). A collapsed white space run (one space in the
 * n-gram) spans the whole run in `text`; white space trimmed from the ends is in no n-gram. With no
 * `limit`, the tokens are `charNgrams(text, n, caseSensitive)`. Throws EvalError
 * (INPUT_INVALID) when `text` is not a string.
 */
export function charNgramSpans(text: string, n: number, caseSensitive = false, limit = Infinity): TokenSpan[] {
  if (typeof text !== "string") throw notAString("charNgramSpans", "text", text);
  const prepared = ngramText("charNgramSpans", text, n, caseSensitive);
  const lowered = caseSensitive ? text : lowerCase(text);
  const starts = new PreparedOffsets(text, lowered, caseSensitive);
  const ends = new PreparedOffsets(text, lowered, caseSensitive);
  // The UTF-16 offset of each code point of `prepared`, made as far as the n-grams need.
  const points: number[] = [];
  let next = 0;
  const pointAt = (i: number): number | undefined => {
    while (points.length <= i && next < prepared.length) {
      points.push(next);
      next += (prepared.codePointAt(next) as number) > 0xffff ? 2 : 1;
    }
    return i < points.length ? points[i] : i === points.length ? prepared.length : undefined;
  };
  const spans: TokenSpan[] = [];
  for (let i = 0; ; i++) {
    const from = pointAt(i) as number;
    let to = pointAt(i + n);
    // A text of at most n code points is one token; past that, only whole n-grams.
    if (to === undefined) {
      if (i > 0 || from === prepared.length) break;
      to = prepared.length;
    }
    const start = starts.start(from);
    if (start >= limit) break;
    spans.push({ token: prepared.slice(from, to), start, end: ends.end(to) });
    if (to === prepared.length) break;
  }
  return spans;
}

/** UTF-16 length of a code point lower-cased: 1 or 2 as it was, except "İ" (U+0130), whose "i̇" is two code points. */
function lowerLength(cp: number): number {
  if (cp < 0x80) return 1;
  return String.fromCodePoint(cp).toLowerCase().length;
}

/**
 * Maps offsets of `text` under the case rule ({@link lowerCase} unless `caseSensitive`) back to
 * `text`. Offsets must be asked in non-decreasing order (one instance for starts, one for ends).
 */
class CaseOffsets {
  /** The offset in `text` of the code point the walk is at, and where its lower-cased form starts. */
  private at = 0;
  private lowered = 0;

  constructor(
    private readonly text: string,
    private readonly caseSensitive: boolean,
  ) {}

  /** Where in `text` the code point starts whose lower-cased form holds offset `j`. */
  start(j: number): number {
    if (this.caseSensitive) return j;
    while (this.at < this.text.length && this.lowered + this.step().lower <= j) this.advance();
    return this.at;
  }

  /** Where in `text` the code point ends whose lower-cased form ends at or holds offset `j - 1`. */
  end(j: number): number {
    if (this.caseSensitive) return j;
    while (this.at < this.text.length && this.lowered < j) this.advance();
    return this.at;
  }

  private step(): { width: number; lower: number } {
    const cp = this.text.codePointAt(this.at) as number;
    return { width: cp > 0xffff ? 2 : 1, lower: lowerLength(cp) };
  }

  private advance(): void {
    const s = this.step();
    this.at += s.width;
    this.lowered += s.lower;
  }
}

/** A white space run at an offset: what {@link WHITESPACE_RUN} collapses and `trim` removes (`\s` either way). */
const SPACE_RUN = /\s+/y;

/**
 * Maps offsets of {@link ngramText} back to `text`, through `lowered` (`text` under the case rule):
 * its code units are those of `lowered` but for each white space run, which is one space (or none at
 * either end). Offsets must be asked in non-decreasing order.
 */
class PreparedOffsets {
  /** Offsets the walk is at: in the prepared text, and the same place in `lowered`. */
  private prepared = 0;
  private lowered: number;
  private readonly cased: CaseOffsets;

  constructor(
    text: string,
    private readonly loweredText: string,
    caseSensitive: boolean,
  ) {
    this.cased = new CaseOffsets(text, caseSensitive);
    this.lowered = this.runAt(0);
  }

  /** Where in `text` the prepared code unit `p` comes from (the start of its white space run). */
  start(p: number): number {
    while (this.prepared < p) this.advance();
    return this.cased.start(this.lowered);
  }

  /** Where in `text` the prepared code units before `p` end (the end of a white space run). */
  end(p: number): number {
    while (this.prepared < p) this.advance();
    // The walk stands after the unit before `p`; a run it ended on is its own, whole.
    return this.cased.end(this.lowered);
  }

  private runAt(at: number): number {
    SPACE_RUN.lastIndex = at;
    return SPACE_RUN.test(this.loweredText) ? SPACE_RUN.lastIndex - at : 0;
  }

  private advance(): void {
    this.lowered += this.runAt(this.lowered) || 1;
    this.prepared += 1;
  }
}
