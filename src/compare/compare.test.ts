import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EvalError } from "../errors.js";
import { evalErrorOf } from "../test-support.js";
import type { RowOutcome, RowResult, StoredResult } from "../run/types.js";
import { Xoshiro128 } from "../stats/prng.js";
import { rowScores } from "../run/row-scores.js";
import { compareRuns, type CompareOptions, type ComparisonInput } from "./compare.js";
import { evaluatorTypes, findEvaluator } from "../evaluators/registry.js";
import { outlineEvaluatorSpecs } from "../evaluators/create.js";

function result(score: number | null, opts: { skipped?: boolean } = {}): StoredResult {
  return { type: "t", score, passed: null, label: null, reasoning: "", skipped: opts.skipped ?? false, details: {} };
}
const failed: RowResult = { error: { code: "INPUT_INVALID", message: "no match" } };

/** A run whose row i (1-based) has `scores[name][i - 1]` for each evaluator (null = no result). */
function run(name: string, scores: Record<string, (number | null | RowResult)[]>, ids?: unknown[]): ComparisonInput {
  const length = Math.max(...Object.values(scores).map((s) => s.length));
  const rows: RowOutcome[] = [];
  for (let i = 0; i < length; i++) {
    const results: Record<string, RowResult> = {};
    for (const [ev, list] of Object.entries(scores)) {
      const v = list[i];
      if (v === undefined || v === null) continue;
      results[ev] = typeof v === "number" ? result(v) : v;
    }
    rows.push({ row: i + 1, id: ids ? ids[i] : `q${i + 1}`, results });
  }
  return { name, rows };
}

function randomScores(n: number, seed: number, shift = 0, decimals = 2): number[] {
  const rng = Xoshiro128.fromSeed(seed);
  const f = 10 ** decimals;
  return Array.from({ length: n }, () => Math.round(Math.min(1, Math.max(0, rng.nextDouble() + shift)) * f) / f);
}

const both = { directions: { sim: "maximize", dist: "minimize" } } as const;

