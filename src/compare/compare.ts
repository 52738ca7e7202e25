/**
 * Compares two runs on the same dataset, evaluator by evaluator, on the rows both runs scored: mean
 * difference, a bootstrap confidence interval, a permutation-test p-value, and the rows that got worse.
 */
import { argumentError, describeValue, EvalError, isPlainObject, type Issue } from "../errors.js";
import { scoresOfOutcome, type RowScores } from "../run/row-scores.js";
import type { RowOutcome } from "../run/types.js";
import { bootstrapMeanInterval } from "../stats/bootstrap.js";
import { Float64Buffer } from "../stats/float64-buffer.js";
import { Xoshiro128, hashString } from "../stats/prng.js";
import { toText } from "../mapping/to-text.js";
import { CompensatedSum } from "../stats/quantiles.js";
import { signFlipTest } from "../stats/sign-flip.js";
import type { Direction } from "../types.js";
import type { CompareOptions, Comparison, ComparisonInput, EvaluatorComparison } from "./types.js";
import { MostRegressed } from "./most-regressed.js";
import { evaluatorList } from "./evaluator-list.js";

export type { CompareOptions, Comparison, ComparisonInput, EvaluatorComparison, WorstRow } from "./types.js";

/** Row numbers above this are refused: per-row arrays are indexed by row number (2^28 rows = 2 GiB). */
const MAX_ROW = 2 ** 28;
const MAX_WARNINGS = 20;
const MAX_MISMATCH_EXAMPLES = 5;
/** How often {@link CompareOptions.onProgress} is called, in rows read. */
const PROGRESS_EVERY = 10_000;

/**
 * Compares run b against run a (the baseline) on the same dataset. For each evaluator present in both
 * runs, rows are paired by row number where both runs have a score (neither skipped nor an error), and:
 * - `diff` = mean_b − mean_a;
 * - `ci`: paired percentile bootstrap of the mean difference b − a, at level 1 − alpha, from
 *   `resamples` resamples of the pairs (see {@link bootstrapMeanInterval});
 * - `p_value`: two-sided paired sign-flip permutation test of "mean difference = 0" (see
 *   {@link signFlipTest}): exact with ≤ 20 non-zero differences, else `resamples` random sign patterns
 *   with p = (1 + #{|T*| ≥ |T|}) / (1 + resamples). It needs no normality and holds for bounded and
 *   discrete scores (0/1 exact match, rounded similarities), where a paired t-test is only approximate;
 * - `better`: the run the interval favours given the direction, "same" when it contains 0;
 * - `regressed`: b is significantly worse (p < alpha) and the interval agrees (better = "a"); asking
 *   both keeps a CI gate from firing on a p-value at the edge, and vice versa.
 * Randomness comes from xoshiro128** seeded with (seed, evaluator name), so figures are reproducible
 * and one evaluator's figures do not change when others are added.
 *
 * An evaluator without a single pair has null figures, `better: "same"`, `regressed: false`, and a
 * warning (see {@link noPairsWarning}): callers that gate must treat `n_pairs: 0` as no verdict.
 *
 * Rows in one run only are counted in `unmatched`; rows in both that one run did not score for an evaluator
 * are left out of its pairs, with a warning giving how many per run (see {@link unpairedWarnings}). When a row number has different ids in the two runs
 * the comparison is still made, with `dataset_mismatch: true` and a message: the caller decides.
 * Rows that are not objects, or have a bad or repeated row number, are left out with a warning; a long run never fails on one row.
 * Throws CONFIG_INVALID for bad options, or when an evaluator in both runs has no direction, and
 * INPUT_INVALID, naming the argument, for a run that is not `{ name, rows }` (`compareRuns()` threw a
 * TypeError reading `seed`); the rows themselves are read as given.
 *
 * Memory: run a's scores are kept in one Float64Array per evaluator indexed by row number, where run b,
 * streamed, writes each pair's difference over run a's score: 8 bytes per row and evaluator.
 */
