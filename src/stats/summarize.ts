/**
 * Per-evaluator summary figures of a run, computed while the rows stream past: each evaluator keeps
 * its scores in a {@link ScoreSet} (in memory, then in a temporary file past {@link memoryValuesEach} scores:
 * 512 KiB up to four evaluators, less past them) so that the median
 * and percentiles are exact while memory stays flat.
 */
import { tmpdir } from "node:os";
import type { Direction } from "../types.js";
import { argumentError, EvalError, isPlainObject, type Issue } from "../errors.js";
import type { EvaluatorSummary, RowOutcome, RunSummary } from "../run/types.js";
import { CELL, packScores, type PackedScores } from "./packed-scores.js";
import { ScoreSet, type ScoreSetOptions } from "./score-set.js";
import { SpillFile } from "./spill-file.js";

/** What the builder needs to know about each evaluator of the run. */
export interface SummaryEvaluator {
  name: string;
  type: string;
  direction: Direction;
  threshold: number | null;
}

export interface SummaryOptions {
  /**
   * Count a skipped row (no expected output) as the documents do: a failed verdict and a score of 0 (not the
   * worst score of every evaluator: a cosine without `rescale` goes down to -1).
   * The score is added only for a "maximize" evaluator whose skipped result carries a score: for a
   * "minimize" one (a distance) 0 would be a perfect score, and a verdict-only evaluator (score null)
   * has no scores to add it to; those add the failed verdict only. An evaluator that gives no
   * verdicts (no threshold, and none given on any row) gets no pass rate from its skipped rows either.
   */
  countSkippedAsZero: boolean;
  /**
   * Where the scores go once they no longer fit in memory: one temporary file in `dir`, shared by all
   * the evaluators. `memoryValues` defaults to {@link memoryValuesEach} of the evaluator count.
   */
  scoreSet?: ScoreSetOptions;
}

/** Scores a summary keeps in memory for all its evaluators together by default: 262,144 (2 MiB). */
const MEMORY_VALUES = 262_144;

/**
 * Scores kept in memory per evaluator before they go to its temporary file:
 * `max(4096, min(65536, floor(262144 / evaluators)))`, so 65,536 (512 KiB) up to four evaluators and
 * 4,096 (32 KiB) past 64, where 65,536 each held 100 MB at 200 evaluators.
 */
export function memoryValuesEach(evaluators: number): number {
  return Math.max(4096, Math.min(65_536, Math.floor(MEMORY_VALUES / Math.max(1, evaluators))));
}

interface Tally {
  spec: SummaryEvaluator;
  scores: ScoreSet;
  skipped: number;
  errors: number;
  passed: number;
  verdicts: number;
  /** Skipped rows to count as failed verdicts (countSkippedAsZero), if the evaluator gives verdicts at all. */
  skippedAsFailed: number;
}

/**
 * Accumulates rows (RowOutcomes, or batches packed by {@link packScores}) into a {@link RunSummary}. Per row and evaluator:
 * - the row could not be read (`outcome.error`): counted once in `row_errors`, nothing per evaluator;
 * - a ResultError, a missing result, or a score that is not a finite number: `errors`;
 * - a skipped result: `skipped` (see {@link SummaryOptions.countSkippedAsZero});
 * - otherwise its score (when not null) joins the statistics and its verdict (when not null) the pass rate.
 *
 * `n` is the number of scores behind mean/median/percentiles (with countSkippedAsZero it includes the
 * zeros given to skipped rows). `pass_rate = passed / verdicts`, `null` when there was no verdict.
 * `finish()` may be called at any time (e.g. for progress) and again later; `close()` deletes the
 * temporary files of a long run.
 */
export class SummaryBuilder {
  private readonly tallies: Tally[];
  private readonly file: SpillFile;
  private readonly names: string[];
  private readonly countSkippedAsZero: boolean;
  private rows = 0;
  private rowErrors = 0;

