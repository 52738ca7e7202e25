import { createEvaluators, type Evaluator } from "../evaluators/create.js";
import type { EvaluatorEnv } from "../evaluators/define.js";
import { builtinEmbeddingProviders } from "../embeddings/registry.js";
import { sqliteEmbeddingCache, type EmbeddingStore } from "../embeddings/sqlite-cache.js";
import { unfittedIdf } from "./idf.js";
import type { IdfTable } from "../metrics/tfidf.js";

/** Everything a scorer (inline or on a worker thread) needs to build its evaluators; plain data only. */
export interface ScorerInit {
  specs: unknown[];
  /** How many worst rows per evaluator to keep for reports. */
  worst: number;
  /** False when nothing keeps the rows' results (no results file, no store): rows are scored by verdict alone. */
  explain: boolean;
  /** The run database, whose embedding cache embedding evaluators share across threads and runs. */
  db?: string;
}

/** Document frequencies fitted on the dataset (for `idf: "dataset"`), as plain data for the scoring threads. */
interface FittedIdf {
  n: number;
  df: [string, number][];
}

/** Each `idf: "dataset"` evaluator's fitted table, by evaluator name. */
export type FittedIdfs = Record<string, FittedIdf>;

/** A thread's evaluators, and what to close when the thread is done with them. */
interface ScorerEvaluators {
  evaluators: Evaluator[];
  /**
   * Gives `idf: "dataset"` evaluators their fitted tables. They come after the evaluators are built and
   * ready, so that a file they cannot load stops the run before the fitting pass reads the dataset.
   */
  setIdf(idfs: FittedIdfs): void;
  close(): void;
}

/**
 * What a library caller of `runDataset` may give the evaluators of a run scored on its own thread: its own embedding
 * providers (replacing the built-in ones) or embedding cache (see {@link EvaluatorEnv}).
 */
export type RunEnv = Pick<EvaluatorEnv, "embeddingProviders" | "embeddingCache">;

/** Opens the run database for the embedding cache (`openSqliteStore`); see {@link usesCacheDb}. */
export type OpenCacheDb = (path: string) => EmbeddingStore & { closeNow(): void };

/**
 * Whether a scorer of `init` keeps embeddings in the run database: it has an embedding evaluator and a database.
 * Only such a scorer needs {@link OpenCacheDb}: a scoring thread of another run loads no SQLite (about a third
 * of its start-up).
 */
export function usesCacheDb(init: ScorerInit): boolean {
  return init.db !== undefined && init.specs.some((s) => (s as { type?: unknown }).type === "semantic_similarity");
}

/**
 * Builds the evaluators of a run from plain data, the same way on every thread; `notice` is {@link EvaluatorEnv.notice};
 * `env` (on the calling thread only) a caller's own providers or cache; `openDb` opens the embedding cache's
 * database when {@link usesCacheDb} (and `env` has no cache of its own).
 */
export function evaluatorsFor(init: ScorerInit, notice?: (message: string) => void, runEnv: RunEnv = {}, openDb?: OpenCacheDb): ScorerEvaluators {
  // One table per evaluator, which each holds from its creation on and which is filled in place.
  const tables = new Map<string, IdfTable>();
  const datasetIdf = (name: string): IdfTable => {
    let table = tables.get(name);
    if (!table) tables.set(name, (table = unfittedIdf()));
    return table;
  };
  const env: EvaluatorEnv = { embeddingProviders: builtinEmbeddingProviders, ...runEnv, datasetIdf, ...(notice ? { notice } : {}) };
  const setIdf = (idfs: FittedIdfs): void => {
    for (const [name, idf] of Object.entries(idfs)) {
      const df = new Map(idf.df);
      const table = datasetIdf(name);
      table.n = idf.n;
      table.df = (t) => df.get(t) ?? 0;
    }
  };
  // Only embedding evaluators use the cache: other runs open no database connection per thread.
  let store: ReturnType<OpenCacheDb> | undefined;
  if (usesCacheDb(init) && !runEnv.embeddingCache) {
    if (!openDb) throw new Error("evaluatorsFor: the embedding cache's database is to be opened, and no openDb was given");
    store = openDb(init.db as string);
    env.embeddingCache = sqliteEmbeddingCache(store);
  }
  try {
    return { evaluators: createEvaluators(init.specs, env), setIdf, close: () => store?.closeNow() };
  } catch (error) {
    store?.closeNow();
    throw error;
  }
}