export async function compareRuns(a: ComparisonInput, b: ComparisonInput, opts: CompareOptions): Promise<Comparison> {
  checkRun("a", a);
  checkRun("b", b);
  if (!isPlainObject(opts)) {
    throw argumentInvalid("CONFIG_INVALID", "opts", "an object ({ directions, seed?, resamples?, alpha?, worst?, onProgress?, signal? })", opts);
  }
  if (opts.onProgress !== undefined && typeof opts.onProgress !== "function") throw argumentInvalid("CONFIG_INVALID", "opts.onProgress", "a function or nothing", opts.onProgress);
  if (opts.signal !== undefined && !(opts.signal instanceof AbortSignal)) throw argumentInvalid("CONFIG_INVALID", "opts.signal", "an AbortSignal or nothing", opts.signal);
  opts.signal?.throwIfAborted();
  const settings = checkOptions(opts);
  const warnings = new Warnings();

  // Run a: scores by evaluator and row number.
  const presentA = new ByteFlags();
  const idsA: unknown[] = [];
  const scoresA = new Map<string, Float64Buffer>();
  let rowsA = 0;
  let position = 0;
  for await (const given of a.rows) {
    if (++position % PROGRESS_EVERY === 0) await progressed(opts, position);
    const outcome = scoresOf(given, a.name, position, warnings);
    const row = outcome && checkRow(outcome, a.name, position, presentA, warnings);
    if (!outcome || row === null) continue;
    rowsA++;
    presentA.set(row);
    if (outcome.id !== undefined && outcome.id !== null) idsA[row] = outcome.id;
    for (const name in outcome.scores) {
      let scores = scoresA.get(name);
      if (!scores) scoresA.set(name, (scores = new Float64Buffer()));
      const score = outcome.scores[name];
      if (Number.isFinite(score)) scores.set(row, score as number);
    }
  }

  // Run b, streamed: pair each score with run a's.
  const presentB = new ByteFlags();
  const namesB: string[] = [];
  const seenB = new Set<string>();
  const pairs = new Map<string, Pairs>();
  let rowsB = 0;
  let matched = 0;
  let mismatched = 0;
  const examples: { row: number; id_a: unknown; id_b: unknown }[] = [];
  const missingDirections: string[] = [];
  // Per evaluator of run a, the rows in both runs that one of them did not score (skipped or an error), per side.
  const unscored = new Map<string, { a: number; b: number }>();
  const readA = position;
  position = 0;
  for await (const given of b.rows) {
    if (++position % PROGRESS_EVERY === 0) await progressed(opts, readA + position);
    const outcome = scoresOf(given, b.name, position, warnings);
    const row = outcome && checkRow(outcome, b.name, position, presentB, warnings);
    if (!outcome || row === null) continue;
    rowsB++;
    presentB.set(row);
    const inA = presentA.has(row);
    const idA = idsA[row];
    const idB = outcome.id;
    if (inA) {
      matched++;
      if (idA !== undefined && idB !== undefined && idB !== null && !sameId(idA, idB)) {
        mismatched++;
        if (examples.length < MAX_MISMATCH_EXAMPLES) examples.push({ row, id_a: idA, id_b: idB });
      }
      for (const [name, scores] of scoresA) {
        const noA = Number.isNaN(scores.get(row));
        const noB = !Number.isFinite(outcome.scores[name]);
        if (!noA && !noB) continue;
        if (noB) scores.set(row, Number.NaN); // no pair here: see pairedDiffs
        let u = unscored.get(name);
        if (!u) unscored.set(name, (u = { a: 0, b: 0 }));
        if (noA) u.a++;
        if (noB) u.b++;
      }
    }
    for (const name in outcome.scores) {
      if (!seenB.has(name)) {
        seenB.add(name);
        namesB.push(name);
      }
      const scores = scoresA.get(name);
      if (!scores || !inA) continue;
      const scoreB = outcome.scores[name];
      const scoreA = scores.get(row);
      if (!Number.isFinite(scoreB) || Number.isNaN(scoreA)) continue;
      let p = pairs.get(name);
      if (!p) {
        const direction = opts.directions[name];
        if (direction !== "maximize" && direction !== "minimize") {
          if (!missingDirections.includes(name)) missingDirections.push(name);
          continue;
        }
        pairs.set(name, (p = new Pairs(direction, settings.worst)));
      }
      p.add(row, idB ?? idA, scoreA, scoreB as number);
      scores.set(row, (scoreB as number) - scoreA);
    }
  }
  const namesA = [...scoresA.keys()];
  const common = namesA.filter((n) => seenB.has(n));
  for (const name of common) {
    const d = opts.directions[name];
    if (d !== "maximize" && d !== "minimize" && !missingDirections.includes(name)) missingDirections.push(name);
  }
  if (missingDirections.length) {
    const issues: Issue[] = missingDirections.map((name) => ({
      path: ["directions", name],
      message: `No direction for evaluator "${name}": expected "maximize" or "minimize" but received ${describeValue(opts.directions[name])}`,
      expected: '"maximize" | "minimize"',
      received: describeValue(opts.directions[name]),
    }));
    throw new EvalError("CONFIG_INVALID", issues.map((i) => i.message).join("; "), { issues });
  }

  const evaluators = common.map((name) =>
    summarizePairs(
      name,
      pairs.get(name) ?? new Pairs(opts.directions[name] as Direction, settings.worst),
      pairedDiffs(scoresA.get(name) as Float64Buffer, presentB),
      settings,
    ),
  );
  const first = examples[0];
  return {
    a: a.name,
    b: b.name,
    rows: { a: rowsA, b: rowsB, matched },
    unmatched: { a_only: rowsA - matched, b_only: rowsB - matched },
    dataset_mismatch: mismatched > 0,
    mismatch: first
      ? {
          message:
            `Runs "${a.name}" and "${b.name}" disagree on the id of ${mismatched} row${mismatched === 1 ? "" : "s"}, first at row ${first.row}: ` +
            `${describeValue(first.id_a)} in "${a.name}", ${describeValue(first.id_b)} in "${b.name}"; they were probably made on different datasets ` +
            `(or on different versions of one), so their scores should not be compared row by row.`,
          rows: mismatched,
          examples,
        }
      : null,
    evaluators,
    only_in_a: namesA.filter((n) => !seenB.has(n)),
    only_in_b: namesB.filter((n) => !scoresA.has(n)),
    warnings: [
      ...evaluators.filter((e) => e.n_pairs === 0).map((e) => noPairsWarning(e.name)),
      ...unpairedWarnings(evaluators, unscored, matched),
      ...warnings.list(),
    ],
    settings,
  };
}

