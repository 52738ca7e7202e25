import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteStore, type SqliteRunStore } from "../../storage/sqlite.js";
import { evalErrorOf } from "../../test-support.js";
import type { EvaluatorSummary, RunInfo } from "../../run/types.js";
import { compareAgainstBaseline, unscoredInBaseline } from "./baseline-compare.js";

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

describe("compareAgainstBaseline on runs read from the store", () => {
  it("lets the event loop turn while it reads the rows (synchronous SQLite), so that a Ctrl-C's listener runs before the comparison is printed", async () => {
    const ids: string[] = [];
    for (const name of ["base", "new"]) {
      const id = await store.beginRun({ name, dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
      const result = { type: "exact_match", score: 1, passed: true, reasoning: null, details: null, skipped: false, label: null };
      await store.addRows(id, Array.from({ length: 25_000 }, (_, i) => ({ row: i + 1, id: i + 1, results: { exact_match: result } })) as never);
      await store.finishRun(id, { rows: 25_000, row_errors: 0, skipped_as_zero: false, evaluators: [] } as never);
      ids.push(id);
    }
    await store.setBaseline(ids[0] as string);
    let turned = false;
    let turnedBeforePrinted: boolean | undefined;
    const io = { stdout: () => void (turnedBeforePrinted ??= turned), stderr: () => {} };
    setImmediate(() => (turned = true));
    expect(await compareAgainstBaseline(store, ids[1] as string, io, true)).toMatchObject({ regressed: [], no_verdict: [] });
    expect(turnedBeforePrinted).toBe(true);
  });

  it("gives the comparison's warnings to --summary and --report, as it prints them in its text", async () => {
    const ids: string[] = [];
    const result = (score: number) => ({ type: "exact_match", score, passed: score === 1, reasoning: "", details: {}, skipped: false, label: null });
    for (const [name, rows] of [["base", 3], ["new", 4]] as const) {
      const id = await store.beginRun({ name, dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
      await store.addRows(id, Array.from({ length: rows }, (_, i) => ({ row: i + 1, id: i + 1, results: { exact_match: result(1) } })) as never);
      await store.finishRun(id, { rows, row_errors: 0, skipped_as_zero: false, evaluators: [] } as never);
      ids.push(id);
    }
    await store.setBaseline(ids[0] as string);
    let out = "";
    const warnings: string[] = [];
    const verdict = await compareAgainstBaseline(store, ids[1] as string, { stdout: (s: string) => void (out += s), stderr: () => {} }, false, undefined, warnings);
    expect(verdict?.comparison.warnings.length).toBeGreaterThan(0);
    expect(warnings).toEqual(verdict?.comparison.warnings.map((w) => `--baseline: ${w}`));
    for (const w of verdict?.comparison.warnings ?? []) expect(out).toContain(w);
  });
});

const ev = (name: string, skipped: number, errors: number): EvaluatorSummary => ({ name, type: "exact_match", direction: "maximize", threshold: null, n: 2 - skipped - errors, skipped, errors, mean: null, median: null, p10: null, p90: null, min: null, max: null, pass_rate: null, verdicts: 0 });

describe("unscoredInBaseline", () => {
  // 2 rows: em scored both, lev skipped both, tf failed on both.
  const baseline = { id: "b1", name: "base", summary: { rows: 2, row_errors: 0, skipped_as_zero: false, evaluators: [ev("em", 0, 0), ev("lev", 2, 0), ev("tf", 0, 2)] } } as RunInfo;

  it("names only the new run's evaluators that scored no row in the baseline, \"it\" for one and \"them\" for several", () => {
    expect(unscoredInBaseline(baseline, ["em"])).toBeNull();
    expect(unscoredInBaseline(baseline, ["em", "lev"])).toBe("the baseline b1 (base): lev (every row skipped) scored no row in it, so a comparison with it cannot show a regression on it");
    expect(unscoredInBaseline(baseline, ["em", "lev", "tf"])).toBe(
      "the baseline b1 (base): lev (every row skipped), tf (every row an error) scored no row in it, so a comparison with it cannot show a regression on them",
    );
  });
});

describe("compareAgainstBaseline on a baseline it cannot judge by", () => {
  async function complete(name: string, evaluators: EvaluatorSummary[]): Promise<string> {
    const id = await store.beginRun({ name, dataset_path: "d.jsonl", dataset_hash: "ab", evaluators: evaluators.map((e) => ({ type: "exact_match", name: e.name })) });
    await store.finishRun(id, { rows: 2, row_errors: 0, skipped_as_zero: false, evaluators });
    return id;
  }

  it("without an evaluator in common: no verdict (USAGE) under the gate, a warning and no comparison without it", async () => {
    await store.setBaseline(await complete("base", [ev("em", 0, 0)]));
    const id = await complete("new", [ev("lev", 0, 0)]);
    let err = "";
    const io = { stdout: () => {}, stderr: (s: string) => void (err += s) };
    expect((await evalErrorOf(compareAgainstBaseline(store, id, io, true))).message).toContain("no evaluator in common");
    const warnings: string[] = [];
    expect(await compareAgainstBaseline(store, id, io, false, undefined, warnings)).toBeNull();
    expect(err).toMatch(/^simeval: warning: --baseline: no evaluator in common/);
    // The same for --summary and --report, without the prefix.
    expect(warnings).toEqual([err.replace(/^simeval: warning: /, "")]);
  });

  it("in which one of the run's evaluators scored no row: no verdict (USAGE) under the gate, a warning without it", async () => {
    await store.setBaseline(await complete("base", [ev("em", 0, 0), ev("lev", 2, 0)]));
    const id = await complete("new", [ev("em", 0, 0), ev("lev", 0, 0)]);
    let err = "";
    const io = { stdout: () => {}, stderr: (s: string) => void (err += s) };
    const e = await evalErrorOf(compareAgainstBaseline(store, id, io, true));
    expect(e.code).toBe("USAGE");
    expect(e.message).toMatch(/^--fail-on-regression: the baseline \S+ \(base\): lev \(every row skipped\) scored no row in it/);
    const warnings: string[] = [];
    expect(await compareAgainstBaseline(store, id, io, false, undefined, warnings)).toMatchObject({ baseline: expect.stringContaining("base") });
    expect(err).toMatch(/^simeval: warning: --baseline: the baseline \S+ \(base\): lev \(every row skipped\)/);
    // The same for --summary and --report, without the prefix.
    expect(warnings).toEqual([expect.stringMatching(/^--baseline: the baseline \S+ \(base\): lev \(every row skipped\)/)]);
  });
});
