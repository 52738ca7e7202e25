import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { EvalError } from "../../errors.js";
import { SqliteRunStore } from "../../storage/sqlite.js";
import type { CliIO } from "../io.js";
import { cliOutput, signalOnFirstRowRead, storesInTempDir } from "../test-support.js";
import { finishStoredRun } from "../../run/stored-summary.js";
import { finishCommand } from "./finish-abort.js";
import Database from "better-sqlite3";

const temp = storesInTempDir("simeval-finish-abort-");
const { open } = temp;

describe("finish and abort", () => {
  // As exact_match gives them: a skipped row (no expected output) carries score 0, which only --count-skipped-as-zero counts.
  const result = (score: number, skipped = false) => ({
    type: "exact_match",
    score,
    passed: score === 1,
    label: score === 1 ? "pass" : "fail",
    reasoning: skipped ? "No expected output was provided." : "",
    details: {},
    ...(skipped ? { skipped: true } : {}),
  });
  /** A run that no process owns (as a service begins one), with a passed, a failed and a skipped row appended. */
  async function serviceRun(store: SqliteRunStore, name: string) {
    const id = await store.beginRun({ name, dataset_path: null, dataset_hash: null, evaluators: [{ type: "exact_match" }] }, { owner: "none" });
    const rows = [result(1), result(0), result(0, true)].map((r, i) => ({ id: `t${i}`, results: { exact_match: r } }));
    await store.appendRows(id, rows as never);
    return id;
  }
  const db = () => join(temp.dir, "simeval.db");
  /**
   * `simeval finish svc`, while another process does `meanwhile` to the run after its rows were read and before it is
   * marked: once, or each time (`every`) it is summarized.
   */
  async function finishWhile(meanwhile: () => Promise<unknown>, every = false) {
    const finishRun = SqliteRunStore.prototype.finishRun;
    const spy = vi.spyOn(SqliteRunStore.prototype, "finishRun");
    const late = async function (this: SqliteRunStore, ...args: Parameters<SqliteRunStore["finishRun"]>) {
      await meanwhile();
      return finishRun.apply(this, args);
    };
    if (every) spy.mockImplementation(late);
    else spy.mockImplementationOnce(late);
    try {
      return await cliOutput(["finish", "svc", "--db", db()]);
    } finally {
      spy.mockRestore();
    }
  }

  it("finish marks the run complete with the summary of its stored rows, and prints the summary table as show does", async () => {
    const store = open();
    const id = await serviceRun(store, "svc");
    const finished = await cliOutput(["finish", "svc", "--db", db()]);
    expect(finished).toMatchObject({ code: 0, err: "" });
    const [first, blank, ...table] = finished.out.split("\n");
    expect([first, blank]).toEqual([`finished ${id} (svc): complete, summarized from its 3 rows`, ""]);
    const run = (await store.findRun(id))!;
    expect(run.status).toBe("complete");
    expect(run.summary).toMatchObject({ rows: 3, skipped_as_zero: false, evaluators: [{ name: "exact_match", n: 2, skipped: 1, mean: 0.5, pass_rate: 0.5 }] });
    expect((await cliOutput(["show", "svc", "--db", db()])).out.endsWith(`\n${table.join("\n")}`)).toBe(true);
  });

  /** A run that no process owns with `n` rows appended, as {@link serviceRun}'s but more. */
  async function bigServiceRun(store: SqliteRunStore, name: string, n: number) {
    const id = await store.beginRun({ name, dataset_path: null, dataset_hash: null, evaluators: [{ type: "exact_match" }] }, { owner: "none" });
    for (let i = 0; i < n; i += 5000) {
      await store.appendRows(id, Array.from({ length: Math.min(5000, n - i) }, (_, j) => ({ id: i + j, key: String(i + j), results: { exact_match: result((i + j) % 2) } })) as never);
    }
    return id;
  }

  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)("finish stops on %s while the rows are read, says that the run is still running as it was, and exits %i, writing nothing", async (name, exit) => {
    const store = open();
    const id = await bigServiceRun(store, "svc", 25_000);
    // The signal comes with the first row read: the rest of the rows are not.
    const read = signalOnFirstRowRead("rows", name);
    try {
      const out: string[] = [];
      const err: string[] = [];
      const io = { stdout: (line: string) => void out.push(line), stderr: (line: string) => void err.push(line) } as unknown as CliIO;
      expect(await finishCommand("svc", { db: db() }, io)).toBe(exit);
      expect(out).toEqual([]);
      expect(err).toEqual([`simeval: interrupted (${name}); run ${id} (svc) was not finished: it is still running, with its rows, as it was`]);
      expect(read.rows).toBeLessThan(25_000);
      expect(await store.findRun(id)).toMatchObject({ status: "running", summary: null, owner: "none" });
      expect(await store.rowCount(id)).toBe(25_000);
      expect(process.listenerCount(name)).toBe(0);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it("finish says so when a signal is heard only once the run is marked complete (exit 130): it is complete all the same", async () => {
    const store = open();
    const id = await serviceRun(store, "svc");
    const finishRun = SqliteRunStore.prototype.finishRun;
    vi.spyOn(SqliteRunStore.prototype, "finishRun").mockImplementation(async function (this: SqliteRunStore, ...args: Parameters<SqliteRunStore["finishRun"]>) {
      const done = await finishRun.apply(this, args);
      // Delivered on the loop's next turn, as a signal that came during the marking's synchronous transaction is.
      setImmediate(() => process.emit("SIGINT"));
      return done;
    });
    try {
      const out: string[] = [];
      const err: string[] = [];
      const io = { stdout: (line: string) => void out.push(line), stderr: (line: string) => void err.push(line) } as unknown as CliIO;
      expect(await finishCommand("svc", { db: db() }, io)).toBe(130);
      expect(out[0]?.split("\n")[0]).toBe(`finished ${id} (svc): complete, summarized from its 3 rows`);
      expect(err).toEqual([`simeval: interrupted (SIGINT); run ${id} (svc) was finished all the same (the signal came while it was marked complete)`]);
      expect(await store.findRun(id)).toMatchObject({ status: "complete", summary: { rows: 3 } });
    } finally {
      vi.restoreAllMocks();
    }
  });

  it("finish shows the rows read of those stored on a terminal's stderr, and erases the line once done", async () => {
    const store = open();
    await bigServiceRun(store, "svc", 25_000);
    const writes: string[] = [];
    const stderr = process.stderr as { isTTY?: boolean; columns?: number };
    const [isTTY, columns] = [stderr.isTTY, stderr.columns];
    Object.assign(stderr, { isTTY: true, columns: 100 });
    vi.stubEnv("TERM", "xterm");
    vi.spyOn(process.stderr, "write").mockImplementation((s: string | Uint8Array) => (writes.push(String(s)), true));
    // A second between the clock's readings: each update is drawn (at most ten are a second).
    let now = 0;
    vi.spyOn(performance, "now").mockImplementation(() => (now += 1000));
    try {
      const out: string[] = [];
      const err: string[] = [];
      const io = { stdout: (line: string) => void out.push(line), stderr: (line: string) => void err.push(line) } as unknown as CliIO;
      expect(await finishCommand("svc", { db: db() }, io)).toBe(0);
      expect(err).toEqual([]);
      expect(out[0]).toMatch(/^finished \S+ \(svc\): complete, summarized from its 25,000 rows\n/);
      // (Drawn a line up when an earlier test's signal has asked the process to stop: see terminalProgress.)
      const lines = writes.filter((w) => w.includes("\r["));
      expect(lines.map((l) => l.match(/\d+%  [\d,]+ rows/)?.[0])).toEqual(["0%  0 rows", "40%  10,000 rows", "80%  20,000 rows"]);
      expect(writes[writes.length - 1]).toMatch(/^(\x1b\[1A)?\r\x1b\[K$/);
    } finally {
      vi.restoreAllMocks();
      vi.unstubAllEnvs();
      Object.assign(stderr, { isTTY, columns });
    }
  });

  it("finish --count-skipped-as-zero counts the skipped row as a 0", async () => {
    const store = open();
    const id = await serviceRun(store, "svc");
    expect((await cliOutput(["finish", id, "--count-skipped-as-zero", "--db", db()])).code).toBe(0);
    expect((await store.findRun(id))!.summary).toMatchObject({ rows: 3, skipped_as_zero: true, evaluators: [{ n: 3, skipped: 1, mean: 1 / 3, pass_rate: 1 / 3 }] });
  });

  it("abort marks the run incomplete, keeping its rows, with the reason given or by default \"aborted with simeval abort\", which show prints", async () => {
    const store = open();
    const id = await serviceRun(store, "svc");
    const aborted = await cliOutput(["abort", "svc", "--db", db()]);
    expect(aborted).toEqual({ code: 0, out: `aborted ${id} (svc): marked incomplete (aborted with simeval abort), keeping its 3 rows`, err: "" });
    expect(await store.findRun(id)).toMatchObject({ status: "incomplete", stop_reason: "aborted with simeval abort", summary: null });
    expect(await store.rowCount(id)).toBe(3);
    expect((await cliOutput(["show", "svc", "--db", db()])).out).toContain("status   incomplete: aborted with simeval abort");
    const other = await serviceRun(store, "drained");
    expect((await cliOutput(["abort", "drained", "--reason", "the queue was drained", "--db", db()])).out).toBe(`aborted ${other} (drained): marked incomplete (the queue was drained), keeping its 3 rows`);
    expect((await cliOutput(["show", other, "--db", db()])).out).toContain("status   incomplete: the queue was drained");
  });

  it("refuse an unknown run, exit 2", async () => {
    open();
    for (const command of ["finish", "abort"]) {
      expect(await cliOutput([command, "nope", "--db", db()])).toEqual({ code: 2, out: "", err: 'simeval: no recorded run matches "nope" (an id, name or id prefix); `simeval runs` lists them' });
    }
  });

  it("refuse a run that is not running, saying whether it is complete or incomplete (and why), exit 2, leaving it as it was", async () => {
    const store = open();
    const done = await serviceRun(store, "done");
    await store.finishRun(done, { rows: 3, row_errors: 0, skipped_as_zero: false, evaluators: [] } as never);
    const stopped = await serviceRun(store, "stopped");
    await store.abortRun(stopped, null, "the service was shut down");
    for (const command of ["finish", "abort"]) {
      const verb = command === "finish" ? "finished" : "aborted";
      expect(await cliOutput([command, "done", "--db", db()])).toEqual({
        code: 2,
        out: "",
        err: `simeval: ${command}: run ${done} (done) is complete already, not running: only a run still being recorded can be ${verb} (it is unchanged)`,
      });
      expect((await cliOutput([command, "stopped", "--db", db()])).err).toBe(
        `simeval: ${command}: run ${stopped} (stopped) is incomplete already (the service was shut down), not running: only a run still being recorded can be ${verb} (it is unchanged)`,
      );
    }
    expect(await store.findRun(done)).toMatchObject({ status: "complete", summary: { evaluators: [] } });
    expect(await store.findRun(stopped)).toMatchObject({ status: "incomplete", stop_reason: "the service was shut down" });
  });

  it("refuse a running run that a process owns, naming it: that process finishes it; abort --force marks one on another host incomplete, and says so of one whose process is alive here", async () => {
    const store = open();
    const id = await store.beginRun({ name: "live", dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
    const far = await store.beginRun({ name: "far", dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
    const raw = new Database(db());
    raw.prepare("UPDATE runs SET host = 'ci-runner-7', pid = 41 WHERE id = ?").run(far);
    raw.close();
    const refusal = (command: string, label: string, by: string, hint: string) =>
      `simeval: ${command}: run ${label} is being recorded by the process that began it, ${by} (as \`simeval run\` records its runs), which finishes it; \`simeval ${command}\` ends only a run that no process owns (begun with owner "none", as a service begins its runs)${command === "abort" ? " unless given --force" : ""}, so the run is unchanged; ${hint}`;
    for (const command of ["finish", "abort"]) {
      const refused = await cliOutput([command, "live", "--db", db()]);
      expect(refused.code).toBe(2);
      expect(refused.err).toBe(
        refusal(command, `${id} (live)`, `process ${process.pid} on this host`, `that process is alive: the run ends when it does (Ctrl-C there, or \`kill ${process.pid}\`, marks it incomplete keeping its rows)`),
      );
      const refusedFar = await cliOutput([command, "far", "--db", db()]);
      expect(refusedFar.err).toBe(
        refusal(command, `${far} (far)`, "process 41 on host ci-runner-7", `a run whose process was killed on another host or in another container stays recorded as running: \`simeval abort ${far} --force\` marks it incomplete keeping its rows, \`simeval delete ${far} --force\` deletes it`),
      );
    }
    expect((await store.findRun(id))!.status).toBe("running");
    // --force: for a run whose process was killed on another host, which no process here can find gone.
    const forcedFar = await cliOutput(["abort", "far", "--force", "--reason", "job cancelled", "--db", db()]);
    expect(forcedFar).toEqual({ code: 0, out: `aborted ${far} (far): marked incomplete (job cancelled), keeping its 0 rows`, err: "" });
    expect(await store.findRun(far)).toMatchObject({ status: "incomplete", stop_reason: "job cancelled" });
    // One whose process is alive on this host is aborted too, saying that process fails at its next rows.
    await store.addRows(id, [{ row: 1, id: 1, results: { exact_match: result(1) } }] as never);
    const forced = await cliOutput(["abort", "live", "--force", "--reason", "job cancelled", "--db", db()]);
    expect(forced).toEqual({
      code: 0,
      out: `aborted ${id} (live): marked incomplete (job cancelled), keeping its 1 row`,
      err: `simeval: warning: process ${process.pid} on this host, which began run ${id} (live), is still alive: it fails at its next rows (Ctrl-C there, or \`kill ${process.pid}\`, stops it)`,
    });
    expect(await store.findRun(id)).toMatchObject({ status: "incomplete", stop_reason: "job cancelled" });
    await expect(store.addRows(id, [{ row: 2, id: 2, results: { exact_match: result(1) } }] as never)).rejects.toThrow(/incomplete/);
    expect((await cliOutput(["finish", "live", "--force", "--db", db()])).code).toBe(2); // finish takes no --force
  });

  it("abort refuses an empty --reason, exit 2, before the run is looked up", async () => {
    const store = open();
    const id = await serviceRun(store, "svc");
    expect(await cliOutput(["abort", "svc", "--reason", " ", "--db", db()])).toEqual({ code: 2, out: "", err: 'simeval: --reason was given no text (" "); give why the run stopped, or leave --reason out for "aborted with simeval abort"' });
    expect((await store.findRun(id))!.status).toBe("running");
  });

  it("abort refuses a run another process ended between its lookup and its abort, rather than say it aborted it", async () => {
    const store = open();
    const id = await serviceRun(store, "svc");
    const abortRun = vi.spyOn(SqliteRunStore.prototype, "abortRun").mockImplementationOnce(async function (this: SqliteRunStore, runId: string) {
      await store.finishRun(runId, { rows: 3, row_errors: 0, skipped_as_zero: false, evaluators: [] } as never);
    });
    try {
      const refused = await cliOutput(["abort", "svc", "--db", db()]);
      expect(refused).toEqual({ code: 2, out: "", err: `simeval: abort: run ${id} (svc) was ended by another process meanwhile: it is complete, not aborted` });
    } finally {
      abortRun.mockRestore();
    }
    // Another process's abort, with its own reason: not this one's, so not said to be.
    const other = await serviceRun(store, "svc2");
    const original = SqliteRunStore.prototype.abortRun;
    const abortedElsewhere = vi.spyOn(SqliteRunStore.prototype, "abortRun").mockImplementationOnce(async function (this: SqliteRunStore, runId: string) {
      await original.call(store, runId, null, "stopped by the service");
    });
    try {
      const refused = await cliOutput(["abort", "svc2", "--db", db(), "--reason", "mine"]);
      expect(refused).toEqual({ code: 2, out: "", err: `simeval: abort: run ${other} (svc2) was ended by another process meanwhile: it is incomplete (stopped by the service), not aborted` });
      expect(await store.findRun(other)).toMatchObject({ status: "incomplete", stop_reason: "stopped by the service" });
    } finally {
      abortedElsewhere.mockRestore();
    }
  });

  it("finish refuses a run another process ended while its rows were read (exit 2, saying how it ended), as abort does, rather than fail as the store (exit 3)", async () => {
    const store = open();
    const id = await serviceRun(store, "svc");
    // `simeval abort` in another process, landing after the rows were read and before the run is marked.
    const refused = await finishWhile(() => store.abortRun(id, null, "ops stop"));
    expect(refused).toEqual({ code: 2, out: "", err: `simeval: finish: run ${id} (svc) was ended by another process meanwhile: it is incomplete (ops stop), not finished` });
    expect(await store.findRun(id)).toMatchObject({ status: "incomplete", stop_reason: "ops stop" });
  });

  it("finish says so when another finish completed the run while its rows were read (exit 2), not that it ended it otherwise", async () => {
    const store = open();
    const id = await serviceRun(store, "svc");
    // `simeval finish` in another process, first.
    const refused = await finishWhile(() => finishStoredRun(store, id));
    expect(refused).toEqual({ code: 2, out: "", err: `simeval: finish: run ${id} (svc) was finished by another process meanwhile (it is complete)` });
    expect((await store.findRun(id))?.status).toBe("complete");
  });

  it("finish refuses a run still receiving rows each time it is summarized (exit 2, saying so), not as the library's function", async () => {
    const store = open();
    const id = await serviceRun(store, "svc");
    // A service still appending: a row lands after each reading of the rows, before the run is marked.
    const refused = await finishWhile(() => store.appendRows(id, [{ id: "late", results: { exact_match: result(1) } }] as never), true);
    expect(refused).toEqual({
      code: 2,
      out: "",
      err: `simeval: finish: run ${id} (svc) is still receiving rows (3 when finish began, 8 now), more each time it was summarized: stop what appends to it, then finish it (it is still running, with its rows)`,
    });
    expect((await store.findRun(id))?.status).toBe("running");
  });

  it("finish gives a store failure as it is (exit 3), not as rows still coming, though a row came meanwhile", async () => {
    const store = open();
    const id = await serviceRun(store, "svc");
    // A service appends one row, then the disk fails as the run is marked: the failure is the store's, not "still receiving rows".
    const spy = vi.spyOn(SqliteRunStore.prototype, "finishRun").mockImplementationOnce(async () => {
      await store.appendRows(id, [{ id: "late", results: { exact_match: result(1) } }] as never);
      throw new EvalError("STORE_FAILED", "simeval.db: could not finish the run: disk I/O error");
    });
    try {
      expect(await cliOutput(["finish", "svc", "--db", db()])).toEqual({ code: 3, out: "", err: "simeval: simeval.db: could not finish the run: disk I/O error" });
      expect((await store.findRun(id))?.status).toBe("running");
    } finally {
      spy.mockRestore();
    }
  });

  it("are named, with finish, abort and delete --force, where delete and --vacuum refuse a running run that no process owns", async () => {
    const store = open();
    const id = await serviceRun(store, "svc");
    const hint = `${id} (svc) is owned by no process (begun with owner "none", as a service begins its runs), so it stays running until some process finishes or aborts it: \`simeval finish RUN\` marks it complete with the summary of its stored rows, \`simeval abort RUN\` marks it incomplete keeping its rows, and \`simeval delete RUN --force\` deletes it`;
    const deleting = await cliOutput(["delete", "svc", "--db", db()]);
    expect(deleting.code).toBe(2);
    expect(deleting.err).toBe(`simeval: run ${id} (svc) is still being recorded; finish or abort it before deleting it (nothing was deleted); ${hint}`);
    const vacuuming = await cliOutput(["delete", "--vacuum", "--db", db()]);
    expect(vacuuming.code).toBe(2);
    expect(vacuuming.err).toMatch(new RegExp(`; vacuum once it has finished \\(nothing was deleted\\); ${hint.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
    await serviceRun(store, "svc2");
    expect((await cliOutput(["delete", "--vacuum", "--db", db()])).err).toContain(
      `are owned by no process (begun with owner "none", as a service begins its runs), so they stay running until some process finishes or aborts them: \`simeval finish RUN\` marks them complete with the summary of their stored rows, \`simeval abort RUN\` marks them incomplete keeping their rows, and \`simeval delete RUN --force\` deletes them`,
    );
  });
});