/**
 * Says that an evaluator in both runs has no row scored in both (skipped or failed on every row of one
 * run, or on every row the other scored): its figures are empty and there is no verdict on it, which
 * `--fail-on-regression` counts as a failure rather than as "no regression".
 */
function noPairsWarning(name: string): string {
  return `${name}: no row has a score in both runs (it was skipped or failed on every row of one of them, or on every row the other scored), so there is nothing to compare and no verdict on it`;
}

/**
 * Says, for evaluators with pairs, that some rows in both runs were left out of their figures because
 * one run did not score them (skipped or an error): the figures are over fewer rows than the runs share.
 * `unscored` counts those rows per run, A (the baseline) and B (a row neither scored counts in both).
 * Evaluators with the same counts share one sentence: rows without a reference are skipped by all of them.
 */
function unpairedWarnings(evaluators: readonly EvaluatorComparison[], unscored: ReadonlyMap<string, { a: number; b: number }>, matched: number): string[] {
  const groups = new Map<string, { names: string[]; pairs: number; a: number; b: number }>();
  for (const e of evaluators) {
    const u = unscored.get(e.name);
    if (e.n_pairs === 0 || !u) continue;
    const key = `${e.n_pairs} ${u.a} ${u.b}`;
    const group = groups.get(key);
    if (group) group.names.push(e.name);
    else groups.set(key, { names: [e.name], pairs: e.n_pairs, a: u.a, b: u.b });
  }
  const compared = evaluators.filter((e) => e.n_pairs > 0).length;
  return [...groups.values()].map(({ names, pairs, a, b }) => {
    const left = matched - pairs;
    const sides = [a ? `${a} in A` : "", b ? `${b} in B` : ""].filter(Boolean).join(", ");
    const one = left === 1;
    return `${evaluatorList(names, compared)}: ${left} of the ${matched} rows in both runs ${one ? "has" : "have"} no score in one of them (skipped or an error: ${sides}) and ${one ? "is" : "are"} left out, so ${names.length === 1 ? "its" : "their"} figures are over the other ${pairs}`;
  });
}

/**
 * The differences b − a of one evaluator's pairs, taken out of run a's scores by row number, where run b
 * wrote each pair's difference over run a's score as it streamed past (and NaN where it had no score):
 * the rows b has are kept, in place, so that a comparison holds 8 bytes per row and evaluator, not 16.
 */
