import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { tempFiles } from "../dataset/test-support.js";
import { openSqliteStore } from "../storage/sqlite.js";
import { collect } from "../test-support.js";
import { runDataset } from "./run-dataset.js";
import type { RunStore } from "../storage/store.js";
import type { EvalResult } from "../types.js";
import { FINISH_ATTEMPTS, finishStoredRun, SUMMARY_PROGRESS_ROWS, summarizeStoredRun } from "./stored-summary.js";

const files = tempFiles("simeval-stored-summary-");

const SPECS = [
  { type: "exact_match" },
  // Lower is better, with a verdict: direction and threshold must come from the spec.
  { type: "levenshtein_distance", name: "edits", config: { threshold: 3 } },
  { type: "jaccard_similarity" },
  // An error on the rows with two alternatives (a JSONPath that matches several values), skipped on those without.
  { type: "exact_match", name: "alternative", inputs: { expected: "$.alternatives[*]" } },
];

/** Rows of every kind: scored, skipped (no expected), unreadable, and with an evaluator's error. */
function dataset(n: number): string {
  return Array.from({ length: n }, (_, i) => {
    if (i % 53 === 0) return "{not json";
    const alternatives = ["answer 1 is right", "answer 2 is right"].slice(0, i % 3);
    return JSON.stringify({ id: `r${i}`, output: `answer ${i % 17} is ${i % 5 ? "right" : "wrong"}`, expected: i % 19 === 0 ? null : `answer ${i % 13} is right`, alternatives });
  }).join("\n");
}

