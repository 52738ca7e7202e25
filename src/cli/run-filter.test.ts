import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RunInfo } from "../run/types.js";
import { checkRunFilter, matchRuns, newest } from "./run-filter.js";

describe("--last", () => {
  it("takes a whole number >= 1 in decimal digits", () => {
    expect(checkRunFilter({ last: "3" }).last).toBe(3);
    expect(checkRunFilter({ last: "10000" }).last).toBe(10_000);
    expect(checkRunFilter({}).last).toBeUndefined();
  });

  it.each(["0", "-1", "1.5", "", " 3", "three", "0x10", "1e3", "+2", "99999999999999999999"])("refuses %j, naming the option, the value and what it takes", (value) => {
    expect(() => checkRunFilter({ last: value })).toThrow(`--last takes a whole number >= 1 (how many of the newest runs to keep), received ${JSON.stringify(value)}`);
  });

  it("keeps the first n of a newest-first list, or all of it without --last", () => {
    expect(newest(["c", "b", "a"], 2)).toEqual(["c", "b"]);
    expect(newest(["c", "b", "a"], 5)).toEqual(["c", "b", "a"]);
    expect(newest(["c", "b", "a"], undefined)).toEqual(["c", "b", "a"]);
  });
});

describe("--dataset", () => {
  it("keeps the runs on its path, and those elsewhere on a file of its content, which alone are matched by content", async () => {
    const dir = mkdtempSync(join(tmpdir(), "simeval-run-filter-"));
    try {
      const path = join(dir, "qa.jsonl");
      writeFileSync(path, '{"output":"a"}\n');
      const sha = createHash("sha256").update('{"output":"a"}\n').digest("hex");
      const other = "0".repeat(64);
      const filter = await matchRuns(checkRunFilter({ dataset: path }), { stdout: () => undefined, stderr: () => undefined });
      const run = (dataset_path: string, dataset_hash: string) => ({ dataset_path, dataset_hash }) as RunInfo;
      // On its path (content then or since), moved with its content, elsewhere with other content.
      const runs = [run(path, sha), run(path, other), run("/moved/qa.jsonl", sha), run("/moved/qa.jsonl", other)];
      expect(runs.map((r) => filter.keeps(r))).toEqual([true, true, true, false]);
      // Only a run recorded at another path is marked as matched by its content.
      expect(runs.map((r) => filter.byContent(r))).toEqual([false, false, true, false]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
