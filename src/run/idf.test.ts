import { describe, expect, it } from "vitest";
import type { DatasetItem } from "../dataset/rows.js";
import { createRunEvaluators } from "./run-dataset.js";
import { datasetIdfEvaluators, fitDatasetIdf } from "./idf.js";

async function* itemsOf(records: Record<string, unknown>[]): AsyncGenerator<DatasetItem> {
  for (const [i, record] of records.entries()) yield { row: i + 1, line: i + 1, record };
}

describe("fitDatasetIdf", () => {
  it("counts only the rows that have an expected text, and each token once a row", async () => {
    const evaluators = datasetIdfEvaluators(createRunEvaluators([{ type: "tfidf_similarity", name: "tf", config: { idf: "dataset" } }]));
    const { idfs, rows } = await fitDatasetIdf(itemsOf([{ expected: "a b a" }, { expected: null }, { output: "x" }, { expected: "b" }]), evaluators);
    expect(rows).toBe(4);
    expect(idfs["tf"]!.n).toBe(2);
    expect(new Map(idfs["tf"]!.df)).toEqual(new Map([["a", 1], ["b", 2]]));
  });

  it("normalizes the expected texts as the evaluator's unicode_normalization says", async () => {
    const evaluators = datasetIdfEvaluators(createRunEvaluators([{ type: "tfidf_similarity", name: "tf", config: { idf: "dataset", unicode_normalization: "NFKC" } }]));
    const { idfs } = await fitDatasetIdf(itemsOf([{ expected: "\uFB01le" }, { expected: "file" }]), evaluators);
    expect(new Map(idfs["tf"]!.df)).toEqual(new Map([["file", 2]]));
  });
});
