import { describe, expect, it } from "vitest";
import { EvalError } from "../../errors.js";
import { SqliteRunStore } from "../../storage/sqlite.js";
import { storesInTempDir } from "../test-support.js";
import { rowsRecorded } from "./recorded-runs.js";

const temp = storesInTempDir("simeval-recorded-runs-");
const { open } = temp;

describe("rowsRecorded", () => {
  async function runningRun(store: SqliteRunStore) {
    const id = await store.beginRun({ name: "live", dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
    await store.addRows(id, [{ row: 1, id: 1, results: {} }]);
    return (await store.findRun(id))!;
  }

  it("counts a listed run's rows, and gives null for one another process deleted since it was listed", async () => {
    const store = open();
    const run = await runningRun(store);
    expect(await rowsRecorded(run, store)).toBe(1);
    const other = open();
    const racing = { rowCount: async (id: string) => (await other.deleteRun(id, { force: true }), store.rowCount(id)), findRun: (ref: string) => store.findRun(ref) };
    expect(await rowsRecorded(run, racing)).toBeNull();
  });

  it("passes on a failure to count a run that is still there", async () => {
    const store = open();
    const run = await runningRun(store);
    const failing = { rowCount: async () => Promise.reject(new EvalError("STORE_FAILED", "disk I/O error")), findRun: (ref: string) => store.findRun(ref) };
    await expect(rowsRecorded(run, failing)).rejects.toThrow("disk I/O error");
  });
});
