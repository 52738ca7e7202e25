/**
 * Property tests of runDataset on random datasets (fixed seed): JSONL, JSON arrays and CSV with random faults.
 * A run never throws but an EvalError for a file refused as a whole; each row is scored or is its error, as
 * readDataset gives it; and the run is the same on one scoring thread as on two (one recorded in a store).
 * FUZZ_SEED and FUZZ_RUNS set another seed and more runs, to search further by hand.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EvalError } from "../errors.js";
import { fuzzCsv, fuzzJsonArray, fuzzJsonl, readAll, tempFiles } from "../dataset/test-support.js";
import { openSqliteStore } from "../storage/sqlite.js";
import { runDataset } from "./run-dataset.js";

const files = tempFiles("simeval-fuzz-run-");
const SEED = Number(process.env["FUZZ_SEED"] ?? 20240611);
const RUNS = Number(process.env["FUZZ_RUNS"] ?? 3);
const EVALUATORS = [{ type: "exact_match" }, { type: "levenshtein" }];

/** The run's results.jsonl and figures, or what it threw. */
async function run(dataset: string, workers: number, recorded: boolean) {
  const chunks: Uint8Array[] = [];
  const store = recorded ? openSqliteStore(":memory:") : undefined;
  try {
    const r = await runDataset({ dataset, evaluators: EVALUATORS, workers, batchSize: 3, ...(store ? { store } : {}), write: (bytes) => void chunks.push(bytes.slice()) });
    const lines = Buffer.concat(chunks).toString("utf8").split("\n").slice(0, -1);
    return { lines, summary: r.summary, rowErrors: r.rowErrors, readStopped: r.readStopped, warnings: r.datasetWarnings, stopReason: r.stopReason };
  } catch (thrown) {
    return { thrown };
  } finally {
    await store?.close();
  }
}

const anyFile = fc.oneof(
  fuzzJsonl.map(({ bytes }) => ({ name: "fuzz.jsonl", bytes })),
  fuzzCsv.map(({ name, bytes }) => ({ name, bytes })),
  fuzzJsonArray.map(({ name, bytes }) => ({ name, bytes })),
);

/** Throws unless `r` threw the EvalError that reading the file threw (a file refused as a whole). */
function expectSameRefusal(r: Awaited<ReturnType<typeof run>>, read: { thrown?: unknown }): void {
  expect(read.thrown).toBeInstanceOf(EvalError);
  if (!("thrown" in r) || !(r.thrown instanceof EvalError)) throw new Error(`expected DATASET_INVALID, got ${"thrown" in r && r.thrown instanceof Error ? r.thrown.stack : JSON.stringify(r)}`);
  expect(r.thrown.code).toBe("DATASET_INVALID");
  expect(r.thrown.message).toBe((read.thrown as EvalError).message);
}

function expectRun(r: Awaited<ReturnType<typeof run>>): asserts r is Exclude<Awaited<ReturnType<typeof run>>, { thrown: unknown }> {
  if ("thrown" in r) throw new Error(`expected a run, got ${r.thrown instanceof Error ? r.thrown.stack : String(r.thrown)}`);
}

describe("runDataset on random datasets", () => {
  it("scores each row or records its error, as readDataset reads it; throws only the EvalError of a file refused as a whole", async () => {
    await fc.assert(
      fc.asyncProperty(anyFile, async ({ name, bytes }) => {
        const path = await files.file(name, bytes);
        const read = await readAll(path);
        const r = await run(path, 0, false);
        if (read.thrown !== undefined) return expectSameRefusal(r, read);
        expectRun(r);
        const lines = r.lines.map((l) => JSON.parse(l) as { row: number; line?: number; results: Record<string, unknown>; error?: { code: string; message: string } });
        expect(lines.map((l) => [l.row, l.error ? [l.line, l.error.code, l.error.message] : Object.keys(l.results).sort()])).toEqual(
          read.items.map((i) => [i.row, "error" in i ? [i.line, i.error.code, i.error.message] : ["exact_match", "levenshtein"]]),
        );
        expect(r.summary.rows).toBe(read.items.length);
        expect(r.summary.row_errors).toBe(read.items.filter((i) => "error" in i).length);
        const last = read.items.at(-1);
        expect(r.readStopped).toEqual(last && "error" in last && last.error.code === "DATASET_READ_STOPPED" ? { row: last.row, line: last.line, message: last.error.message } : null);
      }),
      { seed: SEED, numRuns: RUNS * 12 },
    );
  });

  it("gives the same results, figures and errors on one scoring thread as on two (recorded in a store)", async () => {
    await fc.assert(
      fc.asyncProperty(anyFile, async ({ name, bytes }) => {
        const path = await files.file(name, bytes);
        const [one, two] = [await run(path, 1, false), await run(path, 2, true)];
        if ("thrown" in one) return expectSameRefusal(two, { thrown: one.thrown });
        expectRun(two);
        expect(two).toEqual(one);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
