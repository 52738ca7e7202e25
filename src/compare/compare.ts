/**
 * Compares two runs on the same dataset, evaluator by evaluator, on the rows both runs scored: mean
 * difference, a bootstrap confidence interval, a permutation-test p-value, and the rows that got worse.
 */
import { argumentError, describeValue, EvalError, isPlainObject, type Issue } from "../errors.js";
import { everyKey, refuseUnknownKeys } from "../unknown-keys.js";
import type { RowScores } from "../run/row-scores.js";
import { bootstrapMeanInterval } from "../stats/bootstrap.js";
import { negatedOrder, negatedSorted, sizeOf, ValueCounter } from "../stats/distinct.js";
import { Xoshiro128, hashString } from "../stats/prng.js";
import { toText } from "../mapping/to-text.js";
import { CompensatedSum } from "../stats/quantiles.js";
import { signFlipTest } from "../stats/sign-flip.js";
import type { Direction } from "../types.js";
import type { CompareOptions, Comparison, ComparisonInput, EvaluatorComparison } from "./types.js";
import { MostRegressed } from "./most-regressed.js";
import { comparedNoun, evaluatorList, evaluatorNames } from "./evaluator-list.js";
import { HeldRows } from "./held-rows.js";
import { RunReader, turned, Warnings } from "./run-reader.js";
import { formatInt, rowsText } from "../report/format.js";

export type { CompareOptions, Comparison, ComparisonInput, EvaluatorComparison, WorstRow } from "./types.js";

const MAX_MISMATCH_EXAMPLES = 5;
/** Rows waiting for their pair in one run, past which that run is held whole in typed arrays instead ({@link HeldRows}). */
const MAX_PENDING = 65_536;

/**
 * Compares run b against run a (the baseline) on the same dataset. For each evaluator present in both
 * runs, rows are paired by row number (or, with `pairBy: "key"`, by their key: see {@link pairByKey}) where both
 * runs have a score (neither skipped nor an error), and:
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
 * Rows in one run only are counted in `rows.a_only` and `rows.b_only`; rows in both that one run did not score for an evaluator
 * are left out of its pairs, with a warning giving how many per run (see {@link unpairedWarnings}). When a row number has different ids in the two runs
 * the comparison is still made, with `dataset_mismatch` saying so: the caller decides.
 * Rows that are not objects, or have a bad or repeated row number, are left out with a warning; a long run never fails on one row.
 * Throws CONFIG_INVALID for bad options, or when an evaluator in both runs has no direction, and
 * INPUT_INVALID, naming the argument, for a run that is not `{ name, rows }` (`compareRuns()` threw a
 * TypeError reading `seed`); the rows themselves are read as given.
 *
 * Memory (by row number; by key, run a's rows are held, about 250 bytes of heap a row): both runs are read together in row-number order, so rows that come in that order (a store's,
 * or results.jsonl as a run writes it) are paired as they come. Rows out of order wait for their pair, and
 * a row in one run only waits until the other run ends (it could still come); past {@link MAX_PENDING}
 * waiting rows, the run with more of them is held whole in typed arrays instead ({@link HeldRows}, 8 bytes a
 * row per evaluator and 20 besides). The pairs' differences, which the bootstrap needs, are counted by value while an
 * evaluator's take at most 4,096 values (0/1 scores, rounded ones, short texts' similarities), else kept
 * (8 bytes a pair); and a bit per row number and run says it was seen.
 */