function pairedDiffs(scores: Float64Buffer, presentB: ByteFlags): Float64Array {
  const all = scores.view();
  let n = 0;
  for (let row = 0; row < all.length; row++) {
    const d = all[row] as number;
    if (presentB.has(row) && !Number.isNaN(d)) all[n++] = d;
  }
  return all.subarray(0, n);
}

/**
 * The paired scores of one evaluator, counted as run b streams past: the sums of each side, in row
 * order, which give the means that `mean` of each side would, and the rows that changed.
 */
class Pairs {
  readonly sumA = new CompensatedSum();
  readonly sumB = new CompensatedSum();
  improved = 0;
  regressed = 0;
  unchanged = 0;
  readonly worst: MostRegressed;

  constructor(
    readonly direction: Direction,
    worst: number,
  ) {
    this.worst = new MostRegressed(direction, worst);
  }

  add(row: number, id: unknown, a: number, b: number): void {
    this.sumA.add(a);
    this.sumB.add(b);
    if (a === b) this.unchanged++;
    else if (this.direction === "maximize" ? b > a : b < a) this.improved++;
    else this.regressed++;
    this.worst.offer(row, id, a, b);
  }
}

function summarizePairs(name: string, pairs: Pairs, diffs: Float64Array, settings: Comparison["settings"]): EvaluatorComparison {
  const n = diffs.length;
  // The random draws below take the differences in order: sorted, the figures do not depend on the order the rows came in.
  diffs.sort();
  const meanA = n ? pairs.sumA.value / n : null;
  const meanB = n ? pairs.sumB.value / n : null;
  const level = 1 - settings.alpha;
  const salt = hashString(name);
  const interval = bootstrapMeanInterval(diffs, { resamples: settings.resamples, level, rng: Xoshiro128.fromSeed(settings.seed, salt, 1) });
  const test = signFlipTest(diffs, { resamples: settings.resamples, rng: Xoshiro128.fromSeed(settings.seed, salt, 2) });
  const up = pairs.direction === "maximize" ? "b" : "a"; // the better run when b − a > 0
  const down = up === "b" ? "a" : "b";
  const better = !interval ? "same" : interval.low > 0 ? up : interval.high < 0 ? down : "same";
  const significant = test !== null && test.p < settings.alpha;
  return {
    name,
    direction: pairs.direction,
    n_pairs: n,
    mean_a: meanA,
    mean_b: meanB,
    diff: meanA === null || meanB === null ? null : meanB - meanA,
    ci: interval ? { low: interval.low, high: interval.high, level } : null,
    p_value: test ? test.p : null,
    p_method: test ? test.method : null,
    better,
    significant,
    regressed: significant && better === "a",
    rows: { improved: pairs.improved, regressed: pairs.regressed, unchanged: pairs.unchanged },
    worst: pairs.worst.list(),
  };
}

/** A row's scores: given as such, or taken from its outcome. */
/**
 * Tells {@link CompareOptions.onProgress} the rows read; with a signal, lets the event loop turn (rows read
 * from a synchronous source never do) so that a listener can abort it, and throws once it is aborted.
 */
async function progressed(opts: CompareOptions, rows: number): Promise<void> {
  opts.onProgress?.(rows);
  if (!opts.signal) return;
  await new Promise<void>((resolve) => nextTurn(resolve));
  opts.signal.throwIfAborted();
}

/** Runs `f` on a later turn of the event loop (setImmediate where there is one: setTimeout waits a millisecond in Node). */
const nextTurn: (f: () => void) => unknown = typeof setImmediate === "function" ? setImmediate : (f) => setTimeout(f, 0);

/** A row's scores, or null, with a warning, when it is not an object (a `null` in the rows threw a TypeError). */
function scoresOf(row: RowOutcome | RowScores, run: string, position: number, warnings: Warnings): RowScores | null {
  if (typeof row !== "object" || row === null) {
    warnings.add(`Run "${run}", outcome #${position}: expected a row outcome ({ row, id, results } or { row, id, scores }) but received ${describeValue(row)}; this outcome was left out.`);
    return null;
  }
  return "scores" in row ? row : scoresOfOutcome(row);
}

