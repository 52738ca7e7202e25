import { z } from "zod";
import { argumentError, formatPath, isPlainObject, type Issue } from "../errors.js";
import type { Direction } from "../types.js";
import type { EmbeddingCache } from "../embeddings/cache.js";
import type { EmbeddingProviderFactory } from "../embeddings/provider.js";
import type { IdfTable } from "../metrics/tfidf.js";

/** The two texts an evaluator compares, after input mapping and conversion to text. */
export interface ScoreArgs {
  output: string;
  expected: string;
}

/** A score and its verdict, without the explanation: all that a run's summary needs. */
interface Verdict {
  score: number;
  passed: boolean | null;
}

/** What an evaluator's scorer returns; the shared rules (skips, labels, names) are added around it. */
export interface Scored extends Verdict {
  reasoning: string;
  details: Record<string, unknown>;
}

/**
 * Scores one pair. A scorer that loads something on first use (word vectors, say) may offer `ready()`,
 * which loads it now and rejects with a clear error when it cannot, so that a run fails before its
 * first row rather than on every row. A synchronous scorer may offer `verdict()` (see {@link withVerdict}).
 */
export type Scorer = ((args: ScoreArgs) => Scored | Promise<Scored>) & {
  ready?: () => Promise<void>;
  verdict?: (args: ScoreArgs) => Verdict;
  /** Calls a network service per text (see {@link Evaluator.remote}). */
  remote?: boolean;
};

/**
 * A synchronous scorer with a verdict-only path, for runs that keep only the summary (no results file,
 * no run database): `verdict` must give exactly the score and verdict of `score`, only without building
 * the reasoning and details (held to it by a property test for every evaluator that has one).
 */
export function withVerdict(score: (args: ScoreArgs) => Scored, verdict: (args: ScoreArgs) => Verdict): Scorer {
  return Object.assign(score, { verdict });
}

/**
 * What an evaluator may need from its surroundings, injected instead of read from globals:
 * embedding providers by name, and corpus statistics the dataset runner fitted.
 */
export interface EvaluatorEnv {
  /** Embedding provider factories by name; default: the built-in ones (openai, word_vectors, transformers). */
  embeddingProviders?: Readonly<Record<string, EmbeddingProviderFactory>>;
  /** Shared embedding cache (the runner's store); without one, each `semantic_similarity` keeps its own in memory. */
  embeddingCache?: EmbeddingCache;
  /**
   * Document frequencies fitted on a dataset, for `tfidf_similarity` with `idf: "dataset"`: the table of
   * the evaluator of that name (each tokenises and maps its expected text its own way).
   */
  datasetIdf?: (evaluatorName: string) => IdfTable;
  /**
   * Told what a long wait is for, for a person watching: an embedding provider about to wait seconds
   * before retrying (a rate limit, a server error); and, once, that the embedding cache failed (the texts are
   * embedded all the same), or that word_vectors' `cache_dir` could not be written (the vectors are used all the
   * same), as a message starting `warning: `. Never told anything secret.
   */
  notice?: (message: string) => void;
}

/** Options every evaluator accepts, added to each config schema by {@link defineEvaluator}. */
const commonConfig = {
  /** Unicode normalisation applied to both texts first; none by default (`e` + U+0301 is not `é`). */
  unicode_normalization: z
    .enum(["NFC", "NFKC"])
    .optional()
    .describe("Unicode normalisation of both texts before comparing (none by default)"),
};

export interface EvaluatorDefinition<Config extends Record<string, unknown> = Record<string, unknown>> {
  /** The spec's `type`, snake_case as the documents name it; the file is its kebab-case form. */
  type: string;
  /** The document's name for it. */
  title: string;
  description: string;
  /** Whether higher or lower scores are better. */
  direction: Direction;
  /** The scores it can give, whatever its config (see {@link ScoreRange}). */
  scores: ScoreRange;
  /** Strict schema with every default; the single source for validation, `simeval list` and the docs. */
  config: z.ZodType<Config>;
  /** Deprecated or alternative config keys accepted for a canonical one, e.g. `similarity_threshold`. */
  aliases?: Readonly<Record<string, string>>;
  /**
   * Checks the schema cannot express because they depend on which keys the user gave: `given` is the
   * config as written (aliases resolved), before defaults; `config` is the same completed. Returns the
   * problems, each with its path under `config` and its message (the evaluator is named before it).
   */
  checkConfig?(given: Readonly<Record<string, unknown>>, config: Config): Issue[];
  /** Called once when the evaluator is created, so per-row work stays minimal; `name` is the spec's. */
  create(config: Config, env: EvaluatorEnv, name: string): Scorer;
  /** The score at which a row passes, for reports; default: `config.threshold` when it is a number. */
  passThreshold?(config: Config): number | null;
}