export async function compareRuns(a: ComparisonInput, b: ComparisonInput, opts: CompareOptions): Promise<Comparison> {
  checkRun("a", a);
  checkRun("b", b);
  if (!isPlainObject(opts)) {
    throw argumentInvalid("CONFIG_INVALID", "opts", "an object ({ directions, pairBy?, seed?, resamples?, alpha?, worst?, onProgress?, signal? })", opts);
  }
  if (opts.onProgress !== undefined && typeof opts.onProgress !== "function") throw argumentInvalid("CONFIG_INVALID", "opts.onProgress", "a function or nothing", opts.onProgress);
  if (opts.signal !== undefined && !(opts.signal instanceof AbortSignal)) throw argumentInvalid("CONFIG_INVALID", "opts.signal", "an AbortSignal or nothing", opts.signal);
  opts.signal?.throwIfAborted();
  const settings = checkOptions(opts);

  // Both runs are read together, the side with the lower row number first, and a row is paired as soon as the
  // other run has given it: rows that come in the same order (a store's, or results.jsonl as a run writes it) wait
  // for their pair one at a time, so memory does not grow with the rows; rows in any other order, and rows the other run
  // does not have, wait in their side's `waiting` (a row the other run lacks, until that run ends: it could still come), up to MAX_PENDING.
  const read = { rows: 0 }; // outcomes read from both runs, for onProgress
  const readA = new RunReader(a, read, opts);
  const readB = new RunReader(b, read, opts);
  const pairs = new Map<string, Pairs>();
  // Per evaluator, the rows in both runs that each run scored.
  const scored = new Map<string, { a: number; b: number }>();
  let matched = 0;
  let mismatched = 0;
  const examples: NonNullable<Comparison["dataset_mismatch"]>["examples"] = [];
  const pair = (x: RowScores, y: RowScores) => {
    matched++;
    const row = x.row;
    const idA = x.id ?? undefined; // a worst row without an id in run b takes run a's, or none (not null)
    const idB = y.id;
    if (idA !== undefined && idB !== undefined && idB !== null && !sameId(idA, idB)) {
      mismatched++;
      const byKey = settings.pair_by === "key" ? { row_b: y.row, key: y.key as string } : {};
      keepFirstRows(examples, { row, ...byKey, id_a: idA, id_b: idB }, MAX_MISMATCH_EXAMPLES);
    }
    for (const name in x.scores) if (Number.isFinite(x.scores[name])) counted(scored, name).a++;
    for (const name in y.scores) {
      const scoreB = y.scores[name];
      if (!Number.isFinite(scoreB)) continue;
      counted(scored, name).b++;
      const scoreA = x.scores[name];
      if (!Number.isFinite(scoreA)) continue;
      let p = pairs.get(name);
      if (!p) {
        const direction = opts.directions[name];
        if (direction !== "maximize" && direction !== "minimize") continue; // refused below, with the others
        pairs.set(name, (p = new Pairs(direction, settings.worst)));
      }
      p.add(row, idB ?? idA, scoreA as number, scoreB as number, settings.pair_by === "key" ? y.row : undefined);
    }
  };
  // Each run with its waiting rows, and how one of its rows pairs with one of the other run's (run a's first).
  type Side = { reader: RunReader; waiting: Map<number, RowScores>; pairWith: (own: RowScores, other: RowScores) => void };
  const sideA: Side = { reader: readA, waiting: new Map(), pairWith: (own, other) => pair(own, other) };
  const sideB: Side = { reader: readB, waiting: new Map(), pairWith: (own, other) => pair(other, own) };
  /** Pairs `row` of `side` with the row of its number waiting in `other`, taking that one out; false if none waits. */
  const met = (row: RowScores, side: Side, other: Side): boolean => {
    const waiting = other.waiting.get(row.row);
    if (!waiting) return false;
    other.waiting.delete(row.row);
    side.pairWith(row, waiting);
    return true;
  };
  try {
    if (settings.pair_by === "key") {
      const left = await pairByKey(readA, readB, a.name, b.name, pair);
      readA.rows -= left.a;
      readB.rows -= left.b;
    }
    let x = settings.pair_by === "key" ? null : await readA.next();
    let y = settings.pair_by === "key" ? null : await readB.next();
    while (x || y) {
      if (x && (!y || x.row <= y.row)) {
        if (!met(x, sideA, sideB) && !readB.done) sideA.waiting.set(x.row, x);
        x = await readA.next();
      } else if (y) {
        if (!met(y, sideB, sideA) && !readA.done) sideB.waiting.set(y.row, y);
        y = await readB.next();
      }
      // A finished run has no row left to pair with the other's waiting ones.
      if (readA.done) sideB.waiting.clear();
      if (readB.done) sideA.waiting.clear();
      if (sideA.waiting.size > MAX_PENDING || sideB.waiting.size > MAX_PENDING) break;
    }
    // Too many rows wait (runs in different orders, or with rows the other lacks): the run with more waiting is read
    // to its end into typed arrays (8 bytes a row per evaluator and 20 besides, as objects would take hundreds), then
    // the other run streams past it.
    if (x || y) {
      const [hold, stream] = sideA.waiting.size >= sideB.waiting.size ? [sideA, sideB] : [sideB, sideA];
      const held = new HeldRows();
      for (const row of hold.waiting.values()) held.add(row);
      hold.waiting.clear();
      for (let h = hold === sideA ? x : y; h; h = await hold.reader.next()) if (!met(h, hold, stream)) held.add(h);
      // The other run's waiting rows have no pair in the held run: they were let wait before any of it was held.
      stream.waiting.clear();
      for (let o = hold === sideA ? y : x; o; o = await stream.reader.next()) {
        const h = held.take(o.row);
        if (h) stream.pairWith(o, h);
      }
    }
  } catch (error) {
    // Stopped early (aborted, or a source that threw): a source not read to its end may close (a generator's finally, a
    // store's statement); the error thrown is the one that stopped it, not one from closing, as `for await` does.
    await Promise.allSettled([readA.close(), readB.close()]);
    throw error;
  }
  const rowsA = readA.rows;
  const rowsB = readB.rows;
  const namesA = [...readA.names];
  const namesB = [...readB.names];
  // Per evaluator, the rows in both runs that one of them did not score (skipped or an error), per side.
  const unscored = new Map<string, { a: number; b: number }>();
  for (const [name, n] of scored) if (n.a < matched || n.b < matched) unscored.set(name, { a: matched - n.a, b: matched - n.b });
  const common = namesA.filter((n) => readB.names.has(n));
  // In run a's order, as the evaluators are listed: the order rows were paired in depends on the order they came in.
  const missingDirections = common.filter((n) => opts.directions[n] !== "maximize" && opts.directions[n] !== "minimize");
  if (missingDirections.length) {
    const issues: Issue[] = missingDirections.map((name) => ({
      path: ["opts", "directions", name],
      message: `no direction for evaluator "${name}", which both runs have: expected "maximize" or "minimize" (its summary's evaluators[].direction, or findEvaluator(type).direction for a run without a summary) but received ${describeValue(opts.directions[name])}`,
      expected: '"maximize" | "minimize"',
      received: describeValue(opts.directions[name]),
    }));
    throw new EvalError("CONFIG_INVALID", `compareRuns: opts.directions: ${issues.map((i) => i.message).join("; ")}`, { issues });
  }

  const evaluators: EvaluatorComparison[] = [];
  for (const name of common) {
    // An evaluator's figures can take seconds (a million unrounded differences): a Ctrl-C is heard between them.
    await turned(opts.signal);
    evaluators.push(summarizePairs(name, pairs.get(name) ?? new Pairs(opts.directions[name] as Direction, settings.worst), settings));
  }
  const first = examples[0];
  // The evaluators without a pair: no verdict on them, and one warning naming them.
  const noVerdictOn = evaluators.filter((e) => e.n_pairs === 0).map((e) => e.name);
  const onlyInA = namesA.filter((n) => !readB.names.has(n));
  const onlyInB = namesB.filter((n) => !readA.names.has(n));
  const noun = comparedNoun({ only_in_a: onlyInA, only_in_b: onlyInB });
  return {
    a: a.name,
    b: b.name,
    rows: { a: rowsA, b: rowsB, matched, a_only: rowsA - matched, b_only: rowsB - matched },
    dataset_mismatch: first
      ? {
          message: mismatchMessage(a.name, b.name, mismatched, first),
          rows: mismatched,
          examples,
        }
      : null,
    evaluators,
    verdict: { regressed_on: evaluators.filter((e) => e.regressed).map((e) => e.name), no_verdict_on: noVerdictOn },
    only_in_a: onlyInA,
    only_in_b: onlyInB,
    warnings: [
      ...noPairsWarning(noVerdictOn, evaluators.length, matched, settings.pair_by, noun),
      ...unpairedWarnings(evaluators, unscored, matched),
      ...Warnings.list(readA.warnings, readB.warnings),
    ],
    settings,
  };
}

