import { z } from "zod";
import { jaccardOfDistinct } from "../metrics/jaccard.js";
import { equalWithoutTokens, wordCounts } from "../metrics/tokens.js";
import { defineEvaluator, withVerdict, type ScoreArgs } from "./define.js";
import { explainTokenSets } from "./explain-tokens.js";
import { scoreText } from "./score-text.js";

/**
 * Word-set Jaccard similarity (the "Similarity Match" document): |A ∩ B| / |A ∪ B| over the sets of
 * word tokens (runs of Unicode letters, marks and numbers), unrounded, in [0, 1].
 * Passes iff score >= threshold: the document's "exceeds" is read as "meets or exceeds", so that
 * identical answers (1.0) can pass a threshold of 1. When neither text has a word, 1.0 if the texts
 * are equal after the case rule and white-space collapsing, else 0.0; when only one has words, 0.0.
 * Defaults: threshold 0.5 (`similarity_threshold` accepted as an alias), case-insensitive.
 */
export const jaccardSimilarityEvaluator = defineEvaluator({
  type: "jaccard_similarity",
  title: "Similarity Match",
  description: "Jaccard overlap of the two texts' word sets: |intersection| / |union|.",
  direction: "maximize",
  scores: { min: 0, max: 1 },
  aliases: { similarity_threshold: "threshold" },
  config: {
    threshold: z.number().min(0).max(1).default(0.5).describe("Minimum similarity to pass (alias: similarity_threshold)"),
    case_sensitive: z.boolean().default(false).describe("Compare words case-sensitively"),
  },
  create(config) {
    const measure = ({ output, expected }: ScoreArgs) => {
      // The count Maps' keys are the word sets (shared with tfidf_similarity on the same row).
      const a = wordCounts(output, config.case_sensitive);
      const b = wordCounts(expected, config.case_sensitive);
      let score: number;
      if (a.size === 0 && b.size === 0) score = equalWithoutTokens(output, expected, config.case_sensitive) ? 1 : 0;
      else if (a.size === 0 || b.size === 0) score = 0;
      else score = jaccardOfDistinct(a, b);
      return { a, b, score, passed: score >= config.threshold };
    };
    return withVerdict((args) => {
      const { a, b, score, passed } = measure(args);
      const tokens = explainTokenSets(a, b);
      const shared = tokens.shared_count;
      let why: string;
      if (a.size === 0 && b.size === 0) {
        why = `Neither text has a word; the texts are ${score === 1 ? "equal" : "different"}, so the score is ${score.toFixed(1)}.`;
      } else if (a.size === 0 || b.size === 0) {
        why = `The ${a.size === 0 ? "output" : "expected output"} has no words, so the score is 0.0.`;
      } else {
        const shown = scoreText(score, 4, config.threshold, passed);
        why = `${shared} shared word${shared === 1 ? "" : "s"} out of ${a.size + b.size - shared} distinct: Jaccard ${shown}.`;
      }
      return {
        score,
        passed,
        reasoning: `${why} ${passed ? "Meets" : "Below"} the threshold ${config.threshold}.`,
        details: Object.assign(tokens, { output_words: a.size, expected_words: b.size }),
      };
    }, measure);
  },
});
