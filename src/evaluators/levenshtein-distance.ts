import { z } from "zod";
import { defineEvaluator, withVerdict, type ScoreArgs } from "./define.js";
import { EDIT_WORK_BUDGET, measureEdits, truncationNote, unitName } from "./edit-text.js";

/**
 * Raw Levenshtein edit count (the "Levenshtein distance" documents): the minimum number of
 * single-unit insertions, deletions and substitutions; 0 = identical; lower is better.
 * With an integer `threshold`, passes iff distance <= threshold; without one, no verdict.
 * Defaults: case-sensitive, no threshold, no cap (`max_chars` unset), unit code points. Unset, the
 * distance must fit a work budget ({@link EDIT_WORK_BUDGET}: only texts of megabytes that differ nearly
 * everywhere do not, and are that row's error); `max_chars: 0` lifts it.
 */
export const levenshteinDistanceEvaluator = defineEvaluator({
  type: "levenshtein_distance",
  title: "Levenshtein Distance",
  description: "The raw number of single-unit edits (code points, or graphemes with unit: \"grapheme\") between output and expected; lower is better.",
  direction: "minimize",
  scores: { min: 0, max: Number.POSITIVE_INFINITY, whole: true },
  config: {
    threshold: z.number().int().min(0).optional().describe("Maximum allowed distance to pass (no verdict when unset)"),
    case_sensitive: z.boolean().default(true).describe("Compare case-sensitively"),
    max_chars: z.number().int().min(0).optional().describe("Cap on each original text, in units (unset = no cap within a work budget of tens of seconds; 0 = no cap at all)"),
    unit: z.enum(["code_point", "grapheme"]).default("code_point").describe("What one edit is: a code point or a grapheme cluster"),
  },
  create(config) {
    const threshold = config.threshold;
    const measure = ({ output, expected }: ScoreArgs) => {
      // Unset max_chars is no cap within a work budget; 0 asks for no cap at all.
      const budget = config.max_chars === undefined ? EDIT_WORK_BUDGET : undefined;
      const edits = measureEdits(output, expected, { caseSensitive: config.case_sensitive, maxChars: config.max_chars, unit: config.unit, ...(budget ? { budget } : {}) });
      return { edits, score: edits.distance, passed: threshold === undefined ? null : edits.distance <= threshold };
    };
    return withVerdict((args) => {
      const { edits, passed } = measure(args);
      const { distance, outputLength, expectedLength, truncated } = edits;
      const verdict =
        threshold === undefined
          ? "no threshold is set, so there is no verdict"
          : `${passed ? "within" : "above"} the maximum of ${threshold}`;
      return {
        score: distance,
        passed,
        reasoning:
          // "Identical" only of whole texts: when max_chars cut them, a difference may lie past the cut.
          `${distance === 0 && !truncated ? "Identical: 0 edits" : `${distance} edit${distance === 1 ? "" : "s"} (${unitName(config.unit)})`} ` +
          // As levenshtein does: "Identical" of "PARIS" and "paris" holds only under the case rule.
          `needed to turn the output into the expected output; ${verdict}${config.case_sensitive ? "" : " (case-insensitive)"}.` +
          truncationNote(truncated, config.max_chars, config.unit),
        details: {
          distance,
          direction: "minimize",
          output_length: outputLength,
          expected_length: expectedLength,
          unit: config.unit,
          threshold: threshold ?? null,
          truncated,
        },
      };
    }, measure);
  },
});