/**
 * Says that `mismatched` pairs of rows have different ids, naming the first. Paired by key, it names the key and the
 * row's number in each run (they differ), and the likely cause: one key given to different items, not different datasets.
 */
function mismatchMessage(nameA: string, nameB: string, mismatched: number, first: NonNullable<Comparison["dataset_mismatch"]>["examples"][number]): string {
  const ids = `${describeValue(first.id_a)} in "${nameA}", ${describeValue(first.id_b)} in "${nameB}"`;
  if (first.key !== undefined) {
    return (
      `Runs "${nameA}" and "${nameB}" disagree on the id of ${rowsText(mismatched)} paired by key, first at key ${describeValue(first.key)} ` +
      `(row ${first.row} in "${nameA}", row ${first.row_b} in "${nameB}"): ${ids}; one key was probably given to different items (traces), ` +
      `so their scores should not be compared key by key.`
    );
  }
  return (
    `Runs "${nameA}" and "${nameB}" disagree on the id of ${rowsText(mismatched)}, first at row ${first.row}: ${ids}; ` +
    `they were probably made on different datasets (or on different versions of one), so their scores should not be compared row by row.`
  );
}

/**
 * Pairs the rows of `a` and `b` by their `key` (`pairBy: "key"`): run a's rows with a key are held by it, then each of
 * run b's is paired with the one of its key. A row without a key (`key` not a non-empty string), or with a key its run
 * gave an earlier row, is left out with a warning; `left` counts them per run, to be taken from its usable rows.
 */
