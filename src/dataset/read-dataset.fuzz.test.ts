/**
 * Property tests of the dataset readers on random files (fixed seed): random rows in JSONL, JSON arrays and
 * CSV, with random faults, read through the public readDataset. Nothing but an EvalError is ever thrown, and
 * only before the first row, for a file refused as a whole; every row is its record or its error, at its line.
 * FUZZ_SEED and FUZZ_RUNS set another seed and more runs, to search further by hand.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EvalError } from "../errors.js";
import { notText } from "./read-bytes.js";
import type { DatasetItem } from "./read-dataset.js";
import { fuzzCsv, fuzzJsonArray, fuzzJsonl, jsonlOracle, readAll, tempFiles, type FuzzedFile } from "./test-support.js";

const files = tempFiles("simeval-fuzz-read-");
const SEED = Number(process.env["FUZZ_SEED"] ?? 20240611);
const RUNS = Number(process.env["FUZZ_RUNS"] ?? 150);

/** Throws unless `thrown` is DATASET_INVALID before the first row. */
function expectRefusedAsWhole(read: { items: DatasetItem[]; thrown?: unknown }): void {
  if (!(read.thrown instanceof EvalError)) throw new Error(`expected DATASET_INVALID, got ${read.thrown instanceof Error ? read.thrown.stack : String(read.thrown)}`);
  expect(read.thrown.code).toBe("DATASET_INVALID");
  expect(read.items).toEqual([]);
}

function expectNotThrown(read: { thrown?: unknown }): void {
  if (read.thrown !== undefined) throw new Error(`expected no error, got ${read.thrown instanceof Error ? read.thrown.stack : String(read.thrown)}`);
}

/** Row numbers 1, 2, 3…, lines never going back, a stop only last, every message starting with its line. */
function expectWellFormed(items: DatasetItem[]): void {
  items.forEach((item, i) => {
    expect(item.row).toBe(i + 1);
    if (i > 0) expect(item.line).toBeGreaterThanOrEqual(items[i - 1]!.line);
    if ("error" in item) {
      expect(item.error.message).toMatch(/^line \d+: /);
      if (item.error.code === "DATASET_READ_STOPPED") expect(i).toBe(items.length - 1);
    }
  });
}

/** The planned rows come first, each as planned; the rest is only checked for shape when the file cannot be read past a fault. */
async function checkPlanned(file: FuzzedFile, onWarning?: (message: string) => void): Promise<DatasetItem[]> {
  const path = await files.file(file.name, file.bytes);
  const read = await readAll(path, onWarning);
  if (file.refused) {
    expectRefusedAsWhole(read);
    return [];
  }
  expectNotThrown(read);
  expectWellFormed(read.items);
  const got = read.items.slice(0, file.planned.length).map((item, i) => ({ line: item.line, ...("any" in file.planned[i]! ? {} : "record" in item ? { record: item.record } : { error: item.error.code }) }));
  const want = file.planned.map((p) => ({ line: p.line, ...("any" in p ? {} : "record" in p ? { record: p.record } : { error: "DATASET_ROW_INVALID" }) }));
  expect(got).toEqual(want);
  if (!file.desync) expect(read.items.length).toBe(file.planned.length);
  return read.items;
}

describe("readDataset on random files", () => {
  it("JSONL: each line is a row's record or its error at its line, or blank; an intact row comes back as written", async () => {
    await fc.assert(
      fc.asyncProperty(fuzzJsonl, async ({ bytes, lines, eols, cutAt }) => {
        const path = await files.file("fuzz.jsonl", bytes);
        const read = await readAll(path);
        const oracle = jsonlOracle(bytes, notText);
        if (oracle.refused) return expectRefusedAsWhole(read);
        expectNotThrown(read);
        expectWellFormed(read.items);
        expect(read.items.map((i) => [i.row, i.line, "record" in i ? i.record : i.error.code])).toEqual(oracle.items);
        // Rows + blank lines = lines of the file.
        const text = bytes.subarray(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0);
        const fileLines = text.length === 0 ? 0 : text.toString("latin1").split("\n").length - (text[text.length - 1] === 10 ? 1 : 0);
        const blank = text.length === 0 ? 0 : text.toString("latin1").split("\n").slice(0, fileLines).filter((l) => !l.startsWith("{") && /^(\xEF\xBB\xBF)?[ \t\r]*$/.test(l)).length;
        expect(read.items.length + blank).toBe(fileLines);
        // A row line that the cut left whole comes back as it was generated.
        let offset = text === bytes ? 0 : 3;
        lines.forEach((line, i) => {
          const length = line.kind === "row" ? Buffer.byteLength(JSON.stringify(line.row)) : -1;
          const end = offset + length;
          if (line.kind === "row" && end <= cutAt && (end === cutAt || bytes[end] === 10 || bytes[end] === 13)) {
            const item = read.items.find((it) => it.line === i + 1);
            expect(item && "record" in item ? item.record : item).toEqual(line.row);
          }
          offset += (line.kind === "row" ? length : line.kind === "badBytes" ? Buffer.byteLength(JSON.stringify(line.row)) + line.bad.length : Buffer.byteLength(line.text)) + Buffer.byteLength(eols[i]!);
        });
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it("CSV: the rows before a fault that cannot be read past come back as written, at their lines; local faults are row errors", async () => {
    await fc.assert(
      fc.asyncProperty(fuzzCsv, async (file) => {
        await checkPlanned(file);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it("JSON arrays: the rows before a syntax error or a cut come back as written, at their lines; a trailing comma is a warning", async () => {
    await fc.assert(
      fc.asyncProperty(fuzzJsonArray, async (file) => {
        const warnings: string[] = [];
        const items = await checkPlanned(file, (w) => warnings.push(w));
        if (!file.refused && file.desync) expect(items.at(-1)).toMatchObject({ error: { code: "DATASET_READ_STOPPED" } });
        if (file.trailingComma) expect(warnings).toHaveLength(1);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
