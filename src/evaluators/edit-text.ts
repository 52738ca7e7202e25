import { EvalError } from "../errors.js";
import { codePointLevenshtein, sequenceDistance, unitLength, type TextUnit } from "../metrics/levenshtein.js";
import { codePointCount, commonAffixes, graphemeIds, graphemeSegments, unitPrefixEnd } from "../metrics/text-units.js";
import { lowerCase } from "../metrics/lower-case.js";

/** The texts the two Levenshtein evaluators compare, after their truncation and case rules. */
interface EditTexts {
  output: string;
  expected: string;
  /** Which sides `max_chars` cut, with their lengths before the cut (in the unit). */
  truncated: false | { output?: number; expected?: number };
}

/**
 * Applies `max_chars` (a cap on the ORIGINAL text, in `unit`; 0 or undefined = no cap), then lower-cases
 * unless `caseSensitive`. No trimming: leading and trailing white space counts as edits.
 */
export function prepareEditTexts(
  output: string,
  expected: string,
  opts: { caseSensitive: boolean; maxChars: number | undefined; unit: TextUnit },
): EditTexts {
  let truncated: EditTexts["truncated"] = false;
  const cut = (text: string, side: "output" | "expected"): string => {
    const max = opts.maxChars;
    // A text with at most max UTF-16 units has at most max code points and graphemes: no work.
    if (!max || text.length <= max) return text;
    const { length, end } = unitsAndCut(text, max, opts.unit);
    if (length <= max) return text;
    truncated = { ...(truncated || {}), [side]: length };
    return text.slice(0, end);
  };
  let a = cut(output, "output");
  let b = cut(expected, "expected");
  if (!opts.caseSensitive) {
    a = lowerCase(a);
    b = lowerCase(b);
  }
  return { output: a, expected: b, truncated };
}

/**
 * `text`'s length in `unit`, and the UTF-16 offset where its first `max` units end ({@link unitPrefixEnd}): for
 * graphemes in one pass of the segmenter, which a long text's cap took twice (its length, then its cut).
 */
function unitsAndCut(text: string, max: number, unit: TextUnit): { length: number; end: number } {
  if (unit === "code_point") return { length: codePointCount(text), end: unitPrefixEnd(text, max, unit) };
  let length = 0;
  let end = text.length;
  for (const { index } of graphemeSegments(text)) {
    if (length === max) end = index;
    length++;
  }
  return { length, end };
}

/** The sentence that tells a reader which side was cut. */
export function truncationNote(t: EditTexts["truncated"], maxChars: number | undefined, unit: TextUnit): string {
  if (!t) return "";
  const sides = Object.entries(t).map(([side, n]) => `${side} (${n})`);
  return ` Compared only the first ${maxChars} ${unitName(unit, maxChars)} of ${sides.join(" and ")} (max_chars).`;
}

/** The unit's name, plural unless `count` is 1: "code points", "1 grapheme". */
export function unitName(unit: TextUnit, count = 2): string {
  const name = unit === "grapheme" ? "grapheme" : "code point";
  return count === 1 ? name : `${name}s`;
}

/** The edit distance of two texts under the Levenshtein evaluators' rules, with the lengths compared. */
interface Edits {
  distance: number;
  outputLength: number;
  expectedLength: number;
  truncated: EditTexts["truncated"];
}

/**
 * The work an uncapped distance may take, in 64-unit word steps of the bit-parallel algorithm (about
 * 10 to 40 s on one core): past it, on texts that differ nearly everywhere, it would run for hours (two
 * unrelated 50 MB texts: about 4·10^13 steps, a day). See {@link measureEdits}.
 */
export const EDIT_WORK_BUDGET = 2 ** 33;

/**
 * Applies {@link prepareEditTexts}, then measures the Levenshtein distance and both lengths in `unit`.
 *
 * With `budget` (word steps; levenshtein_distance's when `max_chars` is unset), a pair whose worst case
 * exceeds it (⌈m/64⌉·n steps on the m and n UTF-16 units left once their common start and end are
 * stripped) is measured with a bound k = ⌊(64·budget/n − 1)/2⌋, whose Ukkonen band costs about the
 * budget: the distance is exact when it is at most k, and otherwise an INPUT_INVALID error for that
 * row says so and how to get it (a cap, or `max_chars: 0` for no budget), rather than a run that never ends.
 */
export function measureEdits(
  output: string,
  expected: string,
  opts: { caseSensitive: boolean; maxChars: number | undefined; unit: TextUnit; budget?: number },
): Edits {
  const texts = prepareEditTexts(output, expected, opts);
  // Without a budget (levenshtein, or max_chars set), no work beyond the distance's own.
  const stripped = opts.budget === undefined ? undefined : strip(texts.output, texts.expected);
  const [m, n] = stripped ? [Math.min(stripped.a, stripped.b), Math.max(stripped.a, stripped.b)] : [0, 0];
  const bounded = opts.budget !== undefined && Math.ceil(m / 64) * n > opts.budget;
  const k = bounded ? Math.max(0, Math.floor(((64 * (opts.budget as number)) / n - 1) / 2)) : Infinity;
  const { distance, outputLength, expectedLength } = distanceAndLengths(texts.output, texts.expected, opts.unit, k);
  if (distance > k && stripped) {
    // Told in the unit max_chars counts, output first: UTF-16 lengths would tell two texts of as many
    // emoji and letters apart as one twice as long as the other.
    const part = (text: string, length: number) => unitLength(text.slice(stripped.start, stripped.start + length), opts.unit).toLocaleString("en-US");
    throw new EvalError(
      "INPUT_INVALID",
      `the output and the expected output differ over ${part(texts.output, stripped.a)} and ${part(texts.expected, stripped.b)} ${unitName(opts.unit)} ` +
        `(past their common start and end) by more than ` +
        `${k.toLocaleString("en-US")} edits: the exact distance would take up to ${(Math.ceil(m / 64) * n).toExponential(1)} steps of 64 characters, ` +
        `past the budget of ${(opts.budget as number).toExponential(1)} (tens of seconds); set max_chars to compare the texts' first characters, ` +
        `or max_chars: 0 to compute it however long it takes`,
    );
  }
  return { distance, outputLength, expectedLength, truncated: texts.truncated };
}

/**
 * The distance (bounded by `k`) and both texts' lengths in `unit`: graphemes are segmented once for all three, where
 * the distance and each length segmented the texts anew (a 20,000-character text, three times).
 */
function distanceAndLengths(a: string, b: string, unit: TextUnit, k: number): { distance: number; outputLength: number; expectedLength: number } {
  if (unit === "grapheme") {
    const [ga, gb] = graphemeIds(a, b);
    return { distance: sequenceDistance(ga, gb, k), outputLength: ga.length, expectedLength: gb.length };
  }
  return { distance: codePointLevenshtein(a, b, k), outputLength: codePointCount(a), expectedLength: codePointCount(b) };
}

/** Where `a` and `b` start to differ, and the UTF-16 lengths of what is left of each once their common start and end are stripped. */
function strip(a: string, b: string): { start: number; a: number; b: number } {
  const { prefix, suffix } = commonAffixes(a, b);
  return { start: prefix, a: a.length - prefix - suffix, b: b.length - prefix - suffix };
}