  /**
   * Throws CONFIG_INVALID when two evaluators share a name (results are keyed by name), or, naming the
   * argument, when `evaluators` is not an array of {@link SummaryEvaluator}s or `opts` not
   * {@link SummaryOptions} (`new SummaryBuilder(5)` threw a TypeError from forEach).
   */
  constructor(evaluators: readonly SummaryEvaluator[], opts: SummaryOptions) {
    checkArguments(evaluators, opts);
    const issues: Issue[] = [];
    const seen = new Set<string>();
    evaluators.forEach((e, i) => {
      if (seen.has(e.name)) issues.push({ path: ["evaluators", i, "name"], message: `evaluators[${i}]: the name "${e.name}" is used twice; results are keyed by name, so names must be unique` });
      seen.add(e.name);
    });
    if (issues.length) throw new EvalError("CONFIG_INVALID", issues.map((i) => i.message).join("; "), { issues });
    // One temporary file for all the evaluators' spilled scores: one descriptor, whatever the evaluator count.
    this.file = new SpillFile(opts.scoreSet?.dir ?? tmpdir());
    const scoreSet = { memoryValues: opts.scoreSet?.memoryValues ?? memoryValuesEach(evaluators.length) };
    this.tallies = evaluators.map((spec) => ({ spec: { ...spec }, scores: new ScoreSet(scoreSet, this.file), skipped: 0, errors: 0, passed: 0, verdicts: 0, skippedAsFailed: 0 }));
    this.names = evaluators.map((e) => e.name);
    this.countSkippedAsZero = opts.countSkippedAsZero;
  }

  /**
   * Adds one row. Throws INPUT_INVALID, naming the field, when `outcome` is not a {@link RowOutcome} as far as the
   * summary reads it: `null`, or `results` or one of this summary's results not an object, threw a TypeError.
   */
  add(outcome: RowOutcome): void {
    checkOutcome(outcome, this.names);
    this.addPacked(packScores([outcome], this.names));
  }

  /** Adds a batch of rows packed (in this builder's evaluator order) by a scoring thread. */
  addPacked(p: PackedScores): void {
    if (p.evaluators !== this.tallies.length) {
      throw new Error(`packed scores for ${p.evaluators} evaluators, but the summary has ${this.tallies.length}`);
    }
    const m = p.evaluators;
    for (let i = 0; i < p.rows; i++) {
      this.rows++;
      if (p.rowErrors[i]) {
        this.rowErrors++;
        continue;
      }
      for (let j = 0; j < m; j++) {
        const t = this.tallies[j] as Tally;
        const cell = p.cells[i * m + j] as number;
        if (cell & CELL.ERROR) t.errors++;
        else if (cell & CELL.SKIPPED) {
          t.skipped++;
          if (this.countSkippedAsZero) {
            t.skippedAsFailed++;
            if (t.spec.direction === "maximize" && cell & CELL.SCORE) t.scores.add(0);
          }
        } else {
          if (cell & CELL.SCORE) t.scores.add(p.scores[i * m + j] as number);
          if (cell & CELL.VERDICT) {
            t.verdicts++;
            if (cell & CELL.PASSED) t.passed++;
          }
        }
      }
    }
  }

  /** The scores behind an evaluator's statistics (e.g. for a histogram); undefined for an unknown name. */
  scores(name: string): ScoreSet | undefined {
    return this.tallies.find((t) => t.spec.name === name)?.scores;
  }

  finish(): RunSummary {
    return {
      rows: this.rows,
      row_errors: this.rowErrors,
      skipped_as_zero: this.countSkippedAsZero,
      evaluators: this.tallies.map((t) => summarizeTally(t)),
    };
  }

  /** Deletes the scores' temporary file; the builder must not be used afterwards. */
  close(): void {
    for (const t of this.tallies) t.scores.close();
    this.file.close();
  }
}

/** CONFIG_INVALID for an argument of the {@link SummaryBuilder} constructor, naming it (`evaluators[0].direction`). */
function argumentInvalid(arg: string, expected: string, value: unknown, path: (string | number)[]): EvalError {
  return argumentError("CONFIG_INVALID", "SummaryBuilder", arg, expected, value, path);
}

