import type { EvaluatorDefinition } from "./define.js";
import { exactMatchEvaluator } from "./exact-match.js";
import { jaccardSimilarityEvaluator } from "./jaccard-similarity.js";
import { levenshteinDistanceEvaluator } from "./levenshtein-distance.js";
import { levenshteinEvaluator } from "./levenshtein.js";
import { semanticSimilarityEvaluator } from "./semantic-similarity.js";
import { tfidfSimilarityEvaluator } from "./tfidf-similarity.js";

/**
 * The one list of evaluators. `simeval list`, the docs and spec validation all derive from it:
 * to add an evaluator, write its file and add one line here.
 */
export const evaluators: readonly EvaluatorDefinition[] = [
  exactMatchEvaluator,
  levenshteinEvaluator,
  levenshteinDistanceEvaluator,
  jaccardSimilarityEvaluator,
  tfidfSimilarityEvaluator,
  semanticSimilarityEvaluator,
];

const byType = new Map(evaluators.map((e) => [e.type, e]));

/** The definition registered under `type`, or undefined. */
export function findEvaluator(type: string): EvaluatorDefinition | undefined {
  return byType.get(type);
}

export const evaluatorTypes: readonly string[] = evaluators.map((e) => e.type);