async function pairByKey(
  readA: RunReader,
  readB: RunReader,
  nameA: string,
  nameB: string,
  pair: (x: RowScores, y: RowScores) => void,
): Promise<{ a: number; b: number }> {
  const left = { a: 0, b: 0 };
  const keyless = { a: 0, b: 0 };
  /**
   * CONFIG_INVALID when not one of a run's rows has a key (a run read from a dataset file): one message, where every
   * row was a warning and the run counted as empty.
   */
  const refuseKeyless = (reader: RunReader, run: string, side: "a" | "b") => {
    if (reader.rows === 0 || keyless[side] < reader.rows) return;
    const message = `pairing by key (pairBy "key", --pair-by key), but none of the ${rowsText(reader.rows)} of run "${run}" has a key (a run read from a dataset file has none): pair its rows by number (pairBy "row", --pair-by row, the default)`;
    throw new EvalError("CONFIG_INVALID", message, { issues: [{ path: ["opts", "pairBy"], message, expected: "rows with keys", received: `run "${run}" without a key` }] });
  };
  /** The row's key, or null (with a warning, counted) when it has none or its run gave the key before. */
  const keyOf = (row: RowScores, reader: RunReader, run: string, seen: (key: string) => boolean, side: "a" | "b"): string | null => {
    const key: unknown = row.key;
    const why =
      typeof key !== "string" || key === ""
        ? `has no key${key === undefined || key === null ? "" : ` (${describeValue(key)})`}, so it cannot be paired by key`
        : seen(key)
          ? `has the key ${describeValue(key)} of an earlier row; the first was kept`
          : null;
    if (why === null) return key as string;
    left[side]++;
    if (typeof key !== "string" || key === "") keyless[side]++;
    reader.warnings.add(`Run "${run}", row ${row.row} ${why}; this row was left out.`);
    return null;
  };
  // Run a's scores in typed arrays, and each key's row number: a row's object would hold its scores' record too.
  const held = new HeldRows();
  const rowOfKey = new Map<string, number>();
  for (let x = await readA.next(); x; x = await readA.next()) {
    const key = keyOf(x, readA, nameA, (k) => rowOfKey.has(k), "a");
    if (key === null) continue;
    rowOfKey.set(key, x.row);
    held.add(x);
  }
  refuseKeyless(readA, nameA, "a");
  // A key of run a's that run b gave is marked by its row number's sign (row numbers are from 1): only run b's keys
  // that run a lacks are kept apart, so that two runs of the same traces hold each key once.
  const onlyB = new Set<string>();
  const seenB = (k: string) => {
    const row = rowOfKey.get(k);
    return row === undefined ? onlyB.has(k) : row < 0;
  };
  for (let y = await readB.next(); y; y = await readB.next()) {
    const key = keyOf(y, readB, nameB, seenB, "b");
    if (key === null) continue;
    const row = rowOfKey.get(key);
    if (row === undefined) {
      onlyB.add(key);
      continue;
    }
    rowOfKey.set(key, -row);
    const x = held.take(row);
    if (x) pair(x, y);
  }
  refuseKeyless(readB, nameB, "b");
  return left;
}