/** Throws unless the constructor's arguments are of their kinds: each evaluator's fields, and the options' (shallow). */
function checkArguments(evaluators: unknown, opts: unknown): void {
  const shape = "{ name, type, direction, threshold }";
  if (!Array.isArray(evaluators)) throw argumentInvalid("evaluators", `an array of evaluators (${shape})`, evaluators, ["evaluators"]);
  evaluators.forEach((e: unknown, i) => {
    if (!isPlainObject(e)) throw argumentInvalid(`evaluators[${i}]`, `an evaluator (${shape})`, e, ["evaluators", i]);
    const { name, type, direction, threshold } = e as Record<string, unknown>;
    const field = (key: string, expected: string, value: unknown) => argumentInvalid(`evaluators[${i}].${key}`, expected, value, ["evaluators", i, key]);
    if (typeof name !== "string") throw field("name", "a string", name);
    if (typeof type !== "string") throw field("type", "a string", type);
    if (direction !== "maximize" && direction !== "minimize") throw field("direction", '"maximize" or "minimize"', direction);
    if (threshold !== null && typeof threshold !== "number") throw field("threshold", "a number or null", threshold);
  });
  if (!isPlainObject(opts)) throw argumentInvalid("opts", "an object ({ countSkippedAsZero, scoreSet? })", opts, ["opts"]);
  const { countSkippedAsZero, scoreSet } = opts as Record<string, unknown>;
  if (typeof countSkippedAsZero !== "boolean") throw argumentInvalid("opts.countSkippedAsZero", "a boolean", countSkippedAsZero, ["opts", "countSkippedAsZero"]);
  if (scoreSet !== undefined && !isPlainObject(scoreSet)) {
    throw argumentInvalid("opts.scoreSet", "an object ({ memoryValues?, dir? }) or nothing", scoreSet, ["opts", "scoreSet"]);
  }
  const { memoryValues, dir } = (scoreSet ?? {}) as Record<string, unknown>;
  if (memoryValues !== undefined && !(Number.isSafeInteger(memoryValues) && (memoryValues as number) >= 1)) {
    throw argumentInvalid("opts.scoreSet.memoryValues", "a whole number of at least 1 or nothing", memoryValues, ["opts", "scoreSet", "memoryValues"]);
  }
  if (dir !== undefined && typeof dir !== "string") throw argumentInvalid("opts.scoreSet.dir", "a folder path or nothing", dir, ["opts", "scoreSet", "dir"]);
}

/** Throws unless `o` is an object with an `error`, or with `results` holding an object or nothing for each of `names`. */
function checkOutcome(o: unknown, names: readonly string[]): void {
  const bad = (arg: string, expected: string, value: unknown) => argumentError("INPUT_INVALID", "SummaryBuilder.add", arg, expected, value);
  if (!isPlainObject(o)) throw bad("outcome", "a row outcome ({ row, id, results } or { row, error })", o);
  if (o.error !== undefined) return;
  const results = o.results;
  if (!isPlainObject(results)) throw bad("outcome.results", "an object of results by evaluator name", results);
  for (const name of names) {
    const r = results[name];
    if (r !== undefined && !isPlainObject(r)) throw bad(`outcome.results[${JSON.stringify(name)}]`, "an evaluator's result ({ score, passed, skipped, … } or { error }) or nothing", r);
  }
}

function summarizeTally(t: Tally): EvaluatorSummary {
  const scores = t.scores;
  const [median, p10, p90] = scores.quantiles([0.5, 0.1, 0.9]);
  // An evaluator without a threshold (a distance alone) passes or fails nothing, skipped rows included.
  const givesVerdicts = t.spec.threshold !== null || t.verdicts > 0;
  const verdicts = t.verdicts + (givesVerdicts ? t.skippedAsFailed : 0);
  return {
    name: t.spec.name,
    type: t.spec.type,
    direction: t.spec.direction,
    threshold: t.spec.threshold,
    n: scores.length,
    skipped: t.skipped,
    errors: t.errors,
    mean: scores.mean(),
    median: median ?? null,
    p10: p10 ?? null,
    p90: p90 ?? null,
    min: scores.min(),
    max: scores.max(),
    pass_rate: verdicts ? t.passed / verdicts : null,
    verdicts,
  };
}
