import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { finishStoredRun } from "../../run/stored-summary.js";
import { cliOutput, storesInTempDir } from "../test-support.js";
import type { EvaluatorSummary, RunInfo } from "../../run/types.js";
import { describeUnscored, unscoredEvaluators } from "./baseline.js";

describe("unscoredEvaluators", () => {
  const ev = (name: string, skipped: number, errors: number): EvaluatorSummary => ({ name, type: "exact_match", direction: "maximize", threshold: null, n: 0, skipped, errors, mean: null, median: null, p10: null, p90: null, min: null, max: null, pass_rate: null, verdicts: 0 });
  const run = (rows: number, rowErrors: number, evaluators: EvaluatorSummary[]) => ({ summary: { rows, row_errors: rowErrors, skipped_as_zero: false, evaluators } }) as RunInfo;

  it("finds the evaluators each of whose readable rows (rows less unreadable ones) was skipped or an error", () => {
    // 4 rows, 1 unreadable: 3 readable. skipped + errors of 3 is none scored; of 2, one row scored.
    const found = unscoredEvaluators(run(4, 1, [ev("all_skipped", 3, 0), ev("mixed", 2, 1), ev("one_scored", 2, 0), ev("all_errors", 0, 3)]));
    expect(found.map((e) => e.name)).toEqual(["all_skipped", "mixed", "all_errors"]);
    expect(unscoredEvaluators({ summary: null } as RunInfo)).toEqual([]);
  });

  it("are described with why, counting rows in the singular and the plural", () => {
    expect(describeUnscored([ev("em", 0, 3), ev("lev", 3, 0), ev("tf", 1, 2), ev("j", 2, 1)])).toBe(
      "em (every row an error), lev (every row skipped), tf (1 row skipped, 2 rows failed), j (2 rows skipped, 1 row failed)",
    );
  });
});

describe("baseline set", () => {
  const temp = storesInTempDir("simeval-baseline-");

  it("refused a name whose newest run is still running, names the newest complete run of that name to set instead", async () => {
    const store = temp.open();
    const meta = { name: "nightly", dataset_path: null, dataset_hash: null, evaluators: [{ type: "exact_match" }] };
    const row = { id: "t", results: { exact_match: { type: "exact_match", score: 1, passed: true, label: "pass", reasoning: "", details: {} } } };
    const done = await store.beginRun(meta, { owner: "none" });
    await store.appendRows(done, [row] as never);
    await finishStoredRun(store, done);
    const live = await store.beginRun(meta, { owner: "none" });
    const db = join(temp.dir, "simeval.db");
    const refused = await cliOutput(["baseline", "set", "nightly", "--db", db]);
    expect(refused).toMatchObject({ code: 2, out: "" });
    expect(refused.err).toBe(
      `simeval: run ${live} (nightly) is running; only a complete run can be the baseline (the baseline is unchanged); the newest complete run named "nightly" is ${done}: \`simeval baseline set ${done}\``,
    );
    // Named by its id, the run meant is that one: no other is suggested.
    expect((await cliOutput(["baseline", "set", live, "--db", db])).err).toBe(`simeval: run ${live} (nightly) is running; only a complete run can be the baseline (the baseline is unchanged)`);
    expect(await cliOutput(["baseline", "set", done, "--db", db])).toMatchObject({ code: 0, out: `baseline: ${done} (nightly)` });
  });

  it("names the newest complete run of the same name, never one of another name, and none for a run without a name", async () => {
    const store = temp.open();
    const meta = (name: string | null) => ({ name, dataset_path: null, dataset_hash: null, evaluators: [{ type: "exact_match" }] });
    const row = { id: "t", results: { exact_match: { type: "exact_match", score: 1, passed: true, label: "pass", reasoning: "", details: {} } } };
    const complete = async (name: string | null) => {
      const id = await store.beginRun(meta(name), { owner: "none" });
      await store.appendRows(id, [row] as never);
      await finishStoredRun(store, id);
      return id;
    };
    await complete("nightly");
    const newer = await complete("nightly");
    await complete("other");
    await complete(null);
    const live = await store.beginRun(meta("nightly"), { owner: "none" });
    const unnamed = await store.beginRun(meta(null), { owner: "none" });
    const db = join(temp.dir, "simeval.db");
    expect((await cliOutput(["baseline", "set", "nightly", "--db", db])).err).toBe(
      `simeval: run ${live} (nightly) is running; only a complete run can be the baseline (the baseline is unchanged); the newest complete run named "nightly" is ${newer}: \`simeval baseline set ${newer}\``,
    );
    expect((await cliOutput(["baseline", "set", unnamed, "--db", db])).err).toBe(`simeval: run ${unnamed} is running; only a complete run can be the baseline (the baseline is unchanged)`);
  });
});
