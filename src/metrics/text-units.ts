/**
 * What one "character" is: a Unicode code point, or an extended grapheme
 * cluster (what a reader sees as one character, e.g. "e\u0301" or a family
 * emoji). The one place where the grapheme segmenter is created.
 */
import { badArgument, notAString } from "./arguments.js";

/** Counting unit for edit distances and lengths. */
export type TextUnit = "code_point" | "grapheme";

let graphemeSegmenter: Intl.Segmenter | undefined;

/**
 * The shared `Intl.Segmenter(undefined, { granularity: "grapheme" })`,
 * created on first use (construction costs far more than a segmentation).
 * Grapheme boundaries (UAX #29) do not depend on the locale.
 */
export function graphemes(): Intl.Segmenter {
  graphemeSegmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  return graphemeSegmenter;
}

/** UTF-16 units segmented at a time by {@link graphemeSegments}. */
const SEGMENT_CHUNK = 4096;

/**
 * The grapheme clusters of `text` with their UTF-16 offsets, as
 * `graphemes().segment(text)` gives them, but segmented a chunk at a time:
 * on Node 20, iterating one segmentation of a long text takes time quadratic
 * in its length (80,000 units: about 10 s, against 0.1 s in chunks; see
 * bench/graphemes.ts).
 *
 * Each chunk starts at a cluster boundary, and its last cluster, which the
 * chunk's end may have cut, is segmented again at the start of the next one.
 * That gives the same clusters as one segmentation: a boundary (UAX #29)
 * depends on the text before it back to the previous boundary at most, and
 * on the one character (code point) after it, which a chunk never cuts in
 * two. A chunk holding a single cluster that may
 * go on is doubled until it ends. O(length). `chunk` is for tests.
 */
export function* graphemeSegments(text: string, chunk = SEGMENT_CHUNK): Generator<{ segment: string; index: number }> {
  let start = 0;
  let size = chunk;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    // Never between the halves of a surrogate pair: the character after a boundary must be whole.
    if (isLowSurrogate(text.charCodeAt(end)) && isHighSurrogate(text.charCodeAt(end - 1))) end++;
    const piece = text.slice(start, end);
    if (end === text.length) {
      for (const { segment, index } of graphemes().segment(piece)) yield { segment, index: start + index };
      return;
    }
    // Every cluster but the last, which may go on past `end`.
    let last = -1;
    let previous: string | undefined;
    for (const { segment, index } of graphemes().segment(piece)) {
      if (previous !== undefined) yield { segment: previous, index: start + last };
      previous = segment;
      last = index;
    }
    if (last === 0) {
      size *= 2;
      continue;
    }
    start += last;
    size = chunk;
  }
}

/**
 * Splits `text` into units: code points (`Array.from`, a lone surrogate is
 * one unit) or grapheme clusters. O(length). Throws EvalError (INPUT_INVALID)
 * when `text` is not a string or `unit` is neither "code_point" nor "grapheme".
 */
export function toUnits(text: string, unit: TextUnit): string[] {
  if (typeof text !== "string") throw notAString("toUnits", "text", text);
  checkUnit("toUnits", unit);
  if (unit === "code_point") return Array.from(text);
  const out: string[] = [];
  for (const { segment } of graphemeSegments(text)) out.push(segment);
  return out;
}

/** Throws INPUT_INVALID unless `unit` is a {@link TextUnit}: any other value (a typo, none) would be read as "grapheme". */
function checkUnit(fn: string, unit: unknown): void {
  if (unit !== "code_point" && unit !== "grapheme") throw badArgument(fn, "unit", `"code_point" or "grapheme"`, unit);
}

/** Whether a UTF-16 unit is the first (high) half of a surrogate pair; false for NaN (past the end). */
export function isHighSurrogate(unit: number): boolean {
  return (unit & 0xfc00) === 0xd800;
}

/** Whether a UTF-16 unit is the second (low) half of a surrogate pair; false for NaN (past the end). */
export function isLowSurrogate(unit: number): boolean {
  return (unit & 0xfc00) === 0xdc00;
}

/**
 * The UTF-16 lengths of the longest common start and end of `a` and `b` that do not overlap and never cut
 * a surrogate pair (a common trailing high surrogate, or leading low one, is left to what remains). O(m + n).
 */
export function commonAffixes(a: string, b: string): { prefix: number; suffix: number } {
  const m = a.length;
  const n = b.length;
  const limit = Math.min(m, n);
  let prefix = 0;
  while (prefix < limit && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  if (prefix > 0 && isHighSurrogate(a.charCodeAt(prefix - 1))) prefix--;
  let suffix = 0;
  while (suffix < limit - prefix && a.charCodeAt(m - 1 - suffix) === b.charCodeAt(n - 1 - suffix)) suffix++;
  if (suffix > 0 && isLowSurrogate(a.charCodeAt(m - suffix))) suffix--;
  return { prefix, suffix };
}

/**
 * Code points in `text[start, end)`: its UTF-16 units less its whole surrogate pairs (a lone surrogate
 * is one code point, as in `Array.from`). O(end − start), no copy.
 */
export function codePointCount(text: string, start = 0, end = text.length): number {
  let count = end - start;
  for (let i = start; i + 1 < end; i++) {
    if (isHighSurrogate(text.charCodeAt(i)) && isLowSurrogate(text.charCodeAt(i + 1))) {
      count--;
      i++;
    }
  }
  return count;
}

/**
 * UTF-16 offset at which the first `count` units of `text` end (`text.length` when it has fewer), so
 * that `text.slice(0, offset)` equals `toUnits(text, unit).slice(0, count).join("")` without building
 * the array of every unit: code points are stepped over (a surrogate pair is one, a lone surrogate is
 * one, as in `Array.from`), graphemes are segmented only up to the cut. O(offset).
 */
export function unitPrefixEnd(text: string, count: number, unit: TextUnit): number {
  if (unit === "code_point") {
    let i = 0;
    for (let n = 0; n < count && i < text.length; n++) i += isHighSurrogate(text.charCodeAt(i)) && isLowSurrogate(text.charCodeAt(i + 1)) ? 2 : 1;
    return i;
  }
  let n = 0;
  for (const { index } of graphemeSegments(text)) {
    if (n === count) return index;
    n++;
  }
  return text.length;
}

/**
 * Number of units in `text` (see {@link toUnits}) without building the array.
 * O(length); for code points only the surrogate pairs are inspected. Throws
 * EvalError (INPUT_INVALID) when `text` is not a string or `unit` is not a {@link TextUnit}.
 */
export function unitLength(text: string, unit: TextUnit): number {
  if (typeof text !== "string") throw notAString("unitLength", "text", text);
  checkUnit("unitLength", unit);
  if (unit === "code_point") return codePointCount(text);
  let count = 0;
  for (const _ of graphemeSegments(text)) count++;
  return count;
}

/**
 * Both texts as grapheme ids: every distinct grapheme string gets one integer
 * id shared by the two sides, so the result can go to an integer-sequence
 * edit distance. O(length) expected.
 */
export function graphemeIds(a: string, b: string): [Int32Array, Int32Array] {
  const ids = new Map<string, number>();
  const encode = (text: string): Int32Array => {
    const out: number[] = [];
    for (const { segment } of graphemeSegments(text)) {
      let id = ids.get(segment);
      if (id === undefined) ids.set(segment, (id = ids.size));
      out.push(id);
    }
    return Int32Array.from(out);
  };
  return [encode(a), encode(b)];
}