describe("summarizeStoredRun", () => {
  it("gives the summary the CLI's run recorded, from its stored rows: row errors, skipped rows (as zeros too), evaluator errors", async () => {
    const path = await files.file("rows.jsonl", dataset(1500));
    const store = openSqliteStore(join(files.dir(), "runs.db"));
    try {
      for (const countSkippedAsZero of [false, true]) {
        const result = await runDataset({ dataset: path, evaluators: SPECS, workers: 0, batchSize: 64, store, countSkippedAsZero });
        const recorded = (await store.findRun(result.runId as string))?.summary;
        expect(recorded).toEqual(result.summary);
        const s = result.summary;
        // The dataset has what the summary must count: each kind is there.
        expect(s.row_errors).toBeGreaterThan(0);
        expect(s.evaluators.find((e) => e.name === "exact_match")?.skipped).toBeGreaterThan(0);
        expect(s.evaluators.find((e) => e.name === "alternative")?.errors).toBeGreaterThan(0);
        expect(s.evaluators.find((e) => e.name === "edits")).toMatchObject({ direction: "minimize", threshold: 3 });
        expect(await summarizeStoredRun(store, result.runId as string, { countSkippedAsZero })).toEqual(recorded);
      }
    } finally {
      await store.close();
    }
  });

  it("summarises a run whose rows two stores appended, as the run of the same rows", async () => {
    const path = await files.file("rows.jsonl", dataset(700));
    const dbPath = join(files.dir(), "shared.db");
    const a = openSqliteStore(dbPath);
    const b = openSqliteStore(dbPath);
    try {
      const cli = await runDataset({ dataset: path, evaluators: SPECS, workers: 0, store: a });
      const rows = (await collect(a.rows(cli.runId as string))).map(({ row: _, ...r }) => r);
      const run = await a.beginRun({ name: "service", dataset_path: path, dataset_hash: cli.datasetHash, evaluators: SPECS }, { owner: "none" });
      for (let i = 0; i < rows.length; i += 50) await (i % 100 ? b : a).appendRows(run, rows.slice(i, i + 50).map((r, j) => ({ ...r, key: String(i + j) })));
      // Redelivered: no new rows, each told so.
      const again = await b.appendRows(run, rows.slice(0, 10).map((r, j) => ({ ...r, key: String(j) })));
      expect(again).toEqual(Array.from({ length: 10 }, (_, j) => ({ row: j + 1, added: false })));
      const summary = await summarizeStoredRun(b, run);
      expect(summary).toEqual(cli.summary);
      await b.finishRun(run, summary);
      expect((await a.findRun(run))?.summary).toEqual(cli.summary);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("reads the rows without their records (a service's traces), which a summary does not need", async () => {
    const store = openSqliteStore(":memory:");
    try {
      const run = await store.beginRun({ name: null, dataset_path: null, dataset_hash: null, evaluators: [{ type: "exact_match" }] }, { owner: "none" });
      const scored = (score: number) => ({ exact_match: { type: "exact_match", score, passed: score === 1, label: score === 1 ? ("pass" as const) : ("fail" as const), reasoning: "", skipped: false, details: {} } });
      await store.appendRows(run, [0, 1, 1].map((score, i) => ({ id: i, results: scored(score), record: { output: "x".repeat(1000), expected: "x" } })));
      const asked: unknown[] = [];
      const spying = { findRun: (ref: string) => store.findRun(ref), rows: (runId: string, opts?: unknown) => (asked.push(opts), store.rows(runId, opts as never)) } as unknown as RunStore;
      expect(await summarizeStoredRun(spying, run)).toMatchObject({ rows: 3, evaluators: [{ n: 3, mean: 2 / 3, pass_rate: 2 / 3 }] });
      expect(asked).toEqual([{ records: false }]);
    } finally {
      await store.close();
    }
  });

  it("builds no evaluator: a run of semantic_similarity with the openai provider is summarized with no API key set", async () => {
    vi.stubEnv("OPENAI_API_KEY", undefined);
    const store = openSqliteStore(join(files.dir(), "semantic.db"));
    try {
      const specs = [{ type: "semantic_similarity", name: "meaning", config: { provider: "openai", threshold: 0.75 } }, { type: "levenshtein_distance" }];
      const run = await store.beginRun({ name: "service", dataset_path: null, dataset_hash: null, evaluators: specs }, { owner: "none" });
      const result = (name: string, score: number, passed: boolean | null): EvalResult => ({ name, type: name, score, passed, label: passed === null ? null : passed ? "pass" : "fail", reasoning: "", skipped: false, details: {} });
      await store.appendRows(run, [0.9, 0.5].map((score, i) => ({ id: i, results: { meaning: { ...result("meaning", score, score >= 0.75), type: "semantic_similarity" }, levenshtein_distance: result("levenshtein_distance", 4, null) } })));
      const summary = await summarizeStoredRun(store, run);
      expect(summary.evaluators.map((e) => [e.name, e.direction, e.threshold, e.n, e.mean, e.pass_rate])).toEqual([
        ["meaning", "maximize", 0.75, 2, 0.7, 0.5],
        ["levenshtein_distance", "minimize", null, 2, 4, null],
      ]);
    } finally {
      vi.unstubAllEnvs();
      await store.close();
    }
  });

  it("refuses arguments of the wrong kind, naming them, and a run the store does not have by that exact id", async () => {
    const path = await files.file("one.jsonl", '{"output":"a","expected":"a"}\n');
    const store = openSqliteStore(join(files.dir(), "one.db"));
    try {
      const { runId } = await runDataset({ dataset: path, evaluators: [{ type: "exact_match" }], workers: 0, store, name: "named" });
      const cases: [unknown[], string, string][] = [
        [[5, runId], "CONFIG_INVALID", "store must be a RunStore (such as openSqliteStore(path)), received number 5"],
        [[{ findRun: () => undefined }, runId], "CONFIG_INVALID", "store.rows must be a function (the store is no RunStore), received nothing"],
        [[store, ""], "INPUT_INVALID", 'runId must be a run\'s id (a non-empty string), received string ""'],
        [[store, runId, 5], "CONFIG_INVALID", "opts must be an object ({ countSkippedAsZero?, scoreSet?, onProgress?, signal? }) or nothing, received number 5"],
        [[store, runId, { countSkippedAsZero: "yes" }], "CONFIG_INVALID", 'opts.countSkippedAsZero must be a boolean or nothing, received string "yes"'],
        [[store, runId, { onProgress: 5 }], "CONFIG_INVALID", "opts.onProgress must be a function or nothing, received number 5"],
        [[store, runId, { signal: true }], "CONFIG_INVALID", "opts.signal must be an AbortSignal or nothing, received boolean true"],
        [[store, "named"], "RUN_NOT_FOUND", 'the store has no run with id "named"'],
        [[store, (runId as string).slice(0, 8)], "RUN_NOT_FOUND", `the store has no run with id "${(runId as string).slice(0, 8)}"`],
      ];
      for (const [args, code, message] of cases) {
        await expect((summarizeStoredRun as (...a: unknown[]) => Promise<unknown>)(...args)).rejects.toMatchObject({ name: "EvalError", code, message: `summarizeStoredRun: ${message}` });
      }
      expect((await summarizeStoredRun(store, runId as string)).rows).toBe(1);
    } finally {
      await store.close();
    }
  });
});

describe("finishStoredRun", () => {
  /**
   * `store`, but before each of its first `times` finishRun calls, `other` (a second store on the file, as another
   * process) appends a row: what a service's other processes do while one finishes the run.
   */
  function appendingBeforeFinish(store: RunStore, other: RunStore, times: number): RunStore & { finishes: boolean[] } {
    const finishes: boolean[] = [];
    let appended = 0;
    // Only what finishStoredRun calls: findRun and rows (to summarize), and finishRun.
    const wrapped: Pick<RunStore, "findRun" | "rows" | "finishRun"> & { finishes: boolean[] } = {
      finishes,
      findRun: (ref) => store.findRun(ref),
      rows: (runId) => store.rows(runId),
      finishRun: async (runId, summary, opts) => {
        if (appended < times) await other.appendRows(runId, [{ id: `late ${++appended}`, results: {}, error: { code: "X", message: "late" } }]);
        const done = await store.finishRun(runId, summary, opts);
        finishes.push(done);
        return done;
      },
    };
    return wrapped as RunStore & { finishes: boolean[] };
  }

  /**
   * Two stores on one new file (`name`), as two processes of a service, and a run of exact_match begun by the
   * first with owner "none"; both stores are closed after `use`.
   */
  async function withTwoStores(name: string, use: (a: RunStore, b: RunStore, run: string) => Promise<void>): Promise<void> {
    const dbPath = join(files.dir(), name);
    const a = openSqliteStore(dbPath);
    const b = openSqliteStore(dbPath);
    try {
      const run = await a.beginRun({ name: null, dataset_path: "traces", dataset_hash: "", evaluators: [{ type: "exact_match" }] }, { owner: "none" });
      await use(a, b, run);
    } finally {
      await a.close();
      await b.close();
    }
  }

  it("summarizes again when rows were appended after the summary was made, so the recorded summary covers every stored row", async () => {
    await withTwoStores("finish.db", async (a, b, run) => {
      await a.appendRows(run, [{ id: 1, results: { exact_match: { type: "exact_match", score: 1, passed: true, label: "pass", reasoning: "", skipped: false, details: {} } } }]);
      const store = appendingBeforeFinish(a, b, 2);
      const summary = await finishStoredRun(store, run);
      expect(store.finishes).toEqual([false, false, true]);
      expect(summary).toMatchObject({ rows: 3, row_errors: 2 });
      expect(await b.rowCount(run)).toBe(3);
      expect(await b.findRun(run)).toMatchObject({ status: "complete", summary });
    });
  });

  it("gives up, leaving the run running, when rows keep coming each time it is summarized: transient, since the same call succeeds once the appends stop", async () => {
    await withTwoStores("busy.db", async (a, b, run) => {
      const store = appendingBeforeFinish(a, b, Infinity);
      await expect(finishStoredRun(store, run)).rejects.toMatchObject({ code: "RUN_CONFLICT", transient: true, message: expect.stringContaining(`run ${run} took more rows each of the ${FINISH_ATTEMPTS} times it was summarized; stop appending to it`) });
      expect(store.finishes).toEqual(Array(FINISH_ATTEMPTS).fill(false));
      expect(await b.findRun(run)).toMatchObject({ status: "running", summary: null });
    });
  });

  it("says by its code why it cannot finish a run: RUN_CONFLICT for one that has ended (complete or aborted), RUN_NOT_FOUND for one deleted, also while its rows were read", async () => {
    await withTwoStores("codes.db", async (a, b, run) => {
      await b.abortRun(run, null, "job cancelled");
      await expect(finishStoredRun(a, run)).rejects.toMatchObject({ code: "RUN_CONFLICT", transient: false, message: `finishStoredRun: run ${run} is incomplete, not running: only a running run can be finished (it is unchanged)` });
      await b.deleteRun(run);
      await expect(finishStoredRun(a, run)).rejects.toMatchObject({ code: "RUN_NOT_FOUND", transient: false, message: `finishStoredRun: the store has no run with id "${run}"` });
      await expect(summarizeStoredRun(a, run)).rejects.toMatchObject({ code: "RUN_NOT_FOUND", message: `summarizeStoredRun: the store has no run with id "${run}"` });
      // Deleted by another process (delete --force) once it was looked up to be summarized: the store's refusal, as the rows are read.
      const other = await a.beginRun({ name: null, dataset_path: "traces", dataset_hash: "", evaluators: [{ type: "exact_match" }] }, { owner: "none" });
      let lookups = 0;
      const deleting: Pick<RunStore, "findRun" | "rows" | "finishRun"> = {
        findRun: async (ref) => {
          const found = await a.findRun(ref);
          if (++lookups === 2) await b.deleteRun(other, { force: true }); // finishStoredRun's, then summarizeStoredRun's
          return found;
        },
        rows: (runId, opts) => a.rows(runId, opts),
        finishRun: (runId, summary, opts) => a.finishRun(runId, summary, opts),
      };
      await expect(finishStoredRun(deleting as RunStore, other)).rejects.toMatchObject({ code: "RUN_NOT_FOUND", transient: false, message: `${join(files.dir(), "codes.db")}: no run with id "${other}"` });
      expect(lookups).toBe(2);
    });
  });

  it("refuses a run that is not running before reading its rows, and names itself in its argument errors", async () => {
    await withTwoStores("done.db", async (a, _b, run) => {
      await a.appendRows(run, [{ id: 1, results: { exact_match: { type: "exact_match", score: 1, passed: true, label: "pass", reasoning: "", skipped: false, details: {} } } }]);
      await finishStoredRun(a, run);
      const rows = vi.spyOn(a, "rows");
      await expect(finishStoredRun(a, run)).rejects.toMatchObject({ code: "RUN_CONFLICT", transient: false, message: `finishStoredRun: run ${run} is complete, not running: only a running run can be finished (it is unchanged)` });
      expect(rows).not.toHaveBeenCalled();
      await expect(finishStoredRun(a, run, { countSkippedAsZero: "yes" } as never)).rejects.toMatchObject({ code: "CONFIG_INVALID", message: 'finishStoredRun: opts.countSkippedAsZero must be a boolean or nothing, received string "yes"' });
      // A run it does not have (by that exact id) is said by finishStoredRun too, not by summarizeStoredRun, which it calls.
      for (const ref of ["nope", run.slice(0, 8)]) {
        await expect(finishStoredRun(a, ref)).rejects.toMatchObject({ code: "RUN_NOT_FOUND", transient: false, message: `finishStoredRun: the store has no run with id "${ref}"` });
      }
    });
  });

  /** A run of exact_match that no process owns, with `n` rows appended (a pass every other row). */
  async function serviceRun(store: RunStore, n: number): Promise<string> {
    const run = await store.beginRun({ name: "svc", dataset_path: null, dataset_hash: null, evaluators: [{ type: "exact_match" }] }, { owner: "none" });
    const result = (score: number): EvalResult => ({ name: "exact_match", type: "exact_match", score, passed: score === 1, label: score === 1 ? "pass" : "fail", reasoning: "", skipped: false, details: {} });
    for (let i = 0; i < n; i += 5000) {
      await store.appendRows(run, Array.from({ length: Math.min(5000, n - i) }, (_, j) => ({ id: i + j, key: String(i + j), results: { exact_match: result((i + j) % 2) } })));
    }
    return run;
  }

  it("tells onProgress the rows read, and once its signal is aborted while they are read rejects with its reason, leaving the run running with its rows", async () => {
    const store = openSqliteStore(join(files.dir(), "stopped.db"));
    try {
      const n = 2 * SUMMARY_PROGRESS_ROWS + 123;
      const run = await serviceRun(store, n);
      const heard: number[] = [];
      const summary = await summarizeStoredRun(store, run, { onProgress: (rows) => void heard.push(rows) });
      expect(heard).toEqual([SUMMARY_PROGRESS_ROWS, 2 * SUMMARY_PROGRESS_ROWS]);
      expect(summary).toMatchObject({ rows: n, evaluators: [{ n, mean: (n - 1) / 2 / n }] });
      // Aborted as a Ctrl-C handler does: from a listener, which runs only when the loop turns.
      const controller = new AbortController();
      const seen: number[] = [];
      const onProgress = (rows: number) => {
        seen.push(rows);
        setImmediate(() => controller.abort("SIGINT"));
      };
      await expect(finishStoredRun(store, run, { onProgress, signal: controller.signal })).rejects.toBe("SIGINT");
      expect(seen).toEqual([SUMMARY_PROGRESS_ROWS]);
      expect(await store.findRun(run)).toMatchObject({ status: "running", summary: null });
      expect(await store.rowCount(run)).toBe(n);
      // Aborted already: not a row is read.
      const rows = vi.spyOn(store, "rows");
      await expect(finishStoredRun(store, run, { signal: AbortSignal.abort("SIGTERM") })).rejects.toBe("SIGTERM");
      expect(rows).not.toHaveBeenCalled();
      // Without either, as before; with a signal never aborted, finished.
      expect(await finishStoredRun(store, run, { signal: new AbortController().signal })).toEqual(summary);
      expect(await store.findRun(run)).toMatchObject({ status: "complete", summary });
    } finally {
      vi.restoreAllMocks();
      await store.close();
    }
  });

  it("keeps the scores past memory in scoreSet.dir, and closes that temporary file once done or stopped", async () => {
    const store = openSqliteStore(join(files.dir(), "spill.db"));
    // Descriptors held by this process (Linux): the spill file is unlinked while open, so only its descriptor shows it.
    const openFiles = () => (existsSync("/proc/self/fd") ? readdirSync("/proc/self/fd").length : 0);
    try {
      const run = await serviceRun(store, 1000);
      const dir = join(files.dir(), "spill");
      mkdirSync(dir);
      const before = openFiles();
      const summary = await summarizeStoredRun(store, run, { scoreSet: { memoryValues: 100, dir } });
      expect(summary).toMatchObject({ rows: 1000, evaluators: [{ n: 1000, mean: 0.5 }] });
      expect(openFiles()).toBe(before);
      expect(readdirSync(dir)).toEqual([]);
      // Its folder is the one given: where it cannot be made, that is said, naming it.
      const missing = join(files.dir(), "no-such-folder");
      await expect(summarizeStoredRun(store, run, { scoreSet: { memoryValues: 100, dir: missing } })).rejects.toMatchObject({ code: "STORE_FAILED", message: expect.stringContaining(`temporary file at ${missing}`) });
      // Stopped once the scores spilled: the file is closed all the same.
      const controller = new AbortController();
      const stopped = summarizeStoredRun(store, run, { scoreSet: { memoryValues: 100, dir }, signal: controller.signal });
      controller.abort("SIGINT");
      await expect(stopped).rejects.toBe("SIGINT");
      expect(openFiles()).toBe(before);
    } finally {
      await store.close();
    }
  });

  it("hears a signal that came after the last turn (the last rows, the figures) before the run is marked", async () => {
    const store = openSqliteStore(join(files.dir(), "late.db"));
    try {
      const run = await serviceRun(store, 10);
      const controller = new AbortController();
      // Aborted on the next turn of the loop, which no row lets happen: only the turn after the summary does.
      setImmediate(() => controller.abort("SIGINT"));
      await expect(finishStoredRun(store, run, { signal: controller.signal })).rejects.toBe("SIGINT");
      expect(await store.findRun(run)).toMatchObject({ status: "running", summary: null });
    } finally {
      await store.close();
    }
  });
});