/**
 * Says, once for them all, that evaluators in both runs (`names`) have no row scored in both (skipped or failed on
 * every row of one run, or on every row the other scored; or no row is in both, `matched` 0, as two runs of traces
 * paired by key that share none): their figures are empty and there is no verdict on them, which
 * `--fail-on-regression` counts as a failure rather than as "no regression". None when `names` is empty; a dataset
 * without expected texts gave one such warning per evaluator, alike but for the name. Past five names, the others
 * are counted ({@link evaluatorNames}: `all N evaluators`, or the first five and how many more).
 */
function noPairsWarning(names: readonly string[], compared: number, matched: number, pairBy: "row" | "key", noun: string): string[] {
  if (names.length === 0) return [];
  const one = names.length === 1;
  const why = matched === 0 ? `no row is in both: they share no ${pairBy === "key" ? "key" : "row number"}` : `${one ? "it was" : "each was"} skipped or failed on every row of one of them, or on every row the other scored`;
  return [`${evaluatorNames(names, compared, noun)}: no row has a score in both runs (${why}), so there is nothing to compare and no verdict on ${one ? "it" : "them"}`];
}

/**
 * Says, for evaluators with pairs, that some rows in both runs were left out of their figures because
 * one run scored them and the other did not (skipped or an error): the figures are over fewer rows than the
 * runs share, and each run's mean is over rows the other's is not. `unscored` counts the rows not scored per
 * run, A (the baseline) and B (a row neither scored counts in both). Rows neither run scored (the same rows
 * without a reference, in two runs of one dataset) lose the comparison nothing: alone, they are not warned
 * of, as every healthy comparison of runs with skipped rows would be. Evaluators with the same counts share
 * one sentence: rows without a reference are skipped by all of them.
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
  return [...groups.values()].flatMap(({ names, pairs, a, b }) => {
    const left = matched - pairs;
    const neither = a + b - left; // unscored in A or in B: left = a + b − neither
    const oneOnly = left - neither;
    if (oneOnly === 0) return [];
    const sides = [a > neither ? `${formatInt(a - neither)} in A` : "", b > neither ? `${formatInt(b - neither)} in B` : ""].filter(Boolean).join(", ");
    const one = oneOnly === 1;
    const alsoNeither = neither ? `, as ${neither === 1 ? "is" : "are"} ${formatInt(neither)} with a score in neither` : "";
    return [
      `${evaluatorList(names, compared)}: ${formatInt(oneOnly)} of the ${formatInt(matched)} rows in both runs ${one ? "has" : "have"} a score in one of them only (skipped or an error in the other: ${sides}) and ${one ? "is" : "are"} left out${alsoNeither}, so ${names.length === 1 ? "its" : "their"} figures are over the other ${formatInt(pairs)}`,
    ];
  });
}

/**
 * The paired scores of one evaluator: their differences b − a (counted by value while they take few
 * values, as rounded scores' do, else 8 bytes a pair), the sums of each side, which give the means that
 * `mean` of each side would, and the rows that changed.
 */
class Pairs {
  readonly diffs = new ValueCounter();
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

  add(row: number, id: unknown, a: number, b: number, rowB: number | undefined): void {
    this.diffs.add(b - a);
    this.sumA.add(a);
    this.sumB.add(b);
    if (a === b) this.unchanged++;
    else if (this.direction === "maximize" ? b > a : b < a) this.improved++;
    else this.regressed++;
    this.worst.offer(row, id, a, b, rowB);
  }
}

