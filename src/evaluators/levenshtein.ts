import { z } from "zod";
import { roundFractionHalfUp } from "../metrics/rounding.js";
import { defineEvaluator, withVerdict, type ScoreArgs } from "./define.js";
import { measureEdits, truncationNote, unitName } from "./edit-text.js";
import { scoreText } from "./score-text.js";

/**
 * Normalised Levenshtein similarity (the "Levenshtein" document).
 *
 * score = 1 - distance / max(len(output), len(expected)), rounded half-up to 2 decimals from the
 * exact fraction; both empty = 1.0. Passes iff the rounded score >= threshold. The reasoning writes the
 * fraction with "≈" when rounding changed it ("1 - 1/12 ≈ 0.92"), "=" when it is exact ("1 - 8/10 = 0.20").
 * Defaults: threshold 0.7, case-insensitive, max_chars 10000 (0 = no cap), unit code points.
 */
export const levenshteinEvaluator = defineEvaluator({
  type: "levenshtein",
  title: "Levenshtein",
  description: "Edit distance normalised to a 0–1 similarity: 1 - distance / max_length, rounded to 2 decimals.",
  direction: "maximize",
  scores: { min: 0, max: 1 },
  config: {
    threshold: z.number().min(0).max(1).default(0.7).describe("Minimum rounded similarity to pass"),
    case_sensitive: z.boolean().default(false).describe("Compare case-sensitively"),
    max_chars: z.number().int().min(0).default(10_000).describe("Cap on each original text, in units (0 = no cap)"),
    unit: z.enum(["code_point", "grapheme"]).default("code_point").describe("What one edit is: a code point or a grapheme cluster"),
  },
  create(config) {
    const measure = ({ output, expected }: ScoreArgs) => {
      const edits = measureEdits(output, expected, { caseSensitive: config.case_sensitive, maxChars: config.max_chars, unit: config.unit });
      const maxLength = Math.max(edits.outputLength, edits.expectedLength);
      const score = maxLength === 0 ? 1 : roundFractionHalfUp(maxLength - edits.distance, maxLength, 2);
      return { edits, maxLength, score, passed: score >= config.threshold };
    };
    return withVerdict((args) => {
      const { edits, maxLength, score, passed } = measure(args);
      const { distance, outputLength, expectedLength, truncated } = edits;
      // "≈" where rounding to 2 decimals changed the fraction ("1 - 1/200 ≈ 1.00"), "=" where it is exact.
      const exact = ((maxLength - distance) * 100) % maxLength === 0;
      const formula =
        maxLength === 0 ? "both texts are empty, so the similarity is 1.0" : `1 - ${distance}/${maxLength} ${exact ? "=" : "≈"} ${scoreText(score, 2, config.threshold, passed)}`;
      return {
        score,
        passed,
        reasoning:
          `Edit distance ${distance} over at most ${maxLength} ${unitName(config.unit, maxLength)}: ${formula}, ` +
          `${passed ? "meets" : "is below"} the threshold ${config.threshold}` +
          `${config.case_sensitive ? "" : " (case-insensitive)"}.` +
          truncationNote(truncated, config.max_chars, config.unit),
        details: {
          distance,
          output_length: outputLength,
          expected_length: expectedLength,
          max_length: maxLength,
          truncated,
        },
      };
    }, measure);
  },
});
