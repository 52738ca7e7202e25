import { describe, expect, it } from "vitest";
import { thrownEvalError } from "../test-support.js";
import { renderComparisonReport, renderJUnit, renderRunReport, renderTrendReport } from "./index.js";

describe("the report renderers' input", () => {
  const renderers = { renderRunReport, renderComparisonReport, renderTrendReport, renderJUnit } as Record<string, (input: unknown) => string>;
  const expected: Record<string, string> = {
    renderRunReport: "a run report's input ({ run, summary, evaluators })",
    renderComparisonReport: "a comparison report's input ({ a, b, evaluators })",
    renderTrendReport: "a trend report's input ({ runs, series })",
    renderJUnit: "a JUnit report's input ({ name, evaluators, rows, gates })",
  };

  it("refuses nothing, null, a number or an array with INPUT_INVALID naming the renderer (they threw a TypeError)", () => {
    for (const [fn, render] of Object.entries(renderers)) {
      for (const [input, received] of [[undefined, "nothing"], [null, "null"], [5, "number 5"], [[], "array of 0"]] as const) {
        expect(thrownEvalError(() => render(input))).toMatchObject({ code: "INPUT_INVALID", message: `${fn}: input must be ${expected[fn]}, received ${received}` });
      }
    }
  });

  it("refuses an input without its fields ({}) or with a field of the wrong kind, naming the first", () => {
    const cases: [string, unknown, string][] = [
      ["renderRunReport", {}, "input.run must be an object (the run's id, name, started_at, …), received nothing"],
      ["renderRunReport", { run: {}, summary: {}, evaluators: 5 }, "input.evaluators must be an array, received number 5"],
      ["renderRunReport", { run: {}, summary: {}, evaluators: [], warnings: "x" }, 'input.warnings must be an array or nothing, received string "x"'],
      ["renderComparisonReport", {}, "input.a must be an object (the run's id, name, started_at, …), received nothing"],
      ["renderComparisonReport", { a: {}, b: {}, evaluators: [], confidence: "95%" }, 'input.confidence must be a number or nothing, received string "95%"'],
      ["renderComparisonReport", { a: {}, b: {}, evaluators: [], methods: 5 }, "input.methods must be a string or nothing, received number 5"],
      ["renderTrendReport", {}, "input.runs must be an array, received nothing"],
      ["renderTrendReport", { runs: [], series: [], title: 5 }, "input.title must be a string or nothing, received number 5"],
      ["renderJUnit", {}, "input.name must be a string, received nothing"],
      ["renderJUnit", { name: "n", evaluators: [], rows: 5, gates: [] }, "input.rows must be an iterable of row outcomes, received number 5"],
      ["renderJUnit", { name: "n", evaluators: [], rows: [], gates: null }, "input.gates must be an array, received null"],
      ["renderJUnit", { name: "n", evaluators: [], rows: [{ row: 1, results: {} }, null], gates: [] }, "input.rows[1] must be a row outcome ({ row, id, results } or { row, error }), received null"],
    ];
    for (const [fn, input, message] of cases) {
      const e = thrownEvalError(() => (renderers[fn] as (input: unknown) => string)(input));
      expect(e).toMatchObject({ code: "INPUT_INVALID", message: `${fn}: ${message}` });
    }
  });
});
