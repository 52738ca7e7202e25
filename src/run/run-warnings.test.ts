import { describe, expect, it } from "vitest";
import { tempFiles } from "../dataset/test-support.js";
import { runDataset } from "./run-dataset.js";
import { fieldHints, firstRowFields, firstRowFieldsText, runWarnings, warningsSaidOnce } from "./run-warnings.js";

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
    expect(w).toEqual({ evaluator: "levenshtein", message: '"levenshtein": every row was skipped: no row has an expected value at $.answr', nothingScored: false, aboutFields: true, parameter: "expected", allSkippedAt: "$.answr", defaultOutput: false });
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

describe("warningsSaidOnce", () => {
  it("says once, naming them all, that evaluators skipped every row for want of the same expected value, and keeps the others", async () => {
    // Rows without an expected text: every evaluator reading the default place skips them all.
    const rows = [{ output: "a", answer: "a" }, { output: "b", answer: "b" }];
    const warnings = await warningsFor(rows, [
      { type: "exact_match" },
      { type: "levenshtein" },
      { type: "jaccard_similarity", inputs: { expected: "$.answr" } },
      { type: "jaccard_similarity", name: "jac_out", inputs: { expected: "$.answer", output: "$.outpt" } },
      { type: "tfidf_similarity" },
    ]);
    // Each said it in its own box, alike but for its name; jac_out's missing output is another thing.
    expect(warnings.filter((w) => w.allSkippedAt !== undefined)).toHaveLength(4);
    expect(warningsSaidOnce(warnings)).toEqual([
      '"exact_match", "levenshtein" and "tfidf_similarity": every row was skipped: no row has an expected value at $.expected or $.metadata.expectedOutput',
      '"jaccard_similarity": every row was skipped: no row has an expected value at $.answr',
      '"jac_out": its 2 worst rows have no output at $.outpt, so they were scored against the empty string',
    ]);
    // One evaluator's warning reads as runWarnings wrote it.
    const one = await warningsFor(rows, [{ type: "levenshtein" }]);
    expect(warningsSaidOnce(one)).toEqual(one.map((w) => w.message));
    // Two are named both, joined by "and".
    const two = await warningsFor(rows, [{ type: "exact_match" }, { type: "levenshtein", name: "lev" }]);
    expect(warningsSaidOnce(two)).toEqual(['"exact_match" and "lev": every row was skipped: no row has an expected value at $.expected or $.metadata.expectedOutput']);
    // Past five, the others are counted: a config of 200 evaluators is not 200 names.
    const seven = await warningsFor(rows, Array.from({ length: 7 }, (_, i) => ({ type: "exact_match", name: `em${i}` })));
    expect(warningsSaidOnce(seven)).toEqual(['"em0", "em1", "em2", "em3", "em4" and 2 more evaluators: every row was skipped: no row has an expected value at $.expected or $.metadata.expectedOutput']);
  });

  it("says once, naming them all, that evaluators' worst rows had no output at the same place", async () => {
    const rows = [{ "model.text": "a", expected: "a" }, { "model.text": "b", expected: "b" }];
    const typo = { output: "$.model.text" };
    const warnings = await warningsFor(rows, [
      { type: "exact_match", inputs: typo },
      { type: "levenshtein", name: "lev", inputs: typo },
      { type: "jaccard_similarity", inputs: { output: "$.answer" } },
    ]);
    expect(warnings.filter((w) => w.noOutputAt !== undefined)).toHaveLength(3);
    expect(warningsSaidOnce(warnings)).toEqual([
      '"exact_match" and "lev": their worst rows have no output at $.model.text, so they were scored against the empty string',
      '"jaccard_similarity": its 2 worst rows have no output at $.answer, so they were scored against the empty string',
    ]);
    // The field named with a dot is what $.model.text was meant to read: said, with the mapping that reads it.
    expect(fieldHints(warnings, Object.keys(rows[0]!))).toEqual([
      'the first row has a field named "model.text", with a dot in its name, which $.model.text does not reach (it reads "text" inside "model"): map it: "inputs": {"output": "$[\\"model.text\\"]"}',
    ]);
  });

  it("names a dotted field for the expected value too, and only a field that is there, in place of the hint by likely names", async () => {
    // Every row skipped for want of $.ref.answer, held in a field "ref.answer"; "response" would be the output's likeliest name.
    const rows = [{ response: "a", "model.text": "a", "ref.answer": "a" }];
    const warnings = await warningsFor(rows, [{ type: "exact_match", inputs: { output: "$.model.text", expected: "$.ref.answer" } }]);
    expect(fieldHints(warnings, Object.keys(rows[0]!))).toEqual([
      'the first row has a field named "ref.answer", with a dot in its name, which $.ref.answer does not reach (it reads "answer" inside "ref"): map it: "inputs": {"expected": "$[\\"ref.answer\\"]"}',
    ]);
    // No field "model.text": the output's hint is by likely names, not of a dotted field that is not there.
    const other = [{ response: "a", expected: "a" }, { response: "b", expected: "a" }];
    const missing = await warningsFor(other, [{ type: "exact_match", inputs: { output: "$.model.text" } }]);
    expect(fieldHints(missing, Object.keys(other[0]!))).toEqual(['to read "response" as the output, map it: "inputs": {"output": "$.response"}']);
    // With the field there, the dotted field's hint stands in for the one by likely names.
    const both = [{ response: "a", "model.text": "a", expected: "a" }, { response: "b", "model.text": "b", expected: "a" }];
    const dotted = await warningsFor(both, [{ type: "exact_match", inputs: { output: "$.model.text" } }]);
    expect(fieldHints(dotted, Object.keys(both[0]!))).toEqual([
      'the first row has a field named "model.text", with a dot in its name, which $.model.text does not reach (it reads "text" inside "model"): map it: "inputs": {"output": "$[\\"model.text\\"]"}',
    ]);
  });
});