function summarizePairs(name: string, pairs: Pairs, settings: Comparison["settings"]): EvaluatorComparison {
  // The random draws below take the differences in order: sorted, the figures do not depend on the order the rows came in.
  // Swapping A and B negates every difference; both draw from whichever of the two sorted lists comes first, so
  // that `compare B A` gives the same p-value and the interval negated, sampled or not. When the two lists are equal
  // (the differences symmetric about 0), both comparisons draw alike: one interval must be its own negation, so it is
  // made symmetric, ± half its width (the resampled means' distribution is symmetric about 0 then; its two drawn ends
  // each estimate the same bound, and their mean has the smaller Monte-Carlo error).
  const sorted = pairs.diffs.sorted();
  const order = negatedOrder(sorted);
  const swapped = order < 0;
  const diffs = swapped ? negatedSorted(sorted) : sorted;
  const n = sizeOf(diffs);
  const meanA = n ? pairs.sumA.value / n : null;
  const meanB = n ? pairs.sumB.value / n : null;
  const level = 1 - settings.alpha;
  const salt = hashString(name);
  const drawn = bootstrapMeanInterval(diffs, { resamples: settings.resamples, level, rng: Xoshiro128.fromSeed(settings.seed, salt, 1) });
  const interval = drawn && orientedInterval(drawn, order);
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

/**
 * The interval drawn from the canonical list of differences, for the comparison as given: negated back when that
 * list was the negated one (`order` −1), ± half its width when the list is its own negation (`order` 0).
 */
function orientedInterval(drawn: { low: number; high: number }, order: -1 | 0 | 1): { low: number; high: number } {
  if (order > 0) return drawn;
  if (order < 0) return { low: 0 - drawn.high, high: 0 - drawn.low };
  const half = (drawn.high - drawn.low) / 2;
  return { low: 0 - half, high: half };
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

/** INPUT_INVALID unless `run` is a {@link ComparisonInput}: an object with a string name, (async) iterable rows, and a function or nothing as `line`. */
function checkRun(arg: "a" | "b", run: unknown): void {
  if (!isPlainObject(run)) throw argumentInvalid("INPUT_INVALID", arg, "a run ({ name, rows })", run);
  const { name, rows } = run as Record<string, unknown>;
  if (typeof name !== "string") throw argumentInvalid("INPUT_INVALID", `${arg}.name`, "a string", name);
  const iterable = typeof rows === "object" && rows !== null && (Symbol.iterator in rows || Symbol.asyncIterator in rows);
  if (!iterable) throw argumentInvalid("INPUT_INVALID", `${arg}.rows`, "an iterable or async iterable of rows", rows);
  const { line } = run as Record<string, unknown>;
  if (line !== undefined && typeof line !== "function") throw argumentInvalid("INPUT_INVALID", `${arg}.line`, "a function or nothing", line);
}

/** The options of {@link CompareOptions}, every one. */
const COMPARE_OPTIONS = everyKey<CompareOptions>()(["directions", "seed", "resamples", "alpha", "pairBy", "worst", "onProgress", "signal"]);

function checkOptions(opts: CompareOptions): Comparison["settings"] {
  refuseUnknownKeys("compareRuns", "opts", opts as unknown as Record<string, unknown>, COMPARE_OPTIONS);
  const issues: Issue[] = [];
  const seed = opts.seed ?? 1;
  const resamples = opts.resamples ?? 10_000;
  const alpha = opts.alpha ?? 0.05;
  const worst = opts.worst ?? 10;
  const bad = (key: string, expected: string, value: unknown) =>
    issues.push({ path: ["opts", key], message: `compareRuns: opts.${key} must be ${expected}, received ${describeValue(value)}`, expected, received: describeValue(value) });
  if (!Number.isSafeInteger(seed)) bad("seed", "an integer", opts.seed);
  if (!Number.isSafeInteger(resamples) || resamples < 1 || resamples > 10_000_000) bad("resamples", "an integer from 1 to 10,000,000", opts.resamples);
  if (!(typeof alpha === "number" && alpha > 0 && alpha < 1)) bad("alpha", "a number between 0 and 1 (exclusive)", opts.alpha);
  if (!Number.isSafeInteger(worst) || worst < 0) bad("worst", "a non-negative integer", opts.worst);
  if (typeof opts.directions !== "object" || opts.directions === null) bad("directions", "an object of evaluator name → direction", opts.directions);
  const pairBy = opts.pairBy ?? "row";
  if (pairBy !== "row" && pairBy !== "key") bad("pairBy", '"row" or "key"', opts.pairBy);
  if (issues.length) throw new EvalError("CONFIG_INVALID", issues.map((i) => i.message).join("; "), { issues });
  return { seed, resamples, alpha, worst, pair_by: pairBy };
}

/** The counts of `name` in `map`, made at 0 on first use. */
function counted(map: Map<string, { a: number; b: number }>, name: string): { a: number; b: number } {
  let n = map.get(name);
  if (!n) map.set(name, (n = { a: 0, b: 0 }));
  return n;
}

/** Adds `entry` to `list`, which keeps the `limit` entries of the lowest row numbers, lowest first (rows may come in any order). */
function keepFirstRows<T extends { row: number }>(list: T[], entry: T, limit: number): void {
  let i = list.length;
  while (i > 0 && (list[i - 1] as T).row > entry.row) i--;
  if (i >= limit) return;
  list.splice(i, 0, entry);
  if (list.length > limit) list.pop();
}
