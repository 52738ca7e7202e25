import { createEvaluators, type Evaluator } from "../evaluators/create.js";
import type { EvaluatorEnv } from "../evaluators/define.js";
import { builtinEmbeddingProviders } from "../embeddings/registry.js";

/** Everything a scorer (inline or on a worker thread) needs to build its evaluators; plain data only. */
export interface ScorerInit {
  specs: unknown[];
  /** How many worst rows per evaluator to keep for reports. */
  worst: number;
  /** Document frequencies fitted on the dataset (for `idf: "dataset"`). */
  idf?: { n: number; df: [string, number][] };
}

/** Builds the evaluators of a run from plain data, the same way on every thread. */
export function evaluatorsFor(init: ScorerInit): Evaluator[] {
  const env: EvaluatorEnv = { embeddingProviders: builtinEmbeddingProviders };
  if (init.idf) {
    const df = new Map(init.idf.df);
    env.datasetIdf = { n: init.idf.n, df: (t) => df.get(t) ?? 0 };
  }
  return createEvaluators(init.specs, env);
}
