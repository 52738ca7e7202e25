import { z } from "zod";
import { lowerCase } from "../metrics/lower-case.js";
import { codePointCount, isHighSurrogate, isLowSurrogate } from "../metrics/text-units.js";
import { defineEvaluator, withVerdict, type ScoreArgs } from "./define.js";

/**
 * Exact equality (the "Exact Match" document): score 1.0 (pass) or 0.0 (fail).
 * Before comparing: `normalize_whitespace` collapses every run of white space (`\s`: newlines and
 * tabs too, U+FEFF, not U+0085) to one space; `trim` removes it at both ends; unless `case_sensitive`,
 * both sides are lower-cased by {@link lowerCase} (the locale-independent `toLowerCase`, "ς" as "σ").
 * Defaults: case-insensitive, trim on, whitespace normalisation off.
 */
export const exactMatchEvaluator = defineEvaluator({
  type: "exact_match",
  title: "Exact Match",
  description: "1.0 when the output equals the expected output (after the case and white-space options), else 0.0.",
  direction: "maximize",
  scores: { min: 0, max: 1, whole: true },
  config: {
    case_sensitive: z.boolean().default(false).describe("Compare case-sensitively"),
    trim: z.boolean().default(true).describe("Trim leading and trailing white space"),
    normalize_whitespace: z.boolean().default(false).describe("Collapse each run of white space into one space"),
  },
  // Passing means scoring 1.0: reports draw the cutoff there.
  passThreshold: () => 1,
  create(config) {
    const prepare = (text: string): string => {
      let t = config.normalize_whitespace ? text.replace(/\s+/gu, " ") : text;
      if (config.trim) t = t.trim();
      return config.case_sensitive ? t : lowerCase(t);
    };
    const applied = [
      config.case_sensitive ? "case-sensitive" : "case-insensitive",
      config.trim ? "trimmed" : "untrimmed",
      ...(config.normalize_whitespace ? ["white space collapsed"] : []),
    ].join(", ");
    const verdict = ({ output, expected }: ScoreArgs) => {
      const equal = prepare(output) === prepare(expected);
      return { score: equal ? 1 : 0, passed: equal };
    };
    return withVerdict(({ output, expected }) => {
      const a = prepare(output);
      const b = prepare(expected);
      const equal = a === b;
      const at = equal ? null : firstDifference(a, b);
      return {
        score: equal ? 1 : 0,
        passed: equal,
        reasoning: equal
          ? `The output equals the expected output (${applied}).`
          : `The output differs from the expected output at code point ${at} (${applied}).`,
        details: { first_difference: at, compared_output_length: codePointCount(a), compared_expected_length: codePointCount(b) },
      };
    }, verdict);
  },
});

/**
 * Index, in code points, of the first position where the two texts differ (a lone surrogate counts as
 * one code point, as in `Array.from`); the shorter text's length when it is a prefix of the other.
 * Compares UTF-16 units, then steps back one unit when the first differing unit is the low half of a
 * surrogate pair whose high half both texts share, so the index never points inside a pair.
 * O(index) time, O(1) memory: no array of code points is built (texts may be tens of megabytes).
 */
export function firstDifference(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let i = 0;
  while (i < limit && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  // Past the end charCodeAt is NaN, which is never a low surrogate.
  if (i > 0 && isHighSurrogate(a.charCodeAt(i - 1)) && (isLowSurrogate(a.charCodeAt(i)) || isLowSurrogate(b.charCodeAt(i)))) i--;
  return codePointCount(a, 0, i);
}
