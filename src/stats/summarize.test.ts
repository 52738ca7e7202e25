import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EvalError } from "../errors.js";
import { thrownEvalError } from "../test-support.js";
import type { RowOutcome, RowResult, StoredResult } from "../run/types.js";
import { packScores } from "./packed-scores.js";
import { quantileSorted } from "./quantiles.js";
import { memoryValuesEach, SummaryBuilder, type SummaryEvaluator } from "./summarize.js";

const sim: SummaryEvaluator = { name: "sim", type: "levenshtein", direction: "maximize", threshold: 0.5 };
const dist: SummaryEvaluator = { name: "dist", type: "levenshtein_distance", direction: "minimize", threshold: 2 };
const judge: SummaryEvaluator = { name: "judge", type: "verdict_only", direction: "maximize", threshold: null };

function scored(score: number | null, passed: boolean | null): StoredResult {
  return { type: "t", score, passed, label: passed === null ? null : passed ? "pass" : "fail", reasoning: "", skipped: false, details: {} };
}
function skipped(score: number | null): StoredResult {
  return { type: "t", score, passed: false, label: "fail", reasoning: "", skipped: true, details: {} };
}
const failed: RowResult = { error: { code: "INPUT_INVALID", message: "the JSONPath matched 2 values" } };

let rowNumber = 0;
function row(results: Record<string, RowResult>): RowOutcome {
  rowNumber++;
  return { row: rowNumber, id: `r${rowNumber}`, results };
}
/** A row numbered `row` with these results. */
function at(row: number, results: Record<string, RowResult>): RowOutcome {
  return { row, id: row, results };
}
function unreadable(): RowOutcome {
  rowNumber++;
  return { row: rowNumber, id: null, results: {}, error: { code: "DATASET_INVALID", message: "bad JSON" } };
}

/** A small run: 7 rows, one unreadable, with every kind of result. */
function smallRun(): RowOutcome[] {
  return [
    row({ sim: scored(1, true), dist: scored(0, true), judge: scored(null, true) }),
    row({ sim: scored(0.2, false), dist: scored(5, false), judge: scored(null, false) }),
    row({ sim: scored(0.6, true), dist: scored(1, true), judge: scored(null, true) }),
    row({ sim: skipped(0), dist: skipped(null), judge: skipped(null) }),
    row({ sim: failed, dist: failed, judge: failed }),
    unreadable(),
    row({ sim: scored(0.4, false), dist: scored(3, false) }), // judge missing: counted as an error
  ];
}

function build(countSkippedAsZero: boolean) {
  const b = new SummaryBuilder([sim, dist, judge], { countSkippedAsZero });
  for (const o of smallRun()) b.add(o);
  const s = b.finish();
  const by = (name: string) => s.evaluators.find((e) => e.name === name);
  return { s, sim: by("sim"), dist: by("dist"), judge: by("judge") };
}