describe("compareRuns", () => {
  it("finds no difference between identical runs", async () => {
    const scores = randomScores(500, 1);
    const c = await compareRuns(run("a", { sim: scores }), run("b", { sim: scores }), { directions: { sim: "maximize" }, resamples: 2000 });
    const e = c.evaluators[0];
    expect(e).toMatchObject({ name: "sim", n_pairs: 500, diff: 0, p_value: 1, p_method: "exact", better: "same", significant: false, regressed: false });
    expect(e?.ci).toEqual({ low: 0, high: 0, level: 0.95 });
    expect(e?.rows).toEqual({ improved: 0, regressed: 0, unchanged: 500 });
    expect(e?.worst).toEqual([]);
    expect(c).toMatchObject({ rows: { a: 500, b: 500, matched: 500, a_only: 0, b_only: 0 }, dataset_mismatch: null, verdict: { regressed_on: [], no_verdict_on: [] }, warnings: [] });
  });

  it("gives the same figures whatever order the rows come in (a results.jsonl file sorted another way)", async () => {
    const a = run("a", { sim: randomScores(300, 7) });
    const b = run("b", { sim: randomScores(300, 8, 0.03) });
    const opts = { directions: { sim: "maximize" }, resamples: 2000 } as const;
    const inOrder = await compareRuns(a, b, opts);
    const shuffled = (r: ComparisonInput): ComparisonInput => ({ ...r, rows: [...(r.rows as RowOutcome[])].sort((x, y) => ((x.row * 7919) % 300) - ((y.row * 7919) % 300)) });
    const reordered = await compareRuns(shuffled(a), shuffled(b), opts);
    const figures = (c: typeof inOrder) => c.evaluators.map((e) => ({ ci: e.ci, p: e.p_value, diff: e.diff, rows: e.rows }));
    expect(figures(reordered)).toEqual(figures(inOrder));
    expect(inOrder.evaluators[0]?.p_method).toBe("monte_carlo");
  });

  it("gives B against A the same p-value and the interval negated, sampled or exact, rounded scores or not", async () => {
    const scores = fc.array(fc.oneof(fc.constantFrom(0, 0.25, 0.5, 1), fc.double({ min: 0, max: 1, noNaN: true })), { minLength: 1, maxLength: 120 });
    await fc.assert(
      fc.asyncProperty(scores, scores, fc.integer({ min: 1, max: 50 }), async (sa, sb, seed) => {
        const n = Math.min(sa.length, sb.length);
        const a = run("a", { sim: sa.slice(0, n), dist: sb.slice(0, n).map((x) => Math.round(x * 40)) });
        const b = run("b", { sim: sb.slice(0, n), dist: sa.slice(0, n).map((x) => Math.round(x * 40)) });
        const opts = { ...both, resamples: 300, seed };
        const ab = await compareRuns(a, b, opts);
        const ba = await compareRuns(b, a, opts);
        ab.evaluators.forEach((e, i) => {
          const f = ba.evaluators[i];
          expect(f?.p_value).toBe(e.p_value);
          expect(f?.p_method).toBe(e.p_method);
          expect(f?.ci && { low: f.ci.low, high: f.ci.high }).toEqual(e.ci && { low: 0 - e.ci.high, high: 0 - e.ci.low });
          expect(f?.better).toBe(e.better === "a" ? "b" : e.better === "b" ? "a" : "same");
          expect(f?.significant).toBe(e.significant);
        });
      }),
      { numRuns: 60 },
    );
  });

  it("gives B against A the interval negated when the differences are symmetric about 0 (as many gains as losses): the interval is its own negation", async () => {
    // Exact match on 50 rows, B gaining 10 and losing 10: both sides' differences are one list; it drew [−0.1605, 0.18] both ways.
    const a = Array.from({ length: 50 }, (_, i) => (i < 25 ? 1 : 0));
    const b = a.map((x, i) => (i < 10 ? 0 : i >= 25 && i < 35 ? 1 : x));
    const opts = { directions: { e: "maximize" }, seed: 1 } as const;
    const ab = (await compareRuns(run("a", { e: a }), run("b", { e: b }), opts)).evaluators[0];
    const ba = (await compareRuns(run("b", { e: b }), run("a", { e: a }), opts)).evaluators[0];
    expect(ab?.ci).toEqual({ low: 0 - (ab?.ci?.high as number), high: ab?.ci?.high, level: 0.95 });
    expect(ab?.ci?.high).toBeGreaterThan(0.15);
    expect(ab?.ci?.high).toBeLessThan(0.2);
    expect(ba?.ci).toEqual(ab?.ci);
    expect(ba?.p_value).toBe(ab?.p_value);
    // Any list symmetric about 0, rounded or not, sampled or counted by value.
    const sizes = fc.array(fc.oneof(fc.constantFrom(0.25, 0.5, 1), fc.double({ min: 0, max: 0.5, noNaN: true })), { minLength: 1, maxLength: 80 });
    await fc.assert(
      fc.asyncProperty(sizes, fc.integer({ min: 0, max: 20 }), fc.integer({ min: 1, max: 50 }), async (d, zeros, seed) => {
        // Against scores of 0, each difference is the score itself, exactly: d and −d.
        const other = [...d, ...d.map((x) => 0 - x), ...Array<number>(zeros).fill(0)];
        const base = other.map(() => 0);
        const o = { directions: { e: "maximize" }, seed, resamples: 300 } as const;
        const x = (await compareRuns(run("a", { e: base }), run("b", { e: other }), o)).evaluators[0];
        const y = (await compareRuns(run("b", { e: other }), run("a", { e: base }), o)).evaluators[0];
        expect(y?.p_value).toBe(x?.p_value);
        expect(y?.ci && { low: y.ci.low, high: y.ci.high }).toEqual(x?.ci && { low: 0 - x.ci.high, high: 0 - x.ci.low });
      }),
      { numRuns: 60 },
    );
  });

  it("finds a constant shift: the interval excludes 0, p is small, b is better", async () => {
    const a = randomScores(400, 2);
    const b = a.map((x) => x + 0.05);
    const c = await compareRuns(run("base", { sim: a }), run("new", { sim: b }), { directions: { sim: "maximize" }, resamples: 2000 });
    const e = c.evaluators[0];
    expect(e?.diff).toBeCloseTo(0.05, 12);
    expect(e?.ci?.low).toBeGreaterThan(0);
    expect(e?.p_value).toBeCloseTo(1 / 2001, 12); // no random sign pattern reaches an all-positive sum
    expect(e).toMatchObject({ p_method: "monte_carlo", better: "b", significant: true, regressed: false, rows: { improved: 400, regressed: 0, unchanged: 0 } });
  });

  it("detects a noisy regression and lists the worst rows", async () => {
    const a = randomScores(1000, 3);
    const noise = randomScores(1000, 4);
    const b = a.map((x, i) => Math.round((x - 0.03 + ((noise[i] as number) - 0.5) * 0.2) * 100) / 100);
    const c = await compareRuns(run("a", { sim: a }), run("b", { sim: b }), { directions: { sim: "maximize" }, resamples: 3000, worst: 3 });
    const e = c.evaluators[0];
    expect(e?.ci?.high).toBeLessThan(0);
    expect(e).toMatchObject({ better: "a", significant: true, regressed: true });
    const drops = a.map((x, i) => ({ row: i + 1, drop: x - (b[i] as number) })).sort((p, q) => q.drop - p.drop || p.row - q.row);
    expect(e?.worst.map((w) => w.row)).toEqual(drops.slice(0, 3).map((d) => d.row));
    const w = e?.worst[0];
    expect(w?.id).toBe(`q${w?.row}`);
    expect(w?.delta).toBe((w?.score_b as number) - (w?.score_a as number));
    expect((e?.rows.improved ?? 0) + (e?.rows.regressed ?? 0) + (e?.rows.unchanged ?? 0)).toBe(1000);
  });

  it("flips better and regressed for a minimize evaluator", async () => {
    const a = randomScores(300, 5).map((x) => Math.round(x * 10));
    const up = a.map((x) => x + 1); // a larger distance is worse
    const c = await compareRuns(run("a", { dist: a }), run("b", { dist: up }), { directions: { dist: "minimize" }, resamples: 1000, worst: 2 });
    const e = c.evaluators[0];
    expect(e?.diff).toBe(1);
    expect(e).toMatchObject({ direction: "minimize", better: "a", significant: true, regressed: true, rows: { improved: 0, regressed: 300, unchanged: 0 } });
    expect(c.verdict).toEqual({ regressed_on: ["dist"], no_verdict_on: [] });
    expect(e?.worst).toHaveLength(2);
    expect(e?.worst.map((w) => w.row)).toEqual([1, 2]); // all deltas equal: lowest row numbers first
    const down = (await compareRuns(run("a", { dist: up }), run("b", { dist: a }), { directions: { dist: "minimize" }, resamples: 1000 })).evaluators[0];
    expect(down).toMatchObject({ better: "b", regressed: false, rows: { improved: 300, regressed: 0 }, worst: [] });
  });

  it("computes the exact permutation p-value on a tiny example", async () => {
    // Differences [1, 1, 1]: of the 8 sign patterns only +++ and −−− reach |T| = 3, so p = 2/8.
    const c = await compareRuns(run("a", { sim: [0, 0, 0] }), run("b", { sim: [1, 1, 1] }), { directions: { sim: "maximize" } });
    expect(c.evaluators[0]).toMatchObject({ p_value: 0.25, p_method: "exact", significant: false, regressed: false, better: "b" });
    expect(c.evaluators[0]?.ci).toEqual({ low: 1, high: 1, level: 0.95 });
    // Differences [1, 2, -1, 3] (T = 5): patterns with |T*| ≥ 5 are ±(1,2,−1,3) → 5, ±(1,2,1,3) → 7, ±(−1,2,1,3) → 5: p = 6/16.
    const d = await compareRuns(run("a", { sim: [0, 0, 1, 0, 0.5] }), run("b", { sim: [1, 2, 0, 3, 0.5] }), { directions: { sim: "maximize" } });
    expect(d.evaluators[0]).toMatchObject({ n_pairs: 5, p_value: 6 / 16, p_method: "exact" });
  });

  it("is reproducible with the same seed and varies with another", async () => {
    const a = randomScores(2000, 6, 0, 4);
    const b = randomScores(2000, 7, 0.01, 4);
    const go = async (seed: number) => (await compareRuns(run("a", { sim: a }), run("b", { sim: b }), { directions: { sim: "maximize" }, resamples: 500, seed })).evaluators[0];
    const first = await go(42);
    expect(await go(42)).toEqual(first);
    const other = await go(43);
    expect(other?.ci).not.toEqual(first?.ci);
    expect(other?.diff).toBe(first?.diff);
  });

  it("pairs only rows both runs scored, and counts rows present in one run only", async () => {
    const a = run("a", { sim: [0.5, 0.5, 0.5, failed, 0.5, 0.5] });
    const b: ComparisonInput = {
      name: "b",
      rows: [
        { row: 1, id: "q1", results: { sim: result(0.7) } },
        { row: 2, id: "q2", results: { sim: result(0, { skipped: true }) } },
        { row: 3, id: "q3", results: { sim: failed } },
        { row: 4, id: "q4", results: { sim: result(0.9) } },
        { row: 5, id: "q5", results: {}, error: { code: "DATASET_INVALID", message: "bad JSON" } },
        { row: 8, id: "q8", results: { sim: result(0.1) } },
      ],
    };
    const c = await compareRuns(a, b, { directions: { sim: "maximize" } });
    expect(c.rows).toEqual({ a: 6, b: 6, matched: 5, a_only: 1, b_only: 1 });
    expect(c.evaluators[0]).toMatchObject({ n_pairs: 1, mean_a: 0.5, mean_b: 0.7 });
    expect(c.evaluators[0]?.diff).toBeCloseTo(0.2, 15);
    // Rows 2–5 are in both runs but not scored in both: the output says how many, and in which run.
    expect(c.warnings).toEqual(['sim: 4 of the 5 rows in both runs have a score in one of them only (skipped or an error in the other: 1 in A, 3 in B) and are left out, so its figures are over the other 1']);
    // Rows neither run scored (the same rows without a reference, in two runs of one dataset) lose the comparison nothing: no warning.
    expect((await compareRuns(run("a", { sim: [1, null, 1, 1], dist: [1, null, 2, 3] }), run("b", { sim: [1, null, 1, 0], dist: [1, null, 2, 4] }), both)).warnings).toEqual([]);
    // Evaluators left out on the same rows (no reference in A, say) share one sentence.
    const two = await compareRuns(run("a", { sim: [1, null, 1, 1], dist: [1, null, 2, 3] }), run("b", { sim: [1, 0.5, 1, 0], dist: [1, 1, 2, 4] }), both);
    expect(two.warnings).toEqual(["sim, dist: 1 of the 4 rows in both runs has a score in one of them only (skipped or an error in the other: 1 in A) and is left out, so their figures are over the other 3"]);
    // A wide config: every evaluator skipping the same rows is counted, not listed; a group of some of them names five.
    const names = Array.from({ length: 8 }, (_, i) => `ev${i}`);
    const wideRun = (side: string) => run(side, Object.fromEntries(names.map((n) => [n, [side === "a" ? null : 0.2, 1, 0.5]])));
    const wide = await compareRuns(wideRun("a"), wideRun("b"), { directions: Object.fromEntries(names.map((n) => [n, "maximize" as const])) });
    expect(wide.warnings).toEqual(["all 8 evaluators: 1 of the 3 rows in both runs has a score in one of them only (skipped or an error in the other: 1 in A) and is left out, so their figures are over the other 2"]);
    const some = [...names, "ev8", "ev9"];
    const part = await compareRuns(
      run("a", Object.fromEntries(some.map((n, i) => [n, [i < 7 ? null : 1, 1]]))),
      run("b", Object.fromEntries(some.map((n) => [n, [1, 1]]))),
      { directions: Object.fromEntries(some.map((n) => [n, "maximize" as const])) },
    );
    expect(part.warnings).toEqual(["ev0, ev1, ev2, ev3, ev4 and 2 more evaluators: 1 of the 2 rows in both runs has a score in one of them only (skipped or an error in the other: 1 in A) and is left out, so their figures are over the other 1"]);
    const seven = some.slice(0, 7);
    const one = await compareRuns(
      run("a", Object.fromEntries(seven.map((n, i) => [n, [i < 6 ? null : 1, 1]]))),
      run("b", Object.fromEntries(seven.map((n) => [n, [1, 1]]))),
      { directions: Object.fromEntries(seven.map((n) => [n, "maximize" as const])) },
    );
    expect(one.warnings[0]).toMatch(/^ev0, ev1, ev2, ev3, ev4 and 1 more evaluator: /);
    expect((c.evaluators[0]?.rows.improved ?? 0) + (c.evaluators[0]?.rows.regressed ?? 0) + (c.evaluators[0]?.rows.unchanged ?? 0)).toBe(1);
  });

  it("warns of rows left out when only one run has no score for them, naming that run alone", async () => {
    const onlyB = await compareRuns(run("a", { sim: [0.5, 0.5, 0.5] }), run("b", { sim: [0.6, failed, 0.4] }), { directions: { sim: "maximize" } });
    expect(onlyB.warnings).toEqual(["sim: 1 of the 3 rows in both runs has a score in one of them only (skipped or an error in the other: 1 in B) and is left out, so its figures are over the other 2"]);
    const onlyA = await compareRuns(run("a", { sim: [null, 0.5, 0.5] }), run("b", { sim: [0.6, 0.6, 0.4] }), { directions: { sim: "maximize" } });
    expect(onlyA.warnings).toEqual(["sim: 1 of the 3 rows in both runs has a score in one of them only (skipped or an error in the other: 1 in A) and is left out, so its figures are over the other 2"]);
  });

  it("says \"has\" and \"is\" of one row left out by one run alongside one left out by both", async () => {
    const c = await compareRuns(run("a", { sim: [failed, failed, 0.5, 0.5] }), run("b", { sim: [0.6, failed, 0.4, 0.5] }), { directions: { sim: "maximize" } });
    expect(c.warnings).toEqual(["sim: 1 of the 4 rows in both runs has a score in one of them only (skipped or an error in the other: 1 in A) and is left out, as is 1 with a score in neither, so its figures are over the other 2"]);
  });

  it("writes the counts of 1,000 or more in the rows-left-out warning with thousands separators", async () => {
    // 2,500 rows in both: 1,200 not scored in A, 1,100 in B (300 by both), leaving 500 pairs.
    const scores = (unscored: (i: number) => boolean) => Array.from({ length: 2500 }, (_, i) => (unscored(i) ? failed : 0.5));
    const c = await compareRuns(run("a", { sim: scores((i) => i < 1200) }), run("b", { sim: scores((i) => i >= 900 && i < 2000) }), { directions: { sim: "maximize" } });
    expect(c.warnings).toEqual(["sim: 1,700 of the 2,500 rows in both runs have a score in one of them only (skipped or an error in the other: 900 in A, 800 in B) and are left out, as are 300 with a score in neither, so its figures are over the other 500"]);
  });

  it("counts a row unchanged only when its two scores are equal: the smallest difference is a change, as in the test's differences", async () => {
    // 0.1 + 0.2 is 0.30000000000000004: above 0.3 by one rounding step, so b improved on row 1 and regressed on row 2.
    const c = await compareRuns(run("a", { sim: [0.3, 0.1 + 0.2, 0.5] }), run("b", { sim: [0.1 + 0.2, 0.3, 0.5] }), { directions: { sim: "maximize" } });
    expect(c.evaluators[0]?.rows).toEqual({ improved: 1, regressed: 1, unchanged: 1 });
  });

  it("reports different ids for the same row as a dataset mismatch", async () => {
    const a = run("a", { sim: [0.1, 0.2, 0.3] }, ["x", "y", "z"]);
    const b = run("b", { sim: [0.1, 0.2, 0.3] }, ["x", "Y", { k: 1 }]);
    const c = await compareRuns(a, b, { directions: { sim: "maximize" } });
    expect(c.dataset_mismatch?.rows).toBe(2);
    expect(c.dataset_mismatch?.examples).toEqual([
      { row: 2, id_a: "y", id_b: "Y" },
      { row: 3, id_a: "z", id_b: { k: 1 } },
    ]);
    expect(c.dataset_mismatch?.message).toMatch(/disagree on the id of 2 rows, first at row 2: string "y" in "a", string "Y" in "b"; they were probably made on different datasets/);
    expect(c.evaluators[0]?.n_pairs).toBe(3); // still compared: the caller decides
    // A count of 1,000 or more with thousands separators; one row as "1 row".
    const ids = (prefix: string) => Array.from({ length: 1500 }, (_, i) => (i < 1200 ? `${prefix}${i}` : `q${i}`));
    const many = await compareRuns(run("a", { sim: Array<number>(1500).fill(1) }, ids("a")), run("b", { sim: Array<number>(1500).fill(1) }, ids("b")), { directions: { sim: "maximize" } });
    expect(many.dataset_mismatch?.message).toMatch(/disagree on the id of 1,200 rows, first at row 1: string "a0" in "a", string "b0" in "b"/);
    const one = await compareRuns(run("a", { sim: [1, 1] }, ["x", "y"]), run("b", { sim: [1, 1] }, ["x", "z"]), { directions: { sim: "maximize" } });
    expect(one.dataset_mismatch?.message).toMatch(/disagree on the id of 1 row, first at row 2:/);
    // Equal object ids, and an id missing from one run, are not mismatches.
    const same = await compareRuns(run("a", { sim: [1, 1] }, [{ k: 1 }, "p"]), run("b", { sim: [1, 1] }, [{ k: 1 }, undefined]), { directions: { sim: "maximize" } });
    expect(same.dataset_mismatch).toBeNull();
  });

  it("gives a worst row run b's id, else run a's, else none: rows without ids have no id, not null", async () => {
    const worstIds = async (idsA: unknown[], idsB: unknown[]) =>
      (await compareRuns(run("a", { sim: [1, 1, 1] }, idsA), run("b", { sim: [0.5, 0.4, 0.3] }, idsB), { directions: { sim: "maximize" } })).evaluators[0]?.worst.map((w) => w.id);
    expect(await worstIds([null, undefined, null], [null, null, undefined])).toEqual([undefined, undefined, undefined]);
    expect(await worstIds(["a1", "a2", null], [null, "b2", undefined])).toEqual([undefined, "b2", "a1"]);
  });

  it("takes an id and its text for the same id, as the evaluators compare values: the same rows as CSV (text) and JSONL (numbers) are not a mismatch", async () => {
    const ids = [7, true, 1.5, { b: 2, a: 1 }, -0];
    const asText = ["7", "true", "1.5", { a: 1, b: 2 }, "0"];
    const c = await compareRuns(run("csv", { sim: [1, 1, 1, 1, 1] }, asText), run("jsonl", { sim: [1, 1, 1, 1, 1] }, ids), { directions: { sim: "maximize" } });
    expect(c.dataset_mismatch).toBeNull();
    // Other text is another id.
    const other = await compareRuns(run("csv", { sim: [1, 1, 1] }, ["7.0", "07", "True"]), run("jsonl", { sim: [1, 1, 1] }, [7, 7, true]), { directions: { sim: "maximize" } });
    expect(other.dataset_mismatch?.rows).toBe(3);
  });

  it("lists evaluators in one run only, and compares each common one", async () => {
    const c = await compareRuns(run("a", { sim: [0.1, 0.2], dist: [1, 2], old: [1, 1] }), run("b", { dist: [2, 3], sim: [0.2, 0.4], new: [0, 1] }), { ...both, resamples: 200 });
    expect(c.evaluators.map((e) => e.name)).toEqual(["sim", "dist"]);
    expect(c.only_in_a).toEqual(["old"]);
    expect(c.only_in_b).toEqual(["new"]);
    // Adding another evaluator does not change this one's figures (each has its own random stream).
    const alone = await compareRuns(run("a", { sim: [0.1, 0.2] }), run("b", { sim: [0.2, 0.4] }), { directions: { sim: "maximize" }, resamples: 200 });
    expect(alone.evaluators[0]).toEqual(c.evaluators[0]);
  });

  it("gives null figures for an evaluator with no pairs", async () => {
    const c = await compareRuns(run("a", { sim: [failed, 0.5] }), run("b", { sim: [0.5, failed] }), { directions: { sim: "maximize" } });
    expect(c.evaluators[0]).toMatchObject({ n_pairs: 0, mean_a: null, mean_b: null, diff: null, ci: null, p_value: null, p_method: null, better: "same", significant: false, regressed: false });
    // No pair is no verdict, which a gate must not pass.
    expect(c.verdict).toEqual({ regressed_on: [], no_verdict_on: ["sim"] });
  });

  it("leaves out rows that are not objects (null threw a TypeError) and bad and repeated row numbers with a warning", async () => {
    const b: ComparisonInput = {
      name: "b",
      rows: [
        { row: 1, id: "q1", results: { sim: result(0.5) } },
        { row: 1, id: "q1", results: { sim: result(0.9) } },
        { row: 0, id: "q0", results: { sim: result(0.9) } },
        { row: 2.5, id: "q?", results: { sim: result(0.9) } },
        null as unknown as RowOutcome,
      ],
    };
    const c = await compareRuns(run("a", { sim: [0.5] }), b, { directions: { sim: "maximize" } });
    expect(c.warnings).toEqual([
      'Run "b", outcome #2: row 1 appears more than once; the first was kept and this one left out.',
      'Run "b", outcome #3: the row number must be an integer from 1 to 268435456 but is number 0; this outcome was left out.',
      'Run "b", outcome #4: the row number must be an integer from 1 to 268435456 but is number 2.5; this outcome was left out.',
      'Run "b", outcome #5: expected a row outcome ({ row, id, results } or { row, id, scores }) but received null; this outcome was left out.',
    ]);
    expect(c.evaluators[0]).toMatchObject({ n_pairs: 1, diff: 0 });
  });

  it("names a row left out by its run's name and line when the run tells its rows' lines (a results.jsonl), and refuses a line that is not a function", async () => {
    const rowsB: RowOutcome[] = [
      { row: 1, id: "q1", results: { sim: result(0.5) } },
      { row: 1, id: "q1", results: { sim: result(0.9) } },
      { row: 0, id: "q0", results: { sim: result(0.9) } },
    ];
    const lines = [1, 3, 7];
    let line: number | undefined;
    function* read(): Generator<RowOutcome> {
      for (const [i, r] of rowsB.entries()) {
        line = lines[i];
        yield r;
      }
    }
    const b: ComparisonInput = { name: "b.jsonl", rows: read(), line: () => line };
    const c = await compareRuns(run("a", { sim: [0.5] }), b, { directions: { sim: "maximize" } });
    expect(c.warnings).toEqual([
      "b.jsonl:3: row 1 appears more than once; the first was kept and this one left out.",
      "b.jsonl:7: the row number must be an integer from 1 to 268435456 but is number 0; this outcome was left out.",
    ]);
    const e = await evalErrorOf(compareRuns(run("a", { sim: [0.5] }), { name: "b", rows: [], line: 3 as never }, { directions: { sim: "maximize" } }));
    expect([e.code, e.message]).toEqual(["INPUT_INVALID", "compareRuns: b.line must be a function or nothing, received number 3"]);
  });

  it("lists run a's warnings before run b's, and keeps the first 20 of them in that order, however the two runs' rows interleave", async () => {
    const bad = (n: number) => Array.from({ length: n }, () => null as unknown as RowOutcome);
    const a: ComparisonInput = { name: "a", rows: [{ row: 1, id: "q1", results: { sim: result(0.5) } }, ...bad(25)] };
    const b: ComparisonInput = { name: "b", rows: [...bad(2), { row: 1, id: "q1", results: { sim: result(0.5) } }] };
    const c = await compareRuns(a, b, { directions: { sim: "maximize" } });
    const warning = (run: string, n: number) => `Run "${run}", outcome #${n}: expected a row outcome ({ row, id, results } or { row, id, scores }) but received null; this outcome was left out.`;
    expect(c.warnings).toEqual([...Array.from({ length: 20 }, (_, i) => warning("a", i + 2)), "…and 7 more such warnings."]);
    const few = await compareRuns({ name: "a", rows: [{ row: 1, id: "q1", results: { sim: result(0.5) } }, ...bad(1)] }, b, { directions: { sim: "maximize" } });
    expect(few.warnings).toEqual([warning("a", 2), warning("b", 1), warning("b", 2)]);
  });

  it("rejects bad options and a common evaluator without a direction", async () => {
    const a = run("a", { sim: [1] });
    const b = run("b", { sim: [1] });
    try {
      await compareRuns(a, b, { directions: { sim: "maximize" }, resamples: 0, alpha: 1, worst: -1, seed: 1.5 });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(EvalError);
      expect((e as EvalError).code).toBe("CONFIG_INVALID");
      expect((e as EvalError).issues.map((i) => i.path.join("."))).toEqual(["opts.seed", "opts.resamples", "opts.alpha", "opts.worst"]);
      expect((e as EvalError).message).toMatch(/compareRuns: opts.resamples must be an integer from 1 to 10,000,000, received number 0/);
    }
    await expect(compareRuns(a, b, { directions: {} })).rejects.toThrow(/compareRuns: opts.directions: no direction for evaluator "sim", which both runs have: expected "maximize" or "minimize" \(its summary's evaluators\[\].direction, or findEvaluator\(type\).direction for a run without a summary\) but received nothing/);
  });

  it("says, of an evaluator without pairs, that no row is in both runs when they share no row number or key, not that it was skipped", async () => {
    const keyed = (key: string, score: number): RowOutcome => ({ row: 1, id: key, key, results: { em: result(score) } });
    const byKey = await compareRuns({ name: "a", rows: [keyed("t1", 1)] }, { name: "b", rows: [keyed("t2", 0)] }, { directions: { em: "maximize" }, pairBy: "key" });
    expect(byKey.rows.matched).toBe(0);
    expect(byKey.warnings).toEqual(["em: no row has a score in both runs (no row is in both: they share no key), so there is nothing to compare and no verdict on it"]);
    const byRow = await compareRuns({ name: "a", rows: [{ ...keyed("t1", 1), row: 1 }] }, { name: "b", rows: [{ ...keyed("t1", 0), row: 2 }] }, { directions: { em: "maximize" } });
    expect(byRow.warnings).toContain("em: no row has a score in both runs (no row is in both: they share no row number), so there is nothing to compare and no verdict on it");
  });

  it("names together, in one warning, the evaluators without pairs, where each had one alike but for its name", async () => {
    const skipped = result(null, { skipped: true });
    const row = (n: number, scored: boolean): RowOutcome => ({ row: n, id: n, results: { em: scored ? result(1) : skipped, lev: scored ? result(0.5) : skipped, jac: scored ? result(1) : skipped, ok: result(1) } });
    const directions = { em: "maximize", lev: "maximize", jac: "maximize", ok: "maximize" } as const;
    const c = await compareRuns({ name: "a", rows: [row(1, true), row(2, true)] }, { name: "b", rows: [row(1, false), row(2, false)] }, { directions });
    expect(c.verdict.no_verdict_on).toEqual(["em", "lev", "jac"]);
    expect(c.warnings.filter((w) => w.includes("no row has a score in both runs"))).toEqual([
      "em, lev and jac: no row has a score in both runs (each was skipped or failed on every row of one of them, or on every row the other scored), so there is nothing to compare and no verdict on them",
    ]);
    // Past five, the others are counted, as compare's other sentences count them: a hundred evaluators are not a hundred names.
    const names = Array.from({ length: 8 }, (_, i) => `ev${i}`);
    const wide = (n: number, scored: boolean): RowOutcome => ({ row: n, id: n, results: Object.fromEntries(names.map((name, i) => [name, scored || i === 7 ? result(1) : skipped])) });
    const all = Object.fromEntries(names.map((n) => [n, "maximize" as const]));
    const seven = await compareRuns({ name: "a", rows: [wide(1, true)] }, { name: "b", rows: [wide(1, false)] }, { directions: all });
    expect(seven.warnings.filter((w) => w.includes("no row has a score in both runs"))).toEqual([
      "ev0, ev1, ev2, ev3, ev4 and 2 more evaluators: no row has a score in both runs (each was skipped or failed on every row of one of them, or on every row the other scored), so there is nothing to compare and no verdict on them",
    ]);
    const none = await compareRuns({ name: "a", rows: [wide(1, false)] }, { name: "b", rows: [wide(1, true)].map((r) => ({ ...r, row: 2 })) }, { directions: all });
    expect(none.warnings[0]).toMatch(/^all 8 evaluators: no row has a score in both runs \(no row is in both/);
    // B has a ninth evaluator, not compared: the eight are all of those in both runs, not all of B's, and the methods note counts so too.
    const wider = (n: number): RowOutcome => ({ row: n, id: n, results: { ...wide(1, true).results, extra: result(1) } });
    const onlyInB = await compareRuns({ name: "a", rows: [wide(1, false)] }, { name: "b", rows: [wider(2)] }, { directions: { ...all, extra: "maximize" } });
    expect(onlyInB.only_in_b).toEqual(["extra"]);
    expect(onlyInB.warnings[0]).toMatch(/^all 8 evaluators in both runs: no row has a score in both runs \(no row is in both/);
  });

  it("takes for a run without a summary its evaluators' types' directions, as its message and README say: what a summary records", () => {
    // A service compares a run still being recorded (no summary): findEvaluator(spec.type).direction over run.evaluators.
    for (const type of evaluatorTypes) {
      const [outline] = outlineEvaluatorSpecs([{ type }]);
      expect([type, findEvaluator(type)?.direction]).toEqual([type, outline?.direction]);
    }
  });

  it("names the evaluators without a direction in run a's order, whatever order the rows and their scores come in", async () => {
    const row = (r: number, names: string[]): RowOutcome => ({ row: r, id: `q${r}`, results: Object.fromEntries(names.map((n) => [n, result(0.5)])) });
    const a: ComparisonInput = { name: "a", rows: [row(1, ["u", "v"]), row(2, ["w"])] };
    const each = (name: string) => `no direction for evaluator "${name}", which both runs have: expected "maximize" or "minimize" (its summary's evaluators[].direction, or findEvaluator(type).direction for a run without a summary) but received nothing`;
    const message = `compareRuns: opts.directions: ${each("u")}; ${each("v")}; ${each("w")}`;
    for (const rows of [
      [row(1, ["u", "v"]), row(2, ["w"])],
      [row(1, ["v", "u"]), row(2, ["w"])], // run b names v first
      [row(2, ["w"]), row(1, ["u", "v"])], // row 2 is paired first
    ]) {
      const issues = await compareRuns(a, { name: "b", rows }, { directions: {} }).then(
        () => expect.unreachable(),
        (e: unknown) => (e as EvalError).issues.map((i) => i.path[2]),
      );
      expect(issues).toEqual(["u", "v", "w"]);
      await expect(compareRuns(a, { name: "b", rows }, { directions: {} })).rejects.toThrow(message);
    }
  });

  it("refuses runs and options of the wrong kind, naming the argument (compareRuns() threw a TypeError reading seed)", async () => {
    const good = run("a", { sim: [1] });
    const opts = { directions: { sim: "maximize" } } as const;
    const cases: [unknown[], string, string][] = [
      [[], "INPUT_INVALID", "compareRuns: a must be a run ({ name, rows }), received nothing"],
      [[null, null], "INPUT_INVALID", "compareRuns: a must be a run ({ name, rows }), received null"],
      [[good, 5, opts], "INPUT_INVALID", "compareRuns: b must be a run ({ name, rows }), received number 5"],
      [[{}, {}], "INPUT_INVALID", "compareRuns: a.name must be a string, received nothing"],
      [[{ name: "a" }, good, opts], "INPUT_INVALID", "compareRuns: a.rows must be an iterable or async iterable of rows, received nothing"],
      [[good, { name: "b", rows: 5 }, opts], "INPUT_INVALID", "compareRuns: b.rows must be an iterable or async iterable of rows, received number 5"],
      [[good, good], "CONFIG_INVALID", "compareRuns: opts must be an object ({ directions, pairBy?, seed?, resamples?, alpha?, worst?, onProgress?, signal? }), received nothing"],
      [[good, good, null], "CONFIG_INVALID", "compareRuns: opts must be an object ({ directions, pairBy?, seed?, resamples?, alpha?, worst?, onProgress?, signal? }), received null"],
      [[good, good, { ...opts, onProgress: 5 }], "CONFIG_INVALID", "compareRuns: opts.onProgress must be a function or nothing, received number 5"],
      [[good, good, { ...opts, signal: true }], "CONFIG_INVALID", "compareRuns: opts.signal must be an AbortSignal or nothing, received boolean true"],
    ];
    for (const [args, code, message] of cases) {
      const e = await evalErrorOf((compareRuns as (...a: unknown[]) => Promise<unknown>)(...args));
      expect(e).toMatchObject({ code, message });
    }
  });

  it("gives the same figures from rows' scores as from their outcomes", async () => {
    const outcomes = (shift: number) => (run("x", { sim: [...randomScores(60, 5, shift), failed, null], dist: randomScores(62, 6) }).rows as RowOutcome[]);
    const opts = { ...both, resamples: 300 };
    const fromOutcomes = await compareRuns({ name: "a", rows: outcomes(0) }, { name: "b", rows: outcomes(0.1) }, opts);
    const fromScores = await compareRuns({ name: "a", rows: outcomes(0).map(rowScores) }, { name: "b", rows: outcomes(0.1).map(rowScores) }, opts);
    expect(fromScores).toEqual(fromOutcomes);
    expect(fromScores.evaluators.map((e) => e.n_pairs)).toEqual([60, 62]);
  });

  it("tells its progress every 10,000 rows read, counting both runs", async () => {
    const many = (n: number) => run("x", { sim: randomScores(n, 7) });
    const calls: number[] = [];
    await compareRuns(many(25_000), many(27_000), { directions: { sim: "maximize" }, resamples: 10, onProgress: (rows) => calls.push(rows) });
    expect(calls).toEqual([10_000, 20_000, 30_000, 40_000, 50_000]);
  });

  it("stops once its signal is aborted, even by a listener that only a turn of the event loop lets run (rows from a synchronous source)", async () => {
    const controller = new AbortController();
    let read = 0;
    let closed = false;
    function* rows(): Generator<RowOutcome> {
      try {
        for (let i = 1; i <= 100_000; i++) {
          // Without a turn of the event loop between rows, this abort would run only after the last one.
          if (++read === 5_000) setImmediate(() => controller.abort("stop"));
          yield { row: i, id: i, results: { sim: result(0.5) } };
        }
      } finally {
        closed = true; // a store's source closes its statement here
      }
    }
    const opts = { directions: { sim: "maximize" }, resamples: 10, signal: controller.signal } as const;
    await expect(compareRuns({ name: "a", rows: rows() }, run("b", { sim: [1] }), opts)).rejects.toBe("stop");
    expect(read).toBe(9_999); // and run b's one row: the first 10,000 read
    expect(closed).toBe(true);
    await expect(compareRuns(run("a", { sim: [1] }), run("b", { sim: [1] }), opts)).rejects.toBe("stop");
    // Fewer than 10,000 rows let the event loop turn only before the figures: a listener aborting then is heard there.
    const late = new AbortController();
    function* few(): Generator<RowOutcome> {
      for (let i = 1; i <= 100; i++) yield { row: i, id: i, results: { sim: result(i / 100) } };
      setImmediate(() => late.abort("late"));
    }
    await expect(compareRuns({ name: "a", rows: few() }, { name: "b", rows: few() }, { ...opts, signal: late.signal })).rejects.toBe("late");
  });

  it("lets the event loop turn every 10,000 rows without a signal too, so that a server's other work goes on", async () => {
    let turns = 0;
    let read = 0;
    const seen: number[] = [];
    const tick = () => {
      turns++;
      if (read < 25_000) setImmediate(tick);
    };
    function* rows(): Generator<RowOutcome> {
      for (let i = 1; i <= 25_000; i++) {
        read = i;
        if (i % 10_000 === 5_000 || i === 1) seen.push(turns);
        yield { row: i, id: i, results: { sim: result(0.5) } };
      }
    }
    setImmediate(tick);
    await compareRuns({ name: "a", rows: rows() }, run("b", { sim: [1] }), { directions: { sim: "maximize" }, resamples: 10 });
    // The rows come synchronously: the loop turned only where the comparison let it, after each 10,000 (both runs' rows).
    const [first, at5k, at15k, at25k] = seen as [number, number, number, number];
    expect(at5k).toBe(first);
    expect(at15k).toBeGreaterThan(at5k);
    expect(at25k).toBeGreaterThan(at15k);
  });

  it("rejects with the error of a source that threw, which is not closed, while the other source is, even when closing it fails", async () => {
    const calls: string[] = [];
    /** Rows 1 to `n`, then `error` thrown if given; its return() is recorded, and throws `closeError` if given. */
    const source = (name: string, n: number, error?: Error, closeError?: Error): Iterable<RowOutcome> => ({
      [Symbol.iterator]: () => {
        let i = 0;
        return {
          next: () => {
            if (i < n) return { done: false, value: { row: ++i, id: i, results: { sim: result(0.5) } } };
            if (error) throw error;
            return { done: true, value: undefined };
          },
          return: () => {
            calls.push(`${name} closed`);
            if (closeError) throw closeError;
            return { done: true, value: undefined };
          },
        };
      },
    });
    const broken = new Error("disk read failed");
    const opts = { directions: { sim: "maximize" } } as const;
    await expect(compareRuns({ name: "a", rows: source("a", 3, broken) }, { name: "b", rows: source("b", 10, undefined, new Error("close failed")) }, opts)).rejects.toBe(broken);
    expect(calls).toEqual(["b closed"]);
    calls.length = 0;
    await expect(compareRuns({ name: "a", rows: source("a", 10) }, { name: "b", rows: source("b", 3, broken) }, opts)).rejects.toBe(broken);
    expect(calls).toEqual(["a closed"]);
  });

  it("accepts rows from a generator, read once", async () => {
    function* rows(shift: number): Generator<RowOutcome> {
      for (let i = 1; i <= 50; i++) yield { row: i, id: i, results: { sim: result(i / 100 + shift) } };
    }
    const c = await compareRuns({ name: "a", rows: rows(0) }, { name: "b", rows: rows(0.01) }, { directions: { sim: "maximize" }, resamples: 500 });
    expect(c.evaluators[0]?.n_pairs).toBe(50);
    expect(c.evaluators[0]?.better).toBe("b");
  });

  it("agrees with plain reference figures on small runs, whatever the direction (n ≤ 12)", async () => {
    // Scores on a 1/10 grid; the reference p enumerates all 2^n sign vectors of the integer differences.
    const scores = fc.array(fc.tuple(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 10 })), { maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(scores, fc.constantFrom("maximize", "minimize") as fc.Arbitrary<"maximize" | "minimize">, async (pairs, direction) => {
        const c = await compareRuns(run("a", { s: pairs.map((p) => p[0] / 10) }), run("b", { s: pairs.map((p) => p[1] / 10) }), { directions: { s: direction }, resamples: 200, worst: 3 });
        const n = pairs.length;
        if (n === 0) {
          expect(c.evaluators).toEqual([]); // no rows: no evaluator seen (n_pairs 0 with rows: "gives null figures" above)
          return;
        }
        const e = c.evaluators[0];
        expect(e?.n_pairs).toBe(n);
        const ints = pairs.map(([a, b]) => b - a);
        let extreme = 0;
        for (let mask = 0; mask < 2 ** n; mask++) {
          const t = ints.reduce((s, d, i) => s + (mask & (1 << i) ? -d : d), 0);
          if (Math.abs(t) >= Math.abs(ints.reduce((s, d) => s + d, 0))) extreme++;
        }
        expect(e?.p_value).toBe(extreme / 2 ** n);
        expect(e?.p_method).toBe("exact");
        const gain = (d: number) => (direction === "maximize" ? d : -d); // > 0: b is closer to the reference
        expect(e?.rows).toEqual({ improved: ints.filter((d) => gain(d) > 0).length, regressed: ints.filter((d) => gain(d) < 0).length, unchanged: ints.filter((d) => d === 0).length });
        // The bootstrap means lie between the smallest and largest difference.
        const ci = e?.ci as { low: number; high: number };
        expect(ci.low).toBeGreaterThanOrEqual(Math.min(...ints) / 10 - 1e-12);
        expect(ci.high).toBeLessThanOrEqual(Math.max(...ints) / 10 + 1e-12);
        const favoured = ci.low > 0 ? (direction === "maximize" ? "b" : "a") : ci.high < 0 ? (direction === "maximize" ? "a" : "b") : "same";
        expect(e?.better).toBe(favoured);
        expect(e?.significant).toBe((e?.p_value as number) < 0.05);
        expect(e?.regressed).toBe(e?.significant === true && favoured === "a");
        // Every listed row got worse given the direction, worst first.
        const worst = e?.worst ?? [];
        expect(worst.length).toBe(Math.min(3, e?.rows.regressed ?? 0));
        for (const w of worst) expect(gain(w.delta)).toBeLessThan(0);
        for (let i = 1; i < worst.length; i++) expect(-gain((worst[i - 1] as { delta: number }).delta)).toBeGreaterThanOrEqual(-gain((worst[i] as { delta: number }).delta));
      }),
      { numRuns: 150 },
    );
  });

  it("gives the figures of its pairs alone, whatever rows one run lacks, skipped or failed, in any order", async () => {
    // Each row is, in each run, a score on a 1/10 grid, skipped, an error, or absent; rows come shuffled.
    const side = fc.oneof(fc.integer({ min: 0, max: 10 }), fc.constantFrom("skipped", "error", "absent"));
    const cells = fc.array(fc.tuple(side, side), { maxLength: 30 });
    const outcome = (row: number, cell: number | string, id = `q${row}`): RowOutcome | null =>
      cell === "absent" ? null : { row, id, results: { s: typeof cell === "number" ? result(cell / 10) : cell === "skipped" ? result(null, { skipped: true }) : failed } };
    const inOrder = (list: (RowOutcome | null)[], order: number[]) => order.map((i) => list[i]).filter((o): o is RowOutcome => o !== null);
    await fc.assert(
      fc.asyncProperty(cells, fc.integer(), fc.integer({ min: 0, max: 3 }), async (rows, seed, idEvery) => {
        const order = (n: number, salt: number) => {
          const rng = Xoshiro128.fromSeed(seed, salt);
          return Array.from({ length: n }, (_, i) => i).sort(() => rng.nextDouble() - 0.5);
        };
        const a = rows.map(([x], i) => outcome(i + 1, x));
        // Every idEvery-th row has another id in run b (none when 0): the mismatch found is the same in any order.
        const b = rows.map(([, y], i) => outcome(i + 1, y, idEvery && i % idEvery === 0 ? `other${i}` : `q${i + 1}`));
        const opts = { directions: { s: "maximize" }, resamples: 300 } as const;
        const c = await compareRuns({ name: "a", rows: inOrder(a, order(rows.length, 1)) }, { name: "b", rows: inOrder(b, order(rows.length, 2)) }, opts);
        const sorted = await compareRuns({ name: "a", rows: inOrder(a, [...rows.keys()]) }, { name: "b", rows: inOrder(b, [...rows.keys()]) }, opts);
        expect(c).toEqual(sorted);
        const paired = rows.flatMap(([x, y], i) => (typeof x === "number" && typeof y === "number" ? [i] : []));
        const only = await compareRuns(
          { name: "a", rows: paired.map((i) => a[i] as RowOutcome) },
          { name: "b", rows: paired.map((i) => b[i] as RowOutcome) },
          opts,
        );
        const e = c.evaluators[0];
        if (!e) return; // no row has a score for s in both runs' rows: nothing to compare
        expect(e.n_pairs).toBe(paired.length);
        if (paired.length === 0) expect(e).toMatchObject({ mean_a: null, ci: null, p_value: null });
        else expect(e).toEqual(only.evaluators[0]);
      }),
      { numRuns: 300 },
    );
  });

  it("gives the same figures when so many rows wait for their pair that one run is held whole", async () => {
    // Past 65,536 waiting rows one run is read whole into typed arrays: one run with every other row, or in another order.
    const all = Array.from({ length: 140_000 }, (_, i) => i + 1);
    const even = all.filter((r) => r % 2 === 0);
    const rng = Xoshiro128.fromSeed(5);
    const shuffled = (rows: number[]) => rows.map((r) => [rng.nextDouble(), r] as const).sort((x, y) => x[0] - y[0]).map(([, r]) => r);
    const side = (name: string, rows: number[], shift: number): ComparisonInput => ({
      name,
      rows: rows.map((r) => ({ row: r, id: r % 1000 === 0 ? null : `q${r}`, results: { s: result(((r * 7919 + shift) % 101) / 100), ...(r % 3 ? { t: result(r % 2) } : {}) } })),
    });
    const opts = { directions: { s: "maximize", t: "minimize" }, resamples: 50 } as const;
    const reference = await compareRuns(side("a", even, 0), side("b", even, 3), opts);
    for (const [a, b] of [
      [all, even],
      [even, all],
      [shuffled(even), even],
      [even, [...even].reverse()],
    ] as const) {
      const c = await compareRuns(side("a", a, 0), side("b", b, 3), opts);
      expect(c.evaluators).toEqual(reference.evaluators);
      expect(c.rows.matched).toBe(even.length);
      expect(c.rows).toMatchObject({ a_only: a.length - even.length, b_only: b.length - even.length });
    }
  });

  it("stops with a source's error, or on abort, after one run is held whole, and closes the source not read to its end", async () => {
    // Run b's rows 1, 2, … wait for run a's, which come from the top: past 65,536 of them run b is held (read to its end), then run a streams.
    const n = 70_000;
    const log: string[] = [];
    /** `n` rows, from the top when `down`; throws at its `breakAt`th row if given; says when it ends, closed or not. */
    function* rows(name: string, down: boolean, breakAt = 0): Generator<RowOutcome> {
      let closed = true;
      try {
        for (let i = 1; i <= n; i++) {
          if (i === breakAt) throw new Error(`${name} broke`);
          const r = down ? n + 1 - i : i;
          yield { row: r, id: r, results: { sim: result((r % 10) / 10) } };
        }
        closed = false;
      } finally {
        log.push(`${name} ${closed ? "closed" : "ended"}`);
      }
    }
    const compare = (breakA: number, breakB: number, opts: Partial<CompareOptions> = {}) =>
      compareRuns({ name: "a", rows: rows("a", true, breakA) }, { name: "b", rows: rows("b", false, breakB) }, { directions: { sim: "maximize" }, resamples: 10, ...opts });
    const stopped = async (p: Promise<unknown>, reason: unknown, logged: string[]) => {
      log.length = 0;
      await expect(p).rejects.toEqual(reason);
      expect(log.sort()).toEqual(logged);
    };
    await stopped(compare(0, 68_000), new Error("b broke"), ["a closed", "b closed"]); // while run b is held
    await stopped(compare(1_000, 0), new Error("a broke"), ["a closed", "b ended"]); // while run a streams past it
    for (const [at, logged] of [
      [70_000, ["a closed", "b closed"]],
      [130_000, ["a closed", "b ended"]],
    ] as const) {
      const stop = new AbortController();
      await stopped(compare(0, 0, { signal: stop.signal, onProgress: (read) => read === at && stop.abort("stop") }), "stop", [...logged]);
    }
    log.length = 0;
    expect((await compare(0, 0)).rows.matched).toBe(n);
    expect(log.sort()).toEqual(["a ended", "b ended"]);
  });

  it("keeps an evaluator named __proto__ when one run is held whole", async () => {
    // Scores as a store reads them (JSON.parse makes "__proto__" an own key); past 65,536 waiting rows run a is held.
    const rows = (list: number[], shift: number) => list.map((r) => ({ row: r, id: `q${r}`, scores: JSON.parse(`{"__proto__": ${((r + shift) % 10) / 10}, "s": 1}`) as Record<string, number> }));
    const all = Array.from({ length: 140_000 }, (_, i) => i + 1);
    const even = all.filter((r) => r % 2 === 0);
    const directions = JSON.parse('{"__proto__": "maximize", "s": "maximize"}') as Record<string, "maximize">;
    const held = await compareRuns({ name: "a", rows: rows(all, 0) }, { name: "b", rows: rows(even, 3) }, { directions, resamples: 20 });
    const inOrder = await compareRuns({ name: "a", rows: rows(even, 0) }, { name: "b", rows: rows(even, 3) }, { directions, resamples: 20 });
    expect(held.evaluators.map((e) => [e.name, e.n_pairs])).toEqual([["__proto__", 70_000], ["s", 70_000]]);
    expect(held.evaluators).toEqual(inOrder.evaluators);
  });

  it("judges a lower distance as better: B lower on a minimize evaluator is improved, never a regression", async () => {
    const a = [5, 4, 6, 5, 7, 3, 5, 6];
    const b = a.map((x) => x - 2);
    const c = await compareRuns(run("a", { dist: a }), run("b", { dist: b }), { directions: { dist: "minimize" } });
    expect(c.evaluators[0]).toMatchObject({ diff: -2, better: "b", significant: true, regressed: false, rows: { improved: 8, regressed: 0, unchanged: 0 }, worst: [] });
    expect(c.evaluators[0]?.p_value).toBe(2 / 256);
  });

  it("is significant only below alpha: a p-value exactly at alpha is not, exact or Monte Carlo", async () => {
    // Four differences of −1: p = 2/16 exactly.
    const a = run("a", { s: [1, 1, 1, 1] });
    const b = run("b", { s: [0, 0, 0, 0] });
    expect((await compareRuns(a, b, { directions: { s: "maximize" }, alpha: 0.125 })).evaluators[0]).toMatchObject({ p_value: 0.125, better: "a", significant: false, regressed: false });
    expect((await compareRuns(a, b, { directions: { s: "maximize" }, alpha: 0.1250001 })).evaluators[0]).toMatchObject({ significant: true, regressed: true });
    // 30 differences of −1 and 19 random patterns, none as extreme: p = (1 + 0) / (1 + 19) = 0.05.
    const many = await compareRuns(run("a", { s: new Array(30).fill(1) }), run("b", { s: new Array(30).fill(0) }), { directions: { s: "maximize" }, resamples: 19 });
    expect(many.evaluators[0]).toMatchObject({ p_value: 0.05, p_method: "monte_carlo", better: "a", significant: false, regressed: false });
  });

  it("gives n = 1 and n = 2 their exact figures", async () => {
    const one = (await compareRuns(run("a", { s: [0.5] }), run("b", { s: [0.2] }), { directions: { s: "maximize" } })).evaluators[0];
    expect(one).toMatchObject({ n_pairs: 1, p_value: 1, ci: { low: one?.diff, high: one?.diff }, better: "a", significant: false, regressed: false, rows: { improved: 0, regressed: 1, unchanged: 0 } });
    const two = (await compareRuns(run("a", { s: [0.5, 0.5] }), run("b", { s: [0.25, 0.75] }), { directions: { s: "maximize" } })).evaluators[0];
    expect(two).toMatchObject({ n_pairs: 2, diff: 0, p_value: 1, better: "same", rows: { improved: 1, regressed: 1, unchanged: 0 } });
    expect(two?.ci?.low).toBe(-0.25);
    expect(two?.ci?.high).toBe(0.25);
  });

  it("can find p below alpha while the interval holds 0: then neither run is better and it is no regression", async () => {
    // A distance that grew on most rows and fell by 10 on one: the sign-flip test and the bootstrap disagree.
    const d = [2, 1, 1, 2, 0, 2, -10, 1, 0, 1, 2, 0, 2, 2, 0, 1, 2, 2, 2, 2, 2, 0, 1, 0, 2, 0, 2, 1, 0, 1, 0, 1];
    const c = await compareRuns(run("a", { s: d.map(() => 0) }), run("b", { s: d }), { directions: { s: "minimize" }, resamples: 2000, seed: 8 });
    const e = c.evaluators[0];
    expect(e?.p_value).toBeLessThan(0.05);
    expect(e?.ci?.low).toBeLessThanOrEqual(0);
    expect(e).toMatchObject({ significant: true, better: "same", regressed: false });
  });
});

describe("compareRuns by key (pairBy: \"key\")", () => {
  /** Run `name`'s rows as a service stores them: numbered in arrival order `order` (keys k1..kn), row i scoring scores[i - 1]. */
  const arrived = (name: string, scores: number[], order: number[]): ComparisonInput => ({
    name,
    rows: order.map((k, i): RowOutcome => ({ row: i + 1, id: `trace-${k}`, key: `k${k}`, results: { sim: result(scores[k - 1] as number) } })),
  });
  /** Run `name` whose row i (1-based) is `rows[i - 1]`: its id, its key (none when undefined) and its score. */
  const keyedRun = (name: string, rows: [id: string, key: string | undefined, score: number][]): ComparisonInput => ({
    name,
    rows: rows.map(([id, key, score], i): RowOutcome => ({ row: i + 1, id, ...(key === undefined ? {} : { key }), results: { sim: result(score) } })),
  });
  const opts: CompareOptions = { directions: { sim: "maximize" }, resamples: 500, pairBy: "key" };

  it("gives the figures of the same rows paired by number, whatever order each run's rows arrived in", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 10 }), { minLength: 1, maxLength: 40 }), fc.array(fc.integer({ min: 0, max: 10 }), { minLength: 40, maxLength: 40 }), fc.integer(), async (tenthsA, tenthsB, seed) => {
        const n = tenthsA.length;
        const [sa, sb] = [tenthsA.map((t) => t / 10), tenthsB.slice(0, n).map((t) => t / 10)];
        const shuffled = (s: number) => Array.from({ length: n }, (_, i) => i + 1).sort((x, y) => ((x * 7919 + s) % 101) - ((y * 7919 + s) % 101));
        // Every regressed row listed (worst: 40): which of several tied rows a shorter list keeps depends on their numbers.
        const byKey = await compareRuns(arrived("a", sa, shuffled(seed)), arrived("b", sb, shuffled(seed + 1)), { ...opts, worst: 40 });
        const inOrder = Array.from({ length: n }, (_, i) => i + 1);
        const byRow = await compareRuns(arrived("a", sa, inOrder), arrived("b", sb, inOrder), { ...opts, worst: 40, pairBy: "row" });
        // Worst rows tied on how much they regressed come lowest row number (of run a) first, and the rows are numbered otherwise.
        const figures = (e: (typeof byKey.evaluators)[number] | undefined) => e && { ...e, worst: e.worst.map((w) => [w.id, w.score_a, w.score_b]).sort() };
        expect(figures(byKey.evaluators[0])).toEqual(figures(byRow.evaluators[0]));
        expect(byKey).toMatchObject({ rows: { a: n, b: n, matched: n, a_only: 0, b_only: 0 }, dataset_mismatch: null, warnings: [], settings: { pair_by: "key" } });
      }),
      { numRuns: 60 },
    );
  });

  it("names each worst row's number in both runs, and leaves out rows without a key or with a repeated one, with warnings", async () => {
    const a = keyedRun("a", [["t1", "k1", 1], ["t2", "k2", 1], ["t3", undefined, 1], ["t2 again", "k2", 0]]);
    const b = keyedRun("b", [["t2", "k2", 0.5], ["t1", "k1", 1], ["t9", "k9", 1]]);
    const c = await compareRuns(a, b, opts);
    expect(c).toMatchObject({ rows: { a: 2, b: 3, matched: 2, a_only: 0, b_only: 1 }, dataset_mismatch: null });
    expect(c.evaluators[0]).toMatchObject({ n_pairs: 2, mean_a: 1, mean_b: 0.75, worst: [{ row: 2, row_b: 1, id: "t2", score_a: 1, score_b: 0.5 }] });
    expect(c.warnings).toEqual([
      'Run "a", row 3 has no key, so it cannot be paired by key; this row was left out.',
      'Run "a", row 4 has the key string "k2" of an earlier row; the first was kept; this row was left out.',
    ]);
    // By number, the same rows pair otherwise: ids disagree.
    expect((await compareRuns(a, b, { ...opts, pairBy: "row" })).dataset_mismatch).not.toBeNull();
    await expect(compareRuns(a, b, { ...opts, pairBy: "id" as never })).rejects.toThrow('compareRuns: opts.pairBy must be "row" or "key", received string "id"');
  });

  it("refuses, in one message, a run none of whose rows has a key (one read from a dataset file), where every row was a warning", async () => {
    const keyed = arrived("b", [1, 1], [1, 2]);
    const plain: ComparisonInput = { name: "dataset run", rows: [1, 2, 3].map((row): RowOutcome => ({ row, id: `q${row}`, results: { sim: result(1) } })) };
    for (const [a, b] of [[plain, keyed], [keyed, plain]] as const) {
      const e = await evalErrorOf(compareRuns(a, b, opts));
      expect(e).toMatchObject({ code: "CONFIG_INVALID", message: 'pairing by key (pairBy "key", --pair-by key), but none of the 3 rows of run "dataset run" has a key (a run read from a dataset file has none): pair its rows by number (pairBy "row", --pair-by row, the default)' });
    }
    // One row with a key is enough to pair by key; the others are warnings.
    const some = keyedRun("some", [["t1", "k1", 1], ["t2", undefined, 1]]);
    expect((await compareRuns(some, keyed, opts)).rows).toMatchObject({ a: 1, matched: 1 });
  });

  it("gives each worst row's number in run b (row_b) whenever rows are paired by key, also where it is its number in run a, and never by row number", async () => {
    const a = arrived("a", [1, 1, 1], [1, 2, 3]);
    const b = arrived("b", [0, 0.5, 0.2], [3, 2, 1]);
    const c = await compareRuns(a, b, opts);
    // k2 is row 2 of both runs.
    expect(c.evaluators[0]?.worst).toEqual([
      { row: 1, row_b: 3, id: "trace-1", score_a: 1, score_b: 0, delta: -1 },
      { row: 3, row_b: 1, id: "trace-3", score_a: 1, score_b: 0.2, delta: 0.2 - 1 },
      { row: 2, row_b: 2, id: "trace-2", score_a: 1, score_b: 0.5, delta: -0.5 },
    ]);
    const byRow = await compareRuns(a, arrived("b", [0, 0.5, 0.2], [1, 2, 3]), { ...opts, pairBy: "row" });
    expect(byRow.evaluators[0]?.worst.map((w) => Object.keys(w))).toEqual(Array(3).fill(["row", "id", "score_a", "score_b", "delta"]));
  });

  it("says of ids that disagree under one key which key, and its row in each run, not that the datasets differ", async () => {
    const a = keyedRun("a", [["t1", "k1", 1], ["t2", "k2", 1]]);
    const b = keyedRun("b", [["t1", "k1", 1], ["t3", "x", 1], ["other", "k2", 1]]);
    const c = await compareRuns(a, b, opts);
    expect(c.dataset_mismatch).toEqual({
      message:
        'Runs "a" and "b" disagree on the id of 1 row paired by key, first at key string "k2" (row 2 in "a", row 3 in "b"): string "t2" in "a", string "other" in "b"; ' +
        "one key was probably given to different items (traces), so their scores should not be compared key by key.",
      rows: 1,
      examples: [{ row: 2, row_b: 3, key: "k2", id_a: "t2", id_b: "other" }],
    });
    // By row number, the examples and the message are as they were.
    expect((await compareRuns(a, b, { ...opts, pairBy: "row" })).dataset_mismatch?.examples).toEqual([{ row: 2, id_a: "t2", id_b: "t3" }]);
  });

  it("leaves out run b's rows with an empty key or a key it gave before (one run a has, or not), pairing each key once and counting them out of b's rows", async () => {
    const a = keyedRun("a", [["t1", "k1", 1], ["t2", "k2", 1]]);
    const b = keyedRun("b", [["t1", "k1", 0], ["t1 again", "k1", 1], ["t2", "", 0], ["t9", "k9", 1], ["t9 again", "k9", 0]]);
    const c = await compareRuns(a, b, opts);
    // Row 2 of b would pair k1 a second time (n_pairs 2), and row 3's "" is no key.
    expect(c).toMatchObject({ rows: { a: 2, b: 2, matched: 1, a_only: 1, b_only: 1 }, dataset_mismatch: null });
    expect(c.evaluators[0]).toMatchObject({ n_pairs: 1, mean_a: 1, mean_b: 0 });
    // Row 1 in both runs: row_b all the same (paired by key), and nothing of how the list was ordered.
    expect(Object.keys(c.evaluators[0]?.worst[0] ?? {})).toEqual(["row", "row_b", "id", "score_a", "score_b", "delta"]);
    expect(c.warnings).toEqual([
      'Run "b", row 2 has the key string "k1" of an earlier row; the first was kept; this row was left out.',
      'Run "b", row 3 has no key (string ""), so it cannot be paired by key; this row was left out.',
      'Run "b", row 5 has the key string "k9" of an earlier row; the first was kept; this row was left out.',
    ]);
  });
});
