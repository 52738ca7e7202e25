import { z } from "zod";
import { jaccardSimilarity } from "../metrics/jaccard.js";
import { wordTokens } from "../metrics/tokens.js";
import { defineEvaluator } from "./define.js";
import { explainTokenSets } from "./explain-tokens.js";
import { scoreText } from "./score-text.js";

/**
 * Word-set Jaccard similarity (the "Similarity Match" document): |A ∩ B| / |A ∪ B| over the sets of
 * word tokens (runs of Unicode letters, marks and numbers), unrounded, in [0, 1].
 * Passes iff score >= threshold: the document's "exceeds" is read as "meets or exceeds", so that
 * identical answers (1.0) can pass a threshold of 1. When neither text has a word, 1.0 if the texts
 * are equal after the case rule, else 0.0; when only one has words, 0.0.
 * Defaults: threshold 0.5 (`similarity_threshold` accepted as an alias), case-insensitive.
 */
export const jaccardSimilarityEvaluator = defineEvaluator({
  type: "jaccard_similarity",
  title: "Similarity Match",
  description: "Jaccard overlap of the two texts' word sets: |intersection| / |union|.",
  direction: "maximize",
  aliases: { similarity_threshold: "threshold" },
  config: {
    threshold: z.number().min(0).max(1).default(0.5).describe("Minimum similarity to pass (alias: similarity_threshold)"),
    case_sensitive: z.boolean().default(false).describe("Compare words case-sensitively"),
  },
  create(config) {
    return ({ output, expected }) => {
      const a = new Set(wordTokens(output, config.case_sensitive));
      const b = new Set(wordTokens(expected, config.case_sensitive));
      const tokens = explainTokenSets(a, b);
      const shared = tokens.shared_count;
      let score: number;
      let why: string;
      if (a.size === 0 && b.size === 0) {
        const equal = config.case_sensitive ? output === expected : output.toLowerCase() === expected.toLowerCase();
        score = equal ? 1 : 0;
        why = `Neither text has a word; the texts are ${equal ? "equal" : "different"}, so the score is ${score.toFixed(1)}.`;
      } else if (a.size === 0 || b.size === 0) {
        score = 0;
        why = `The ${a.size === 0 ? "output" : "expected output"} has no words, so the score is 0.0.`;
      } else {
        score = jaccardSimilarity(a, b);
        const shown = scoreText(score, 4, config.threshold, score >= config.threshold);
        why = `${shared} shared word${shared === 1 ? "" : "s"} out of ${a.size + b.size - shared} distinct: Jaccard ${shown}.`;
      }
      const passed = score >= config.threshold;
      return {
        score,
        passed,
        reasoning: `${why} ${passed ? "Meets" : "Below"} the threshold ${config.threshold}.`,
        details: Object.assign(tokens, { output_words: a.size, expected_words: b.size }),
      };
    };
  },
});