describe("SummaryBuilder", () => {
  it("summarises a hand-computed run", () => {
    const { s, sim: a, dist: d, judge: j } = build(false);
    expect(s).toMatchObject({ rows: 7, row_errors: 1, skipped_as_zero: false });
    // sim scores 1, 0.2, 0.6, 0.4 -> sorted 0.2 0.4 0.6 1
    expect(a).toMatchObject({ name: "sim", type: "levenshtein", direction: "maximize", threshold: 0.5, n: 4, skipped: 1, errors: 1, min: 0.2, max: 1, verdicts: 4, pass_rate: 0.5 });
    expect(a?.mean).toBeCloseTo(0.55, 15);
    expect(a?.median).toBeCloseTo(0.5, 15);
    expect(a?.p10).toBeCloseTo(0.2 + 0.3 * 0.2, 15); // h = 0.3
    expect(a?.p90).toBeCloseTo(0.6 + 0.7 * 0.4, 15); // h = 2.7
    // dist (minimize) scores 0, 5, 1, 3 -> sorted 0 1 3 5
    expect(d).toMatchObject({ direction: "minimize", n: 4, skipped: 1, errors: 1, mean: 2.25, median: 2, min: 0, max: 5, pass_rate: 0.5, verdicts: 4 });
    expect(d?.p10).toBeCloseTo(0.3, 15);
    expect(d?.p90).toBeCloseTo(4.4, 15);
    // judge gives verdicts without scores; the missing result on the last row is an error.
    expect(j).toMatchObject({ n: 0, skipped: 1, errors: 2, mean: null, median: null, p10: null, p90: null, min: null, max: null, verdicts: 3 });
    expect(j?.pass_rate).toBeCloseTo(2 / 3, 15);
  });

  it("with countSkippedAsZero, a skipped row is a failed verdict and, for maximize, a score of 0", () => {
    const { s, sim: a, dist: d, judge: j } = build(true);
    expect(s.skipped_as_zero).toBe(true);
    // sim: scores 1, 0.2, 0.6, 0, 0.4; verdicts 5 of which 2 passed.
    expect(a).toMatchObject({ n: 5, skipped: 1, errors: 1, min: 0, median: 0.4, verdicts: 5, pass_rate: 0.4 });
    expect(a?.mean).toBeCloseTo(2.2 / 5, 15);
    // dist (minimize): 0 would be a perfect distance, so no score is added, only the failed verdict.
    expect(d).toMatchObject({ n: 4, skipped: 1, mean: 2.25, verdicts: 5, pass_rate: 0.4 });
    expect(j).toMatchObject({ n: 0, verdicts: 4, pass_rate: 0.5 });
  });

  it("with countSkippedAsZero, a minimize evaluator's skipped result adds no score even when it carries one", () => {
    // SummaryOptions.countSkippedAsZero: for a distance 0 would be a perfect score, so only the failed verdict counts.
    const b = new SummaryBuilder([dist], { countSkippedAsZero: true });
    b.add(at(1, { dist: scored(4, false) }));
    b.add(at(2, { dist: skipped(0) }));
    b.add(at(3, { dist: skipped(7) }));
    expect(b.finish().evaluators[0]).toMatchObject({ n: 1, skipped: 2, mean: 4, min: 4, max: 4, verdicts: 3, pass_rate: 0 });
  });

  it("with countSkippedAsZero, an evaluator that gives no verdicts gets no pass rate from its skipped rows", () => {
    const bare: SummaryEvaluator = { ...dist, name: "bare", threshold: null };
    const b = new SummaryBuilder([bare], { countSkippedAsZero: true });
    for (const r of [scored(3, null), skipped(null), scored(1, null)]) b.add(row({ bare: r }));
    expect(b.finish().evaluators[0]).toMatchObject({ n: 2, skipped: 1, verdicts: 0, pass_rate: null });
    // Only skipped rows: an evaluator with a threshold fails them all, one without has no pass rate.
    const only = new SummaryBuilder([bare, { ...sim, name: "thr" }], { countSkippedAsZero: true });
    only.add(row({ bare: skipped(null), thr: skipped(0) }));
    expect(only.finish().evaluators.map((e) => e.pass_rate)).toEqual([null, 0]);
  });

  it("gives null figures for an evaluator that never scored, and pass_rate null without verdicts", () => {
    const b = new SummaryBuilder([sim], { countSkippedAsZero: false });
    b.add(at(1, { sim: skipped(0) }));
    b.add(at(2, { sim: failed }));
    expect(b.finish().evaluators[0]).toMatchObject({ n: 0, skipped: 1, errors: 1, mean: null, median: null, pass_rate: null, verdicts: 0 });
  });

  it("counts a non-finite score as an error instead of averaging it", () => {
    const b = new SummaryBuilder([sim], { countSkippedAsZero: false });
    b.add(at(1, { sim: scored(Number.NaN, true) }));
    b.add(at(2, { sim: scored(0.5, true) }));
    expect(b.finish().evaluators[0]).toMatchObject({ n: 1, errors: 1, mean: 0.5, verdicts: 1 });
  });

  it("can be finished mid-run and finished again after more rows", () => {
    const b = new SummaryBuilder([sim], { countSkippedAsZero: false });
    b.add(at(1, { sim: scored(0.9, true) }));
    b.add(at(2, { sim: scored(0.1, false) }));
    expect(b.finish().evaluators[0]?.median).toBeCloseTo(0.5, 15);
    b.add(at(3, { sim: scored(0.2, false) }));
    const later = b.finish();
    expect(later.rows).toBe(3);
    expect(later.evaluators[0]).toMatchObject({ n: 3, median: 0.2, min: 0.1, max: 0.9 });
  });

  it("summarises a million rows from its typed buffers", () => {
    const b = new SummaryBuilder([sim], { countSkippedAsZero: false });
    for (let i = 0; i < 1_000_000; i++) b.add(at(i + 1, { sim: scored((i % 101) / 100, i % 101 >= 50) }));
    const e = b.finish().evaluators[0];
    expect(e?.n).toBe(1_000_000);
    expect(e?.min).toBe(0);
    expect(e?.max).toBe(1);
    expect(e?.median).toBe(0.5);
  });

  it("gives the same figures when the scores spill to a file, and exposes them for histograms", () => {
    const inMemory = new SummaryBuilder([sim, dist], { countSkippedAsZero: false });
    const spilling = new SummaryBuilder([sim, dist], { countSkippedAsZero: false, scoreSet: { memoryValues: 7 } });
    for (let i = 0; i < 500; i++) {
      const o = at(i + 1, { sim: scored(((i * 37) % 101) / 100, i % 3 > 0), dist: scored((i * 13) % 17, i % 2 === 0) });
      inMemory.add(o);
      spilling.add(o);
    }
    expect(spilling.scores("sim")?.spilled).toBe(true);
    expect(inMemory.scores("sim")?.spilled).toBe(false);
    const a = inMemory.finish();
    const b = spilling.finish();
    for (const [x, y] of a.evaluators.map((e, i) => [e, b.evaluators[i]!] as const)) {
      expect(y).toMatchObject({ ...x, mean: expect.any(Number) });
      expect(y.mean).toBeCloseTo(x.mean!, 12);
    }
    const bins = { bins: 4, min: 0, max: 1 };
    expect(spilling.scores("sim")?.histogram(bins)).toEqual(inMemory.scores("sim")?.histogram(bins));
    expect(spilling.scores("nope")).toBeUndefined();
    spilling.close();
  });

  it("keeps about 262,144 scores in memory across its evaluators by default, at least 4,096 each, unless told", () => {
    expect([1, 4, 5, 64, 65, 200].map(memoryValuesEach)).toEqual([65_536, 65_536, 52_428, 4096, 4096, 4096]);
    const wide = Array.from({ length: 100 }, (_, i) => ({ ...sim, name: `e${i}` }));
    const filled = (builder: SummaryBuilder, rows: number) => {
      for (let i = 0; i < rows; i++) builder.add(at(i + 1, Object.fromEntries(wide.map((e) => [e.name, scored(i / rows, true)]))));
      return builder;
    };
    const many = filled(new SummaryBuilder(wide, { countSkippedAsZero: false }), 4097);
    expect(many.scores("e0")?.spilled).toBe(true);
    many.close();
    expect(filled(new SummaryBuilder(wide, { countSkippedAsZero: false }), 4096).scores("e0")?.spilled).toBe(false);
    expect(filled(new SummaryBuilder(wide, { countSkippedAsZero: false, scoreSet: { memoryValues: 10_000 } }), 4097).scores("e0")?.spilled).toBe(false);
  });

  it("holds one temporary file for all its evaluators, whatever their count, and deletes it on close", () => {
    // A file per evaluator ran out of descriptors (EMFILE, exit 3) at about 250 evaluators under macOS's default limit of 256.
    const dir = mkdtempSync(join(tmpdir(), "simeval-summary-spill-"));
    const openFiles = () => readdirSync("/proc/self/fd").length;
    const wide = Array.from({ length: 300 }, (_, i) => ({ ...sim, name: `e${i}` }));
    const before = existsSync("/proc/self/fd") ? openFiles() : 0;
    const builder = new SummaryBuilder(wide, { countSkippedAsZero: false, scoreSet: { memoryValues: 3, dir } });
    const values = (i: number) => Array.from({ length: 10 }, (_, row) => ((row * 7 + i) % 10) / 10);
    for (let row = 0; row < 10; row++) builder.add(at(row + 1, Object.fromEntries(wide.map((e, i) => [e.name, scored(values(i)[row]!, true)]))));
    expect(builder.scores("e299")?.spilled).toBe(true);
    if (before) expect(openFiles()).toBe(before + 1);
    expect(readdirSync(dir).length).toBeLessThanOrEqual(1); // unlinked while open on POSIX
    // Each evaluator reads back its own scores from the shared file.
    const summary = builder.finish();
    wide.forEach((e, i) => {
      const sorted = values(i).sort((x, y) => x - y);
      expect(summary.evaluators[i]).toMatchObject({ name: e.name, n: 10, min: sorted[0], max: sorted[9], p10: quantileSorted(Float64Array.from(sorted), 0.1) });
    });
    builder.close();
    if (before) expect(openFiles()).toBe(before);
    expect(readdirSync(dir)).toEqual([]);
    rmSync(dir, { recursive: true });
  });

  it("adds packed batches as it adds rows one by one", () => {
    const names = [sim, dist, judge].map((e) => e.name);
    for (const countSkippedAsZero of [false, true]) {
      const one = new SummaryBuilder([sim, dist, judge], { countSkippedAsZero });
      const packed = new SummaryBuilder([sim, dist, judge], { countSkippedAsZero });
      const rows = [...smallRun(), row({ sim: scored(Number.POSITIVE_INFINITY, true), dist: skipped(3), judge: scored(null, null) })];
      for (const o of rows) one.add(o);
      packed.addPacked(packScores(rows.slice(0, 3), names));
      packed.addPacked(packScores(rows.slice(3), names));
      expect(packed.finish()).toEqual(one.finish());
    }
    expect(() => new SummaryBuilder([sim], { countSkippedAsZero: false }).addPacked(packScores([], ["a", "b"]))).toThrow(/2 evaluators/);
  });

  it("rejects two evaluators with the same name", () => {
    expect(() => new SummaryBuilder([sim, { ...dist, name: "sim" }], { countSkippedAsZero: false })).toThrow(EvalError);
    expect(() => new SummaryBuilder([sim, { ...dist, name: "sim" }], { countSkippedAsZero: false })).toThrow(/"sim" is used twice/);
  });
});

