import { describe, expect, it } from "vitest";
import { tempFiles } from "../dataset/test-support.js";
import { runDataset } from "./run-dataset.js";

const files = tempFiles("simeval-run-dataset-");

const SPECS = [{ type: "exact_match" }, { type: "levenshtein" }, { type: "jaccard_similarity" }, { type: "tfidf_similarity" }];

function rows(n: number): string {
  return Array.from({ length: n }, (_, i) => {
    if (i % 211 === 0) return "{not json";
    return JSON.stringify({ id: `r${i}`, output: `answer ${i % 17} is ${i % 5 ? "right" : "wrong"}`, expected: i % 97 === 0 ? null : `answer ${i % 13} is right` });
  }).join("\n");
}

async function linesOf(dataset: string, workers: number) {
  const chunks: Uint8Array[] = [];
  const result = await runDataset({ dataset, evaluators: SPECS, workers, batchSize: 16, write: (bytes) => void chunks.push(bytes) });
  return { lines: Buffer.concat(chunks).toString("utf8").split("\n").slice(0, -1), result };
}

describe("runDataset on worker threads", () => {
  it("writes exactly what scoring on one thread writes, in input order", async () => {
    const dataset = await files.file("rows.jsonl", rows(3000));
    const inline = await linesOf(dataset, 0);
    const threaded = await linesOf(dataset, 1);
    expect(threaded.lines).toHaveLength(3000);
    expect(threaded.lines).toEqual(inline.lines);
    expect(threaded.result.summary).toEqual(inline.result.summary);
    expect(threaded.result.worst).toEqual(inline.result.worst);
    expect(threaded.result.histograms).toEqual(inline.result.histograms);
  });
});
