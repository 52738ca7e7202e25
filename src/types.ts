/**
 * The shared vocabulary: what an evaluator reads and what it returns. The CLI, the dataset runner and
 * the (future) service all send {@link EvalResult} as it is, and store it keyed by its name, without it
 * (`StoredResult` in run/types.ts), or an evaluator's failure in its place (`ResultError`).
 */

/** One thing to score: a dataset row or a trace. Anything else in it is reachable through JSONPath. */
export interface EvalRecord {
  id?: unknown;
  input?: unknown;
  output?: unknown;
  expected?: unknown;
  /** A trace carries its reference as `metadata.expectedOutput`. */
  metadata?: unknown;
  [key: string]: unknown;
}

/** Whether a higher or a lower score is better. */
export type Direction = "maximize" | "minimize";

/** What every evaluator returns. */
export interface EvalResult {
  /** The spec's `name`, defaulting to its type. */
  name: string;
  type: string;
  /** The score; `null` only where 0 would be misleading (a skipped `levenshtein_distance`). */
  score: number | null;
  /** `null` when the evaluator gives no verdict (e.g. `levenshtein_distance` without a threshold). */
  passed: boolean | null;
  label: "pass" | "fail" | null;
  /** One or two sentences a person can read. */
  reasoning: string;
  /** True only when there was nothing to compare (no expected output). */
  skipped: boolean;
  /** What explains the score: distances, lengths, tokens, truncation... */
  details: Record<string, unknown>;
}
