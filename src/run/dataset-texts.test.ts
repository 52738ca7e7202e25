import { rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { hashFile } from "../dataset/hash.js";
import { tempDir, writeIn } from "../test-support.js";
import { DatasetTexts } from "./dataset-texts.js";

const dir = tempDir("simeval-dataset-texts-");
const ROWS = '{"id":"a","expected":"hello world","output":"hello wrld"}\n{"id":"b","expected":"foo bar","output":"foo baz"}\n';
const spec = { type: "exact_match" };

/** A dataset file as a run recorded it: its path and the hash of `content`. */
async function recorded(name: string, content = ROWS) {
  const path = writeIn(dir, name, content);
  return { path, sha256: await hashFile(path) };
}

describe("DatasetTexts", () => {
  it("reads the rows' texts from a dataset file that still has the recorded hash", async () => {
    const texts = new DatasetTexts(await recorded("same.jsonl"), "A");
    expect(await texts.unavailable()).toBeNull();
    expect(await texts.rowTexts(spec, new Set([2]))).toEqual(new Map([[2, { output: "foo baz", expected: "foo bar" }]]));
  });

  it("shows none of a changed file's texts, and says the dataset has changed", async () => {
    const dataset = await recorded("changed.jsonl");
    writeIn(dir, "changed.jsonl", '{"id":"zzz","expected":"CHANGED","output":"CHANGED"}\n');
    const texts = new DatasetTexts(dataset, "B");
    expect(await texts.rowTexts(spec, new Set([1]))).toBeNull();
    expect(await texts.unavailable()).toBe(`the dataset of B (${dataset.path}) has changed since the run`);
  });

  it("says a file under a path that is no longer a folder is missing", async () => {
    const folder = writeIn(dir, "was-a-folder", "now a file");
    const texts = new DatasetTexts({ path: `${folder}/rows.jsonl`, sha256: "0".repeat(64) }, "A");
    expect(await texts.unavailable()).toBe(`the dataset of A (${folder}/rows.jsonl) is missing`);
  });

  it("says a missing file is missing", async () => {
    const dataset = await recorded("gone.jsonl");
    rmSync(dataset.path);
    const texts = new DatasetTexts(dataset, "A and B");
    expect(await texts.rowTexts(spec, new Set([1]))).toBeNull();
    expect(await texts.unavailable()).toBe(`the dataset of A and B (${dataset.path}) is missing`);
  });

  it("says a run without a dataset (a results.jsonl file) has no texts", async () => {
    const texts = new DatasetTexts(null, "A (a.jsonl)");
    expect(await texts.rowTexts(spec, new Set([1]))).toBeNull();
    expect(await texts.unavailable()).toBe("A (a.jsonl) is a results.jsonl file, which records no dataset");
  });

  it("says a stored run not read from a dataset file (null path and hash: a service's) has no texts, without reading a file", async () => {
    const texts = new DatasetTexts({ path: null, sha256: null }, "A and B");
    expect(await texts.rowTexts(spec, new Set([1]))).toBeNull();
    expect(await texts.unavailable()).toBe("the rows of A and B were not read from a dataset file (such as a service's, scored from traces), so no file holds their texts");
  });

  it("reads (and hashes) nothing when no rows are asked for", async () => {
    const texts = new DatasetTexts({ path: `${dir}/never.jsonl`, sha256: "00" }, "A");
    expect(await texts.rowTexts(spec, new Set())).toEqual(new Map());
  });
});