/**
 * Whether two rows' ids are the same id, read as the evaluators read values ({@link toText}): a number or boolean
 * and its JSON text agree (`7` and `"7"`: a CSV cell is text, so the same rows as CSV and as JSONL have the ids
 * `"7"` and `7`), and so do objects whose keys come in another order.
 */
function sameId(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  try {
    return toText(x) === toText(y);
  } catch {
    return false;
  }
}

/** An EvalError for an argument of {@link compareRuns} (`compareRuns: a.rows must be …, received …`). */
function argumentInvalid(code: "INPUT_INVALID" | "CONFIG_INVALID", arg: string, expected: string, value: unknown): EvalError {
  return argumentError(code, "compareRuns", arg, expected, value);
}

/** INPUT_INVALID unless `run` is a {@link ComparisonInput}: an object with a string name and (async) iterable rows. */
function checkRun(arg: "a" | "b", run: unknown): void {
  if (!isPlainObject(run)) throw argumentInvalid("INPUT_INVALID", arg, "a run ({ name, rows })", run);
  const { name, rows } = run as Record<string, unknown>;
  if (typeof name !== "string") throw argumentInvalid("INPUT_INVALID", `${arg}.name`, "a string", name);
  const iterable = typeof rows === "object" && rows !== null && (Symbol.iterator in rows || Symbol.asyncIterator in rows);
  if (!iterable) throw argumentInvalid("INPUT_INVALID", `${arg}.rows`, "an iterable or async iterable of rows", rows);
}

/** The row number, or null (with a warning) when it is not a usable row number or was seen before. */
function checkRow(outcome: RowScores, run: string, position: number, seen: ByteFlags, warnings: Warnings): number | null {
  const row: unknown = outcome.row;
  if (typeof row !== "number" || !Number.isSafeInteger(row) || row < 1 || row > MAX_ROW) {
    warnings.add(`Run "${run}", outcome #${position}: the row number must be an integer from 1 to ${MAX_ROW} but is ${describeValue(row)}; this outcome was left out.`);
    return null;
  }
  if (seen.has(row)) {
    warnings.add(`Run "${run}", outcome #${position}: row ${row} appears more than once; the first was kept and this one left out.`);
    return null;
  }
  return row;
}

function checkOptions(opts: CompareOptions): Comparison["settings"] {
  const issues: Issue[] = [];
  const seed = opts.seed ?? 1;
  const resamples = opts.resamples ?? 10_000;
  const alpha = opts.alpha ?? 0.05;
  const worst = opts.worst ?? 10;
  const bad = (key: string, expected: string, value: unknown) =>
    issues.push({ path: [key], message: `Invalid ${key}: expected ${expected} but received ${describeValue(value)}`, expected, received: describeValue(value) });
  if (!Number.isSafeInteger(seed)) bad("seed", "an integer", opts.seed);
  if (!Number.isSafeInteger(resamples) || resamples < 1 || resamples > 10_000_000) bad("resamples", "an integer from 1 to 10,000,000", opts.resamples);
  if (!(typeof alpha === "number" && alpha > 0 && alpha < 1)) bad("alpha", "a number between 0 and 1 (exclusive)", opts.alpha);
  if (!Number.isSafeInteger(worst) || worst < 0) bad("worst", "a non-negative integer", opts.worst);
  if (typeof opts.directions !== "object" || opts.directions === null) bad("directions", "an object of evaluator name → direction", opts.directions);
  if (issues.length) throw new EvalError("CONFIG_INVALID", issues.map((i) => i.message).join("; "), { issues });
  return { seed, resamples, alpha, worst };
}

/** One byte of "seen" per row number, growing as needed. */
class ByteFlags {
  private bytes = new Uint8Array(1024);

  has(row: number): boolean {
    return row < this.bytes.length && this.bytes[row] === 1;
  }

  set(row: number): void {
    if (row >= this.bytes.length) {
      let size = this.bytes.length * 2;
      while (size <= row) size *= 2;
      const next = new Uint8Array(size);
      next.set(this.bytes);
      this.bytes = next;
    }
    this.bytes[row] = 1;
  }
}

class Warnings {
  private readonly messages: string[] = [];
  private more = 0;

  add(message: string): void {
    if (this.messages.length < MAX_WARNINGS) this.messages.push(message);
    else this.more++;
  }

  list(): string[] {
    return this.more ? [...this.messages, `…and ${this.more} more such warnings.`] : [...this.messages];
  }
}
