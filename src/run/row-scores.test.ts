import { describe, expect, it } from "vitest";
import type { RowResult } from "./types.js";
import { thrownEvalError } from "../test-support.js";
import { pairableScore, rowScores } from "./row-scores.js";

const stored = (score: number | null, skipped = false): RowResult => ({ type: "t", score, passed: null, label: null, reasoning: "", skipped, details: {} });

describe("pairableScore", () => {
  it("is the score of a result that was scored, and null otherwise", () => {
    expect(pairableScore(stored(0.25))).toBe(0.25);
    expect(pairableScore(stored(0))).toBe(0);
    expect(pairableScore(stored(-3))).toBe(-3);
    expect(pairableScore(stored(0, true))).toBeNull(); // skipped, even with a score of 0
    expect(pairableScore(stored(null))).toBeNull();
    expect(pairableScore(stored(Number.NaN))).toBeNull();
    expect(pairableScore(stored(Number.POSITIVE_INFINITY))).toBeNull();
    expect(pairableScore({ error: { code: "INPUT_INVALID", message: "x" } })).toBeNull();
    expect(pairableScore(undefined)).toBeNull();
  });
});

describe("rowScores", () => {
  it("keeps the row number, the id and one entry per result", () => {
    expect(rowScores({ row: 3, id: { k: 1 }, results: { a: stored(1), b: stored(0, true) } })).toEqual({ row: 3, id: { k: 1 }, scores: { a: 1, b: null } });
    expect(rowScores({ row: 4, id: null, results: {}, error: { code: "DATASET_INVALID", message: "bad" } })).toEqual({ row: 4, id: null, scores: {} });
  });
});

describe("rowScores of an unreadable row", () => {
  it("has no scores, also when its empty results are left out (compareRuns threw a bare TypeError)", () => {
    const unreadable = { row: 2, id: null, line: 2, error: { code: "DATASET_ROW_INVALID", message: "line 2: not valid JSON" } };
    expect(rowScores(unreadable as unknown as Parameters<typeof rowScores>[0])).toEqual({ row: 2, id: null, scores: {} });
    expect(rowScores({ ...unreadable, results: {} })).toEqual({ row: 2, id: null, scores: {} });
  });
});

describe("arguments of the wrong kind", () => {
  it("rowScores refuses what is not an outcome with INPUT_INVALID naming it (nothing or null threw a TypeError, 5 gave an empty row)", () => {
    const cases: [unknown, string][] = [
      [undefined, "rowScores: outcome must be a row outcome ({ row, id, results }), received nothing"],
      [null, "rowScores: outcome must be a row outcome ({ row, id, results }), received null"],
      [5, "rowScores: outcome must be a row outcome ({ row, id, results }), received number 5"],
      [[], "rowScores: outcome must be a row outcome ({ row, id, results }), received array of 0"],
      [{}, "rowScores: outcome.row must be a number (the row number), received nothing"],
      [{ row: 1, results: 5 }, "rowScores: outcome.results must be an object of results by evaluator name or nothing, received number 5"],
    ];
    for (const [outcome, message] of cases) {
      expect(thrownEvalError(() => rowScores(outcome as never))).toMatchObject({ code: "INPUT_INVALID", message });
    }
  });

  it("pairableScore refuses what is not a result or nothing with INPUT_INVALID (null and 5 threw a TypeError from an in check)", () => {
    for (const [result, received] of [[null, "null"], [5, "number 5"], ["x", 'string "x"'], [[], "array of 0"]] as const) {
      expect(thrownEvalError(() => pairableScore(result as never))).toMatchObject({
        code: "INPUT_INVALID",
        message: `pairableScore: result must be an evaluator's result ({ score, skipped, … } or { error }) or nothing, received ${received}`,
      });
    }
  });
});
