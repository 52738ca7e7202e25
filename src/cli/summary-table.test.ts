import { describe, expect, it } from "vitest";
import type { EvaluatorSummary, RunSummary } from "../run/types.js";
import { summaryTable } from "./summary-table.js";

const lev: EvaluatorSummary = { name: "levenshtein", type: "levenshtein", direction: "maximize", threshold: 0.7, n: 1, skipped: 0, errors: 0, mean: 0.25, median: 0.25, p10: 0.25, p90: 0.25, min: 0.25, max: 0.25, pass_rate: 0, verdicts: 1 };
const summary = (rows: number, extra: Partial<RunSummary> = {}): RunSummary => ({ rows, row_errors: 0, skipped_as_zero: false, evaluators: [lev], ...extra });

describe("summaryTable", () => {
  it("one line per evaluator under the header, then the row count", () => {
    const lines = summaryTable(summary(3, { row_errors: 2 }), 160).split("\n");
    expect(lines[0]?.split(/\s+/)).toEqual(["evaluator", "n", "skipped", "errors", "mean", "median", "p10", "p90", "min", "max", "pass", "rate"]);
    expect(lines[2]?.split(/\s+/)).toEqual(["levenshtein", "1", "0", "0", "0.2500", "0.2500", "0.2500", "0.2500", "0.2500", "0.2500", "0.0%"]);
    expect(lines.at(-1)).toBe("3 rows, 2 unreadable");
  });

  it("puts each count under its own column: n, skipped, errors", () => {
    const counted = { ...lev, n: 7, skipped: 3, errors: 2 };
    expect(summaryTable(summary(12, { evaluators: [counted] }), 160).split("\n")[2]?.split(/\s+/).slice(0, 4)).toEqual(["levenshtein", "7", "3", "2"]);
  });

  it("says row for one row, and when skipped rows counted as 0", () => {
    expect(summaryTable(summary(1), 160).split("\n").at(-1)).toBe("1 row, 0 unreadable");
    expect(summaryTable(summary(2, { skipped_as_zero: true }), 160).split("\n").at(-1)).toBe("2 rows, 0 unreadable, skipped rows counted as 0");
  });

  it("writes the counts of 1,000 or more with thousands separators", () => {
    expect(summaryTable(summary(1234, { row_errors: 1000 }), 160).split("\n").at(-1)).toBe("1,234 rows, 1,000 unreadable");
  });

  it("goes on in a second table, each beginning with the evaluator, when it is wider than the width", () => {
    const long = { ...lev, name: "answer_matches_the_reference_answer_closely" };
    const text = summaryTable({ ...summary(3), evaluators: [lev, long] }, 80);
    const [first, second] = text.split("\n\n") as [string, string];
    expect(first.split("\n")[0]?.split(/\s+/)[0]).toBe("evaluator");
    expect(second.split("\n")[0]?.split(/\s+/)[0]).toBe("evaluator");
    for (const t of [first, second]) expect(t.split("\n").slice(2, 4).map((l) => l.split(/\s+/)[0])).toEqual(["levenshtein", long.name]);
    for (const line of text.split("\n")) expect(line.length).toBeLessThanOrEqual(80);
    expect(text.split("\n").at(-1)).toBe("3 rows, 0 unreadable");
    expect(summaryTable({ ...summary(3), evaluators: [lev, long] }, 200)).not.toContain("\n\n");
  });
});
