import { describe, expect, it } from "vitest";
import { tempFiles } from "../dataset/test-support.js";
import { runDataset } from "./run-dataset.js";
import { firstRowFields, runWarnings } from "./run-warnings.js";

const files = tempFiles("simeval-run-warnings-");
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n");

async function warningsFor(rows: unknown[], evaluators: unknown[]) {
  const dataset = await files.file("rows.jsonl", jsonl(rows));
  return runWarnings(await runDataset({ dataset, evaluators, workers: 0 }));
}

describe("runWarnings", () => {
  const rows = Array.from({ length: 30 }, (_, i) => ({ answer: `answer ${i}`, model_response: { text: `answer ${i % 3}` }, alternatives: i % 2 ? ["a", "b"] : ["a"] }));

  it("says nothing about a run whose mappings reach every row", async () => {
    expect(await warningsFor(rows, [{ type: "levenshtein", inputs: { output: "$.model_response.text", expected: "$.answer" } }])).toEqual([]);
  });

  it("names an expected path that matched nothing on any row", async () => {
    const [w, ...rest] = await warningsFor(rows, [{ type: "levenshtein", inputs: { output: "$.model_response.text", expected: "$.answr" } }]);
    expect(rest).toEqual([]);
    expect(w).toEqual({ evaluator: "levenshtein", message: '"levenshtein": every row was skipped: no row has an expected value at $.answr', nothingScored: false, aboutFields: true });
    // The default mapping is named as such.
    const [d] = await warningsFor([{ output: "x", reference: "x" }], [{ type: "exact_match" }]);
    expect(d?.message).toContain("at $.expected or $.metadata.expectedOutput");
  });

  it("names an output path that matched nothing on the worst rows", async () => {
    const [w, ...rest] = await warningsFor(rows, [{ type: "jaccard_similarity", inputs: { output: "$.model_respons.text", expected: "$.answer" } }]);
    expect(rest).toEqual([]);
    expect(w).toMatchObject({ message: '"jaccard_similarity": its 10 worst rows have no output at $.model_respons.text, so they were scored against the empty string', aboutFields: true });
    const [one] = await warningsFor(rows.slice(0, 1), [{ type: "jaccard_similarity", inputs: { output: "$.model_respons.text", expected: "$.answer" } }]);
    expect(one?.message).toBe('"jaccard_similarity": its worst row has no output at $.model_respons.text, so it was scored against the empty string');
  });

  it("gives an evaluator's first error, and says when it scored nothing", async () => {
    const some = await warningsFor(rows, [{ type: "exact_match", inputs: { output: "$.alternatives[*]", expected: "$.answer" } }]);
    expect(some).toEqual([
      { evaluator: "exact_match", message: expect.stringMatching(/^"exact_match": 15 rows failed; the first, row 2: output: JSONPath \$\.alternatives\[\*\] matched 2 values/), nothingScored: false, aboutFields: false },
    ]);
    const odd = rows.filter((_, i) => i % 2);
    const all = await warningsFor(odd, [{ type: "exact_match", inputs: { output: "$.alternatives[*]", expected: "$.answer" } }]);
    expect(all).toEqual([{ evaluator: "exact_match", message: expect.stringContaining('"exact_match": 15 rows failed, and nothing was scored; the first, row 1:'), nothingScored: true, aboutFields: false }]);
  });

  it("reads the first readable row's fields for the hint", async () => {
    expect(await firstRowFields(await files.file("f.jsonl", `{bad\n${jsonl(rows.slice(0, 2))}`))).toEqual(["answer", "model_response", "alternatives"]);
    expect(await firstRowFields(await files.file("bad.jsonl", "{bad\n[1]"))).toBeNull();
  });
});
