import { describe, expect, it } from "vitest";
import type { RowOutcome } from "../run/types.js";
import { compareRuns, type ComparisonInput } from "./compare.js";
import { methodsNote } from "./methods-note.js";

/** A run whose row i (1-based) scores `scores[name][i - 1]` on each evaluator (none where that is undefined). */
function run(name: string, scores: Record<string, number[]>): ComparisonInput {
  const length = Math.max(...Object.values(scores).map((s) => s.length));
  const rows: RowOutcome[] = Array.from({ length }, (_, i) => ({
    row: i + 1,
    id: `q${i + 1}`,
    results: Object.fromEntries(
      Object.entries(scores).flatMap(([ev, list]) => (list[i] === undefined ? [] : [[ev, { type: "t", score: list[i], passed: null, label: null, reasoning: "", skipped: false, details: {} }]])),
    ),
  }));
  return { name, rows };
}

const n = 100;
const zeros = Array<number>(n).fill(0);
/** `count` rows moved to 1 from run a's 0: a p-value is exact with at most 20 of them. */
const moved = (count: number): number[] => zeros.map((_, i) => (i < count ? 1 : 0));
const directions = { few: "maximize", many: "maximize" } as const;

describe("methodsNote", () => {
  it("names the evaluators whose p counted every sign pattern, beside the sampled ones with their count and seed", async () => {
    const c = await compareRuns(run("a", { few: zeros, many: zeros }), run("b", { few: moved(5), many: moved(60) }), { directions, seed: 7, resamples: 2000 });
    expect(c.evaluators.map((e) => e.p_method)).toEqual(["exact", "monte_carlo"]);
    expect(methodsNote(c)).toBe(
      "p: two-sided paired sign-flip permutation test over 2,000 random sign patterns (seed 7), exact (every sign pattern counted) for few; " +
        "CI: 95% paired percentile bootstrap of the mean difference, 2,000 resamples (seed 7).",
    );
  });

  it("says only what was used: all exact, or all sampled", async () => {
    const exact = await compareRuns(run("a", { few: zeros }), run("b", { few: moved(20) }), { directions });
    expect(methodsNote(exact)).toMatch(/^p: two-sided paired sign-flip permutation test, exact \(every sign pattern counted\); CI: 95% .*, 10,000 resamples \(seed 1\)\.$/);
    const sampled = await compareRuns(run("a", { many: zeros }), run("b", { many: moved(21) }), { directions, alpha: 0.1 });
    expect(sampled.evaluators[0]?.p_method).toBe("monte_carlo");
    expect(methodsNote(sampled)).toBe(
      "p: two-sided paired sign-flip permutation test over 10,000 random sign patterns (seed 1); CI: 90% paired percentile bootstrap of the mean difference, 10,000 resamples (seed 1).",
    );
  });

  it("names those without a p-value beside the others, and cuts a long list of names", async () => {
    const names = Array.from({ length: 8 }, (_, i) => `e${i}`);
    const scores = (list: (n: string) => number[]) => Object.fromEntries([...names.map((n) => [n, list(n)] as const), ["many", list("many")]]);
    const a = run("a", scores(() => zeros));
    const b = run("b", scores((n) => (n === "many" ? moved(60) : moved(3))));
    const wide = Object.fromEntries([...names, "many"].map((n) => [n, "maximize" as const]));
    const c = await compareRuns(a, b, { directions: wide, resamples: 500 });
    expect(methodsNote(c)).toContain("over 500 random sign patterns (seed 1), exact (every sign pattern counted) for e0, e1, e2, e3, e4 and 3 more evaluators; CI:");
    // An evaluator with no pair has no p-value: said, not left to read as sampled.
    const half = (from: number) => zeros.map((z, i) => (i >= from && i < from + n / 2 ? z : undefined)) as number[];
    const noPairs = await compareRuns(run("a", { many: zeros, gone: half(0) }), run("b", { many: moved(60), gone: half(n / 2) }), { directions: { many: "maximize", gone: "maximize" }, resamples: 500 });
    expect(noPairs.evaluators.map((e) => [e.name, e.p_method])).toEqual([["many", "monte_carlo"], ["gone", null]]);
    expect(methodsNote(noPairs)).toContain("over 500 random sign patterns (seed 1), none for gone (no pairs); CI:");
  });
});