describe("fieldHints", () => {
  it("names the field of the first row that usually holds what no row held, with the mapping that reads it", async () => {
    // The product documents call the reference expectedOutput; a row's own field of that name is not read unless mapped.
    const rows = [{ input: "q", actual_output: "Paris", expectedOutput: "Paris" }];
    const warnings = await warningsFor(rows, [{ type: "exact_match" }, { type: "levenshtein" }]);
    // The output, never looked for as every row was skipped, is not at $.output in the first row either: both are said at once.
    expect(fieldHints(warnings, Object.keys(rows[0] ?? {}))).toEqual([
      'to read "expectedOutput" as the expected output, map it: "inputs": {"expected": "$.expectedOutput"}',
      'to read "actual_output" as the output, map it: "inputs": {"output": "$.actual_output"}',
    ]);
    // Not when the first row has an output, or when the evaluators read it from elsewhere.
    expect(fieldHints(warnings, ["output", "expectedOutput", "actual_output"])).toEqual(['to read "expectedOutput" as the expected output, map it: "inputs": {"expected": "$.expectedOutput"}']);
    const mapped = await warningsFor(rows, [{ type: "exact_match", inputs: { output: "$.actual_output" } }]);
    expect(fieldHints(mapped, Object.keys(rows[0] ?? {}))).toEqual(['to read "expectedOutput" as the expected output, map it: "inputs": {"expected": "$.expectedOutput"}']);
    // One evaluator reading the output at its default place is enough, beside another that maps it.
    const some = await warningsFor(rows, [{ type: "exact_match", inputs: { output: "$.actual_output" } }, { type: "levenshtein" }]);
    expect(fieldHints(some, Object.keys(rows[0] ?? {}))).toEqual([
      'to read "expectedOutput" as the expected output, map it: "inputs": {"expected": "$.expectedOutput"}',
      'to read "actual_output" as the output, map it: "inputs": {"output": "$.actual_output"}',
    ]);
    // Output: only the worst rows' warning says it, so every row here lacks an output.
    const noOutput = await warningsFor([{ "model response": "Paris", expected: "Paris" }], [{ type: "exact_match" }]);
    expect(fieldHints(noOutput, ["model response", "expected"])).toEqual(['to read "model response" as the output, map it: "inputs": {"output": "$[\\"model response\\"]"}']);
  });

  it("names a question-and-answer dataset's answer as the reference, after the names that say so more plainly", async () => {
    const rows = [{ question: "q", answer: "Paris", model_response: { text: "Paris" } }];
    const warnings = await warningsFor(rows, [{ type: "exact_match", inputs: { output: "$.model_response.text" } }]);
    expect(fieldHints(warnings, Object.keys(rows[0] ?? {}))).toEqual(['to read "answer" as the expected output, map it: "inputs": {"expected": "$.answer"}']);
    expect(fieldHints(warnings, ["answer", "reference"])).toEqual(['to read "reference" as the expected output, map it: "inputs": {"expected": "$.reference"}']);
  });

  it("names a field that is the default name in another case (a spreadsheet's Expected, Output header), which JSONPath does not match", async () => {
    const rows = [{ Input: "q", Output: "Paris", Expected: "Paris" }];
    const warnings = await warningsFor(rows, [{ type: "exact_match" }]);
    expect(fieldHints(warnings, Object.keys(rows[0] ?? {}))).toEqual([
      'to read "Expected" as the expected output, map it: "inputs": {"expected": "$.Expected"}',
      'to read "Output" as the output, map it: "inputs": {"output": "$.Output"}',
    ]);
    const noOutput = await warningsFor([{ OUTPUT: "Paris", expected: "Paris" }], [{ type: "exact_match" }]);
    expect(fieldHints(noOutput, ["OUTPUT", "expected"])).toEqual(['to read "OUTPUT" as the output, map it: "inputs": {"output": "$.OUTPUT"}']);
    // The default name itself, present but holding null on every row, is not suggested as its own mapping.
    const nulls = await warningsFor([{ output: "x", expected: null }], [{ type: "exact_match" }]);
    expect(fieldHints(nulls, ["output", "expected"])).toEqual([]);
  });

  it("says of rows shaped as simeval's results.jsonl (row, id, results) that the file is one, not a dataset", async () => {
    const rows = [{ row: 1, id: "q1", results: { exact_match: { score: 1 } } }];
    const warnings = await warningsFor(rows, [{ type: "exact_match" }]);
    expect(fieldHints(warnings, ["row", "id", "results"])).toEqual([
      "the rows look like a results.jsonl that simeval run --out wrote (row, id, results), which holds scores, not texts: give the dataset that was scored",
    ]);
  });

  it("says nothing when no field's name suggests the parameter, or no warning is about a missing field", async () => {
    const warnings = await warningsFor([{ output: "x", answer_key: "x" }], [{ type: "exact_match" }]);
    expect(warnings).toHaveLength(1);
    expect(fieldHints(warnings, ["output", "answer_key"])).toEqual([]);
    expect(fieldHints([], ["expectedOutput"])).toEqual([]);
  });
});