/**
 * The scores an evaluator can give, whatever its config: from `min` to `max` (`Infinity` for no bound), and whole
 * numbers only when `whole`. A results.jsonl score outside it is refused as no score of that type
 * (`compare` would judge it as one).
 */
export interface ScoreRange {
  min: number;
  max: number;
  whole?: true;
}

/**
 * Declares an evaluator; adds {@link commonConfig} to its schema. Throws EvalError (CONFIG_INVALID) naming
 * the first field of `def` that is not what it must be (`def` itself not an object, a `type` that is no
 * string, a `config` entry that is not a Zod schema, a `create` that is not a function): read as given,
 * they threw a TypeError here or at the first `createEvaluator`.
 */
export function defineEvaluator<Shape extends z.ZodRawShape>(def: {
  type: string;
  title: string;
  description: string;
  direction: Direction;
  scores: ScoreRange;
  config: Shape;
  aliases?: Readonly<Record<string, string>>;
  checkConfig?(given: Readonly<Record<string, unknown>>, config: z.output<z.ZodObject<Shape & typeof commonConfig>>): Issue[];
  create(config: z.output<z.ZodObject<Shape & typeof commonConfig>>, env: EvaluatorEnv, name: string): Scorer;
  passThreshold?(config: z.output<z.ZodObject<Shape & typeof commonConfig>>): number | null;
}): EvaluatorDefinition {
  checkDefinition(def);
  const schema = z.strictObject({ ...def.config, ...commonConfig });
  return { ...def, config: schema } as unknown as EvaluatorDefinition;
}

/** The checks of {@link defineEvaluator}: the first problem, as CONFIG_INVALID at its field. */
function checkDefinition(def: unknown): void {
  const bad = (field: string | string[], expected: string, value: unknown) => {
    const path = typeof field === "string" ? (field === "" ? [] : [field]) : field;
    return argumentError("CONFIG_INVALID", "defineEvaluator", formatPath(["def", ...path]), expected, value, path);
  };
  if (!isPlainObject(def)) throw bad("", "an evaluator definition ({ type, title, description, direction, config, create })", def);
  for (const field of ["type", "title", "description"]) {
    if (typeof def[field] !== "string" || (field === "type" && def[field] === "")) throw bad(field, field === "type" ? "a non-empty string" : "a string", def[field]);
  }
  if (def.direction !== "maximize" && def.direction !== "minimize") throw bad("direction", `"maximize" or "minimize"`, def.direction);
  const scores = def.scores;
  if (!isPlainObject(scores) || typeof scores.min !== "number" || typeof scores.max !== "number" || !Number.isFinite(scores.min) || !(scores.max >= scores.min) || (scores.whole !== undefined && scores.whole !== true)) {
    throw bad("scores", "the scores it can give, { min, max, whole? } (a finite min, a max at least min, Infinity for no bound)", scores);
  }
  if (!isPlainObject(def.config)) throw bad("config", "an object of Zod schemas by config key", def.config);
  for (const [key, value] of Object.entries(def.config)) {
    if (!(value instanceof z.ZodType)) throw bad(["config", key], "a Zod schema", value);
  }
  if (def.aliases !== undefined) {
    if (!isPlainObject(def.aliases)) throw bad("aliases", "an object of config key names", def.aliases);
    for (const [key, value] of Object.entries(def.aliases)) if (typeof value !== "string") throw bad(["aliases", key], "a string (a config key)", value);
  }
  if (typeof def.create !== "function") throw bad("create", "a function (config, env, name) => scorer", def.create);
  for (const field of ["checkConfig", "passThreshold"]) {
    if (def[field] !== undefined && typeof def[field] !== "function") throw bad(field, "a function or nothing", def[field]);
  }
}
