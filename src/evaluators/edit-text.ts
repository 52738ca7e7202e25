import { levenshteinDistance, unitLength, type TextUnit } from "../metrics/levenshtein.js";
import { unitPrefixEnd } from "../metrics/text-units.js";

/** The texts the two Levenshtein evaluators compare, after their truncation and case rules. */
export interface EditTexts {
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
    const length = unitLength(text, opts.unit);
    if (length <= max) return text;
    truncated = { ...(truncated || {}), [side]: length };
    return text.slice(0, unitPrefixEnd(text, max, opts.unit));
  };
  let a = cut(output, "output");
  let b = cut(expected, "expected");
  if (!opts.caseSensitive) {
    a = a.toLowerCase();
    b = b.toLowerCase();
  }
  return { output: a, expected: b, truncated };
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
export interface Edits {
  distance: number;
  outputLength: number;
  expectedLength: number;
  truncated: EditTexts["truncated"];
}

/** Applies {@link prepareEditTexts}, then measures the Levenshtein distance and both lengths in `unit`. */
export function measureEdits(output: string, expected: string, opts: { caseSensitive: boolean; maxChars: number | undefined; unit: TextUnit }): Edits {
  const texts = prepareEditTexts(output, expected, opts);
  return {
    distance: levenshteinDistance(texts.output, texts.expected, { unit: opts.unit }),
    outputLength: unitLength(texts.output, opts.unit),
    expectedLength: unitLength(texts.expected, opts.unit),
    truncated: texts.truncated,
  };
}
