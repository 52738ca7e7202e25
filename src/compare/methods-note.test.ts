import { describe, expect, it } from "vitest";
import type { RowOutcome } from "../run/types.js";
import { compareRuns, type ComparisonInput } from "./compare.js";
import { methodsNote } from "./methods-note.js";

/** A run whose row i (1-based) scores `scores[name][i - 1]` on each evaluator. */
function run(name: string, scores: Record<string, number[]>): ComparisonInput {
  const length = Math.max(...Object.values(scores).map((s) => s.length));
  const rows: RowOutcome[] = Array.from({ length }, (_, i) => ({
    row: i + 1,
    id: `q${i + 1}`,
    results: Object.fromEntries(
      Object.entries(scores).map(([ev, list]) => [ev, { type: "t", score: list[i] as number, passed: null, label: null, reasoning: "", skipped: false, details: {} }]),
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
});
