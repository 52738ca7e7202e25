/** What {@link compareRuns} returns: per-evaluator differences between two runs on one dataset. */
import type { Direction } from "../types.js";
import type { RowScores } from "../run/row-scores.js";
import type { RowOutcome } from "../run/types.js";

/** One run to compare: a name for messages, and its rows (read once, in any order). */
export interface ComparisonInput {
  name: string;
  /**
   * Rows are matched by `row` number (or by `key`: {@link CompareOptions.pairBy}); their `id`s, where both runs have one, must agree. Each row is an
   * outcome (as a run writes it) or only its scores (as `RunStore.scores` reads them, without parsing
   * the results). Sync or async (a store streams them).
   */
  rows: Iterable<RowOutcome | RowScores> | AsyncIterable<RowOutcome | RowScores>;
  /**
   * For rows read from a file (a results.jsonl), the line of the row last taken from `rows`. A row left out is then
   * said to be at `NAME:LINE`, where it is otherwise said by its place among the rows (`Run "NAME", outcome #N`), which is
   * not its line in a file with blank lines, and which no editor finds.
   */
  line?: () => number | undefined;
}

export interface CompareOptions {
  /**
   * Each evaluator's direction, by name; every evaluator present in both runs needs one: a summary's
   * `evaluators[].direction`, or, for a run without a summary (still running, or killed), its type's,
   * `findEvaluator(spec.type).direction` for each of `RunInfo.evaluators`, which builds no evaluator (no API key).
   */
  directions: Record<string, Direction>;
  /** PRNG seed (an integer, used modulo 2^32); default 1. The same seed gives the same figures. */
  seed?: number | undefined;
  /** Bootstrap resamples and random sign patterns; default 10,000. */
  resamples?: number | undefined;
  /** Significance level; default 0.05. The confidence interval's level is 1 − alpha. */
  alpha?: number | undefined;
  /**
   * How rows of the two runs are paired: `"row"` (the default), by row number, as two runs of one dataset file
   * number them; `"key"`, by their idempotency key (`RowOutcome.key`), as runs a service records from traces number
   * their rows in the order they arrive. By key, run a's rows with a key are held in memory while run b's are read
   * (its keys, ids and scores: about 250 bytes a row with 45-character keys and 2 evaluators, 8 more per evaluator; 243 MB peak RSS on 500,000 such rows, 366 MB on 1,000,000); a row without a key, or with one its run gave
   * an earlier row, is left out with a warning.
   */
  pairBy?: "row" | "key" | undefined;
  /** How many of the most regressed rows to list per evaluator; default 10. */
  worst?: number | undefined;
  /** Called with the rows read so far (both runs together), every 10,000 rows. */
  onProgress?: ((rows: number) => void) | undefined;
  /**
   * Stops the comparison once aborted: it rejects with the signal's reason. Every 10,000 rows, and before each
   * evaluator's figures, the event loop is let turn (with a signal or without), so that a listener that aborts it
   * (a Ctrl-C handler) runs, and a server's other work goes on, even when the rows come from a synchronous source
   * such as the SQLite store.
   */
  signal?: AbortSignal | undefined;
}

/** A row that got worse from run a to run b. */
export interface WorstRow {
  /** Its row number in run a. */
  row: number;
  /** Its row number in run b where rows are paired by key (whether or not it is `row`); absent when paired by row number. */
  row_b?: number;
  id: unknown;
  score_a: number;
  score_b: number;
  /** score_b − score_a. */
  delta: number;
}

/** One evaluator, compared over the rows both runs scored (neither skipped nor an error). */
export interface EvaluatorComparison {
  name: string;
  direction: Direction;
  n_pairs: number;
  mean_a: number | null;
  mean_b: number | null;
  /** mean_b − mean_a; null without pairs. */
  diff: number | null;
  /** Paired percentile-bootstrap interval of the mean difference (b − a), at level 1 − alpha. */
  ci: { low: number; high: number; level: number } | null;
  /** Two-sided p-value of the paired sign-flip permutation test of "mean difference = 0". */
  p_value: number | null;
  /** "exact" when every sign pattern was enumerated (≤ 20 non-zero differences). */
  p_method: "exact" | "monte_carlo" | null;
  /** The run closer to the reference, given the direction; "same" when the interval contains 0. */
  better: "a" | "b" | "same";
  /** p_value < alpha. */
  significant: boolean;
  /** b is worse than a and both tests say so: significant, and the interval excludes 0 on a's side. */
  regressed: boolean;
  /** Per pair, direction-aware; exact equality is unchanged. */
  rows: { improved: number; regressed: number; unchanged: number };
  /** The rows that regressed most, worst first (ties: lower row number first). */
  worst: WorstRow[];
}

/**
 * What {@link compareRuns} returns. `simeval compare --json` prints the same fields (and the runs' labels, each
 * evaluator's type, `verdict.withheld` and `notes`), with row ids as its text shows them.
 */
export interface Comparison {
  a: string;
  b: string;
  /** Rows read from each run (valid row numbers, duplicates left out), rows present in both, and in one only. */
  rows: { a: number; b: number; matched: number; a_only: number; b_only: number };
  /**
   * Null, or how many rows paired (by number, or by key) have ids that disagree between the runs, with a message
   * and the first examples: the runs are probably on different datasets, and no verdict should be drawn. Rows paired
   * by key also give, in each example, the key and the row's number in run b (`row_b`).
   */
  dataset_mismatch: { message: string; rows: number; examples: { row: number; row_b?: number; key?: string; id_a: unknown; id_b: unknown }[] } | null;
  /** Evaluators present in both runs, in run a's order. */
  evaluators: EvaluatorComparison[];
  /**
   * What `--fail-on-regression` fails on: the evaluators on which b is significantly worse than a (`regressed`), and
   * those with no pair at all (no row scored in both runs), on which there is no verdict: a gate that cannot look
   * does not pass. Draw none when {@link dataset_mismatch} is set, or when a run is not complete (it covers only
   * some of its rows), as `simeval compare` withholds it.
   */
  verdict: { regressed_on: string[]; no_verdict_on: string[] };
  only_in_a: string[];
  only_in_b: string[];
  /**
   * One sentence each: evaluators without pairs, evaluators some of whose rows in both runs were not
   * scored in one of them, then rows left out (bad or repeated row numbers: at most 20, then a count).
   */
  warnings: string[];
  settings: { seed: number; resamples: number; alpha: number; worst: number; pair_by: "row" | "key" };
}

