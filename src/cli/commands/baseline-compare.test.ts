import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteStore, type SqliteRunStore } from "../../storage/sqlite.js";
import { evalErrorOf } from "../../test-support.js";
import { compareAgainstBaseline } from "./baseline-compare.js";

let dir: string;
let store: SqliteRunStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "simeval-baseline-"));
  store = openSqliteStore(join(dir, "db.sqlite"));
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("compareAgainstBaseline", () => {
  it("with no baseline, warns without the gate, and gives no verdict (USAGE) with it: the baseline run checked before the run may be deleted since", async () => {
    const id = await store.beginRun({ name: null, dataset_path: "d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
    let err = "";
    const io = { stdout: () => {}, stderr: (s: string) => void (err += s) };
    expect(await compareAgainstBaseline(store, id, io, false)).toBeNull();
    expect(err).toContain("--baseline: no baseline is set yet");
    const error = await evalErrorOf(compareAgainstBaseline(store, id, io, true));
    expect(error.code).toBe("USAGE");
    expect(error.message).toContain("--fail-on-regression: no baseline is set any more (its run was deleted while this run was being recorded), so there is no verdict");
  });
});
