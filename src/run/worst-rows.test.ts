import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createEvaluators } from "../evaluators/create.js";
import type { StoredResult } from "./types.js";
import { WorstRows, compareWorst } from "./worst-rows.js";

// One evaluator of each direction: the worst are the lowest similarities and the highest distances.
const evaluators = createEvaluators([
  { type: "levenshtein", name: "similarity" },
  { type: "levenshtein_distance", name: "distance" },
]);

/** A row's scores under both evaluators; null = skipped (never among the worst). */
interface Scored {
  row: number;
  similarity: number | null;
  distance: number | null;
}

function result(score: number | null): StoredResult {
  return { type: "levenshtein", score, passed: score === null ? null : false, label: null, reasoning: "", skipped: score === null, details: {} };
}

/** Keeps the worst `k` of `rows` the way a run does: each part (a thread) fed its batches in the order given, then merged. */
function keptByParts(parts: Scored[][][], k: number): Record<string, { row: number; score: number }[]> {
  const kept = parts.map((batches) => {
    const worst = new WorstRows(evaluators, k);
    for (const batch of batches) {
      for (const s of batch) {
        worst.offer({ row: s.row, id: null, results: { similarity: result(s.similarity), distance: result(s.distance) } }, { output: "a", expected: "b" });
      }
    }
    return worst.result();
  });
  const merged = WorstRows.merge(kept, evaluators, k);
  return Object.fromEntries(Object.entries(merged).map(([name, rows]) => [name, rows.map((r) => ({ row: r.row, score: r.score }))]));
}

/** The reference: sort every scored row by (score, row) in the evaluator's direction and take `k`. */
function sortAndTake(rows: Scored[], name: "similarity" | "distance", k: number): { row: number; score: number }[] {
  const maximize = name === "similarity";
  return rows
    .flatMap((s) => (s[name] === null ? [] : [{ row: s.row, score: s[name] as number }]))
    .sort((x, y) => (x.score !== y.score ? (maximize ? x.score - y.score : y.score - x.score) : x.row - y.row))
    .slice(0, k);
}

describe("WorstRows", () => {
  it("keeps the k worst (score, row) pairs, ties to the lowest rows, whatever the batches, threads and order", () => {
    // Few distinct scores, so that most rows tie.
    const score = fc.option(fc.constantFrom(0, 0.5, 1, 2), { nil: null, freq: 8 });
    const rows = fc.array(fc.record({ similarity: score, distance: score }), { maxLength: 60 }).map((xs) => xs.map((x, i) => ({ row: i + 1, ...x })));
    const setup = rows.chain((rs) =>
      fc.record({
        rows: fc.constant(rs),
        k: fc.integer({ min: 0, max: 12 }),
        // Each row goes to a batch; each batch to a thread; each thread's batches (and a batch's rows) come in any order.
        batchOf: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: rs.length, maxLength: rs.length }),
        threadOf: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 6, maxLength: 6 }),
        shuffle: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: rs.length, maxLength: rs.length }),
      }),
    );
    fc.assert(
      fc.property(setup, ({ rows, k, batchOf, threadOf, shuffle }) => {
        const order = rows.map((r, i) => ({ r, key: shuffle[i] as number })).sort((a, b) => a.key - b.key).map((x) => x.r);
        const parts: Scored[][][] = [[], [], []];
        const batches: Scored[][] = Array.from({ length: 6 }, () => []);
        for (const r of order) batches[batchOf[r.row - 1] as number]?.push(r);
        batches.forEach((b, i) => parts[threadOf[i] as number]?.push(b));
        const kept = keptByParts(parts, k);
        expect(kept["similarity"]).toEqual(sortAndTake(rows, "similarity", k));
        expect(kept["distance"]).toEqual(sortAndTake(rows, "distance", k));
      }),
      { numRuns: 500 },
    );
  });

  it("keeps a lower tied row offered after a higher one (rows awaiting embeddings finish late)", () => {
    const kept = keptByParts([[[{ row: 5, similarity: 0, distance: 3 }], [{ row: 2, similarity: 0, distance: 3 }]]], 1);
    expect(kept["similarity"]).toEqual([{ row: 2, score: 0 }]);
    expect(kept["distance"]).toEqual([{ row: 2, score: 3 }]);
  });
});

describe("compareWorst", () => {
  it("puts the worse score first in the evaluator's direction, then the lower row", () => {
    expect(compareWorst({ row: 9, score: 0.1 }, { row: 1, score: 0.2 }, "maximize")).toBeLessThan(0);
    expect(compareWorst({ row: 9, score: 0.1 }, { row: 1, score: 0.2 }, "minimize")).toBeGreaterThan(0);
    expect(compareWorst({ row: 1, score: 0 }, { row: 2, score: -0 }, "maximize")).toBeLessThan(0);
    expect(compareWorst({ row: 3, score: 4 }, { row: 3, score: 4 }, "minimize")).toBe(0);
  });
});
