import { createEvaluators, type Evaluator } from "../evaluators/create.js";
import type { EvaluatorEnv } from "../evaluators/define.js";
import { builtinEmbeddingProviders } from "../embeddings/registry.js";
import { sqliteEmbeddingCache } from "../embeddings/sqlite-cache.js";
import { openSqliteStore } from "../storage/sqlite.js";

/** Everything a scorer (inline or on a worker thread) needs to build its evaluators; plain data only. */
export interface ScorerInit {
  specs: unknown[];
  /** How many worst rows per evaluator to keep for reports. */
  worst: number;
  /** Document frequencies fitted on the dataset (for `idf: "dataset"`). */
  idf?: { n: number; df: [string, number][] };
  /** The run database, whose embedding cache embedding evaluators share across threads and runs. */
  db?: string;
}

/** A thread's evaluators, and what to close when the thread is done with them. */
export interface ScorerEvaluators {
  evaluators: Evaluator[];
  close(): void;
}

/** Builds the evaluators of a run from plain data, the same way on every thread. */
export function evaluatorsFor(init: ScorerInit): ScorerEvaluators {
  const env: EvaluatorEnv = { embeddingProviders: builtinEmbeddingProviders };
  if (init.idf) {
    const df = new Map(init.idf.df);
    env.datasetIdf = { n: init.idf.n, df: (t) => df.get(t) ?? 0 };
  }
  // Only embedding evaluators use the cache: other runs open no database connection per thread.
  const embeds = init.specs.some((s) => (s as { type?: unknown }).type === "semantic_similarity");
  const store = embeds && init.db ? openSqliteStore(init.db) : undefined;
  if (store) env.embeddingCache = sqliteEmbeddingCache(store);
  try {
    return { evaluators: createEvaluators(init.specs, env), close: () => store?.close() };
  } catch (error) {
    store?.close();
    throw error;
  }
}