describe("firstRowFieldsText", () => {
  it("quotes each field, and says that a first row {} has none rather than ending after \"are\"", () => {
    expect(firstRowFieldsText(["a", "b c"])).toBe('the first row\'s fields are "a", "b c"');
    expect(firstRowFieldsText([])).toBe("the first row has no fields (it is {})");
  });

  it("names the first 20 fields and says how many more there are, where it stopped at 20 without a word", async () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `f${i + 1}`);
    const listed = (n: number) => names(n).map((f) => JSON.stringify(f)).join(", ");
    expect(firstRowFieldsText(names(20))).toBe(`the first row's fields are ${listed(20)}`);
    expect(firstRowFieldsText(names(21))).toBe(`the first row's fields are ${listed(20)}, and 1 more`);
    expect(firstRowFieldsText(names(25))).toBe(`the first row's fields are ${listed(20)}, and 5 more`);
    // firstRowFields gives them all, so that the count is right and a hint finds a likely field past the 20th.
    const row = Object.fromEntries([...names(24), "expectedOutput"].map((f) => [f, "x"]));
    const fields = await firstRowFields(await files.file("wide.jsonl", jsonl([row])));
    expect(fields).toHaveLength(25);
    expect(firstRowFieldsText(fields ?? [])).toMatch(/"f20", and 5 more$/);
    const warnings = await warningsFor([{ ...row, output: "x" }], [{ type: "exact_match" }]);
    expect(fieldHints(warnings, fields ?? [])).toEqual(['to read "expectedOutput" as the expected output, map it: "inputs": {"expected": "$.expectedOutput"}']);
  });
});