describe("SummaryBuilder's arguments", () => {
  it("refuses evaluators and options of the wrong kind with CONFIG_INVALID naming them (none or 5 threw a TypeError from forEach)", () => {
    const opts = { countSkippedAsZero: false };
    const list = "an array of evaluators ({ name, type, direction, threshold })";
    const cases: [unknown[], string][] = [
      [[], `evaluators must be ${list}, received nothing`],
      [[5, opts], `evaluators must be ${list}, received number 5`],
      [[[sim, null], opts], "evaluators[1] must be an evaluator ({ name, type, direction, threshold }), received null"],
      [[[{ ...sim, name: 5 }], opts], "evaluators[0].name must be a string, received number 5"],
      [[[{ ...sim, type: undefined }], opts], "evaluators[0].type must be a string, received nothing"],
      [[[{ ...sim, direction: "up" }], opts], 'evaluators[0].direction must be "maximize" or "minimize", received string "up"'],
      [[[{ ...sim, threshold: "0.5" }], opts], 'evaluators[0].threshold must be a number or null, received string "0.5"'],
      [[[sim]], "opts must be an object ({ countSkippedAsZero, scoreSet? }), received nothing"],
      [[[sim], 5], "opts must be an object ({ countSkippedAsZero, scoreSet? }), received number 5"],
      [[[sim], {}], "opts.countSkippedAsZero must be a boolean, received nothing"],
      [[[sim], { countSkippedAsZero: false, scoreSet: 5 }], "opts.scoreSet must be an object ({ memoryValues?, dir? }) or nothing, received number 5"],
      // NaN kept no score and failed at finish() with a TypeError; 0, -5 and "100" were taken silently.
      [[[sim], { countSkippedAsZero: false, scoreSet: { memoryValues: Number.NaN } }], "opts.scoreSet.memoryValues must be a whole number of at least 1 or nothing, received number NaN"],
      [[[sim], { countSkippedAsZero: false, scoreSet: { memoryValues: 0 } }], "opts.scoreSet.memoryValues must be a whole number of at least 1 or nothing, received number 0"],
      [[[sim], { countSkippedAsZero: false, scoreSet: { memoryValues: "100" } }], 'opts.scoreSet.memoryValues must be a whole number of at least 1 or nothing, received string "100"'],
      [[[sim], { countSkippedAsZero: false, scoreSet: { dir: 5 } }], "opts.scoreSet.dir must be a folder path or nothing, received number 5"],
    ];
    for (const [args, message] of cases) {
      const e = thrownEvalError(() => new (SummaryBuilder as new (...a: unknown[]) => SummaryBuilder)(...args));
      expect(e).toMatchObject({ code: "CONFIG_INVALID", message: `SummaryBuilder: ${message}` });
    }
  });

  it("add refuses a row it cannot read with INPUT_INVALID naming the field (null threw a TypeError), and the summary is unchanged", () => {
    const b = new SummaryBuilder([sim], { countSkippedAsZero: false });
    const result = "an evaluator's result ({ score, passed, skipped, … } or { error }) or nothing";
    const cases: [unknown, string][] = [
      [null, "outcome must be a row outcome ({ row, id, results } or { row, error }), received null"],
      [{ row: 1 }, "outcome.results must be an object of results by evaluator name, received nothing"],
      [{ row: 1, results: { [sim.name]: null } }, `outcome.results["${sim.name}"] must be ${result}, received null`],
    ];
    for (const [outcome, message] of cases) {
      expect(thrownEvalError(() => b.add(outcome as RowOutcome))).toMatchObject({ code: "INPUT_INVALID", message: `SummaryBuilder.add: ${message}` });
    }
    b.add({ row: 1, error: { code: "INPUT_INVALID", message: "bad row" } } as RowOutcome);
    expect(b.finish()).toMatchObject({ rows: 1, row_errors: 1 });
  });
});
