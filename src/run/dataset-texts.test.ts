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

  it("gives several asks' texts at once, each through its own spec, as one ask at a time gives them", async () => {
    const rows = Array.from({ length: 30 }, (_, i) => JSON.stringify({ id: i, expected: `e${i}`, output: `o${i}`, alt: { text: `alt ${i}` } })).join("\n") + "\n";
    const dataset = await recorded("many.jsonl", rows);
    const asks = [
      { spec, rows: new Set([3, 29]) },
      { spec: { type: "exact_match", inputs: { output: "$.alt.text" } }, rows: new Set([3, 7]) },
      { spec: { type: "exact_match", inputs: { output: "$.nothing[*]" } }, rows: new Set([1]) }, // matches nothing: output null
      { spec: undefined, rows: new Set([2]) }, // an evaluator the run does not have
      { spec, rows: new Set<number>() },
      // A later ask's row past every earlier ask's last: the read goes on to it.
      { spec: { type: "exact_match", inputs: { output: "$.alt.text" } }, rows: new Set([30]) },
    ];
    const all = await new DatasetTexts(dataset, "A").textsOf(asks);
    const one = await Promise.all(asks.map((a) => new DatasetTexts(dataset, "A").rowTexts(a.spec, a.rows)));
    expect(all).toEqual(one);
    // Row n is the n-th line, whose fields hold n - 1.
    expect(all[0]).toEqual(new Map([[3, { output: "o2", expected: "e2" }], [29, { output: "o28", expected: "e28" }]]));
    expect(all[1]).toEqual(new Map([[3, { output: "alt 2", expected: "e2" }], [7, { output: "alt 6", expected: "e6" }]]));
    expect(all.slice(3)).toEqual([new Map(), new Map(), new Map([[30, { output: "alt 29", expected: "e29" }]])]);
    // Unavailable: null for each ask with rows.
    const gone = await new DatasetTexts({ path: dataset.path, sha256: "0".repeat(64) }, "A").textsOf(asks);
    expect(gone).toEqual([null, null, null, null, new Map(), null]);
  });

  it("reads (and hashes) nothing when no rows are asked for", async () => {
    const texts = new DatasetTexts({ path: `${dir}/never.jsonl`, sha256: "00" }, "A");
    expect(await texts.rowTexts(spec, new Set())).toEqual(new Map());
    // Not hashed: a file put there afterwards, with the recorded bytes, is found, not the missing file cached.
    const later = await recorded("later.jsonl");
    rmSync(later.path);
    const notYet = new DatasetTexts(later, "A");
    expect(await notYet.textsOf([{ spec, rows: new Set() }, { spec: undefined, rows: new Set() }])).toEqual([new Map(), new Map()]);
    await recorded("later.jsonl");
    expect(await notYet.unavailable()).toBeNull();
  });

  describe("a stored run not read from a dataset file, given its stored rows", () => {
    const NO_FILE = { path: null, sha256: null };
    /** Stored rows 1..n, row i with a record when `hasRecord(i)`; `read` counts the rows read. */
    function storedRows(n: number, hasRecord: (i: number) => boolean = () => true) {
      const read = { rows: 0 };
      async function* rows() {
        for (let row = 1; row <= n; row++) {
          read.rows++;
          yield hasRecord(row) ? { row, record: { output: `out ${row}`, expected: row === 3 ? null : `exp ${row}`, nested: { o: `deep ${row}` } } } : { row };
        }
      }
      return { rows, read };
    }

    it("gives the texts of the asked rows' records through the spec's mapping, reading the rows only up to the last asked", async () => {
      const { rows, read } = storedRows(100);
      const texts = new DatasetTexts(NO_FILE, "A", rows);
      expect(await texts.unavailable()).toBeNull();
      expect(await texts.rowTexts(spec, new Set([3, 2]))).toEqual(new Map([[2, { output: "out 2", expected: "exp 2" }], [3, { output: "out 3", expected: null }]]));
      expect(read.rows).toBe(4); // rows 1..3, and the 4th that says the asked ones are past
      expect(await texts.rowTexts({ type: "exact_match", inputs: { output: "$.nested.o" } }, new Set([5]))).toEqual(new Map([[5, { output: "deep 5", expected: "exp 5" }]]));
      expect(await texts.rowTexts(undefined, new Set([5]))).toEqual(new Map()); // an evaluator this run does not have
      expect(await texts.unavailable()).toBeNull();
    });

    it("gives several asks' texts from one read of the stored rows, up to the last row any asks for", async () => {
      const { rows, read } = storedRows(100, (i) => i !== 8);
      const texts = new DatasetTexts(NO_FILE, "B", rows);
      const all = await texts.textsOf([
        { spec, rows: new Set([2, 5]) },
        { spec: { type: "exact_match", inputs: { output: "$.nested.o" } }, rows: new Set([40]) },
        { spec, rows: new Set([8]) }, // stored without its record
        { spec: undefined, rows: new Set([9]) },
      ]);
      expect(read.rows).toBe(41);
      expect(all).toEqual([
        new Map([[2, { output: "out 2", expected: "exp 2" }], [5, { output: "out 5", expected: "exp 5" }]]),
        new Map([[40, { output: "deep 40", expected: "exp 40" }]]),
        null,
        new Map(),
      ]);
      expect(await texts.unavailable()).toMatch(/^the rows of B were not read from a dataset file, and those shown without texts were stored without their records/);
    });

    it("leaves out a row stored without a record, and says why when none of the asked rows has one", async () => {
      const { rows } = storedRows(10, (i) => i !== 2 && i < 5);
      const texts = new DatasetTexts(NO_FILE, "B", rows);
      expect(await texts.rowTexts(spec, new Set([1, 2]))).toEqual(new Map([[1, { output: "out 1", expected: "exp 1" }]]));
      expect(await texts.unavailable()).toBeNull();
      expect(await texts.rowTexts(spec, new Set([6, 7]))).toBeNull();
      expect(await texts.unavailable()).toBe("the rows of B were not read from a dataset file, and those shown without texts were stored without their records (by a service that kept none, or a simeval before schema version 5), so nothing holds their texts");
    });

    it("gives the texts of rows that kept their record after other rows that kept none were asked (a run stored partly before schema version 5)", async () => {
      const { rows } = storedRows(10, (i) => i > 4);
      const texts = new DatasetTexts(NO_FILE, "A", rows);
      expect(await texts.rowTexts(spec, new Set([1, 2]))).toBeNull();
      expect(await texts.rowTexts(spec, new Set([6]))).toEqual(new Map([[6, { output: "out 6", expected: "exp 6" }]]));
      expect(await texts.unavailable()).toMatch(/^the rows of A were not read from a dataset file, and those shown without texts were stored without their records/);
    });

    it("does not read stored rows for a run that records no dataset (a results.jsonl file)", async () => {
      const { rows, read } = storedRows(10);
      const texts = new DatasetTexts(null, "A (a.jsonl)", rows);
      expect(await texts.rowTexts(spec, new Set([1]))).toBeNull();
      expect(await texts.unavailable()).toBe("A (a.jsonl) is a results.jsonl file, which records no dataset");
      expect(read.rows).toBe(0);
    });

    it("does not read stored rows for a run read from a dataset file", async () => {
      const { rows, read } = storedRows(10);
      const texts = new DatasetTexts({ path: `${dir}/never-there.jsonl`, sha256: "00" }, "A", rows);
      expect(await texts.rowTexts(spec, new Set([1]))).toBeNull();
      expect(await texts.unavailable()).toBe(`the dataset of A (${dir}/never-there.jsonl) is missing`);
      expect(read.rows).toBe(0);
    });
  });
});
