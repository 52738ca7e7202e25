import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { SqliteRunStore } from "../../storage/sqlite.js";
import { cliOutput, storesInTempDir } from "../test-support.js";
import Database from "better-sqlite3";

const temp = storesInTempDir("simeval-show-");
const { open } = temp;

describe("showCommand", () => {
  it("says why a run has no summary: still being recorded, or it did not finish, with the rows it has stored", async () => {
    const store = open();
    const running = await store.beginRun({ name: "live", dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
    await store.addRows(running, [1, 2].map((row) => ({ row, id: row, results: {} })));
    const db = join(temp.dir, "simeval.db");
    const out = (await cliOutput(["show", "live", "--db", db])).out;
    expect(out).toContain("no summary yet (the run is still being recorded); 2 rows recorded so far");
    expect(out).not.toContain("did not finish");
    await store.abortRun(running, null, "stopped");
    const one = await store.beginRun({ name: "one", dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
    await store.addRows(one, [{ row: 1, id: 1, results: {} }]);
    await store.abortRun(one, null, "stopped");
    const shown = (await cliOutput(["show", "one", "--db", db])).out;
    expect(shown).toMatch(/^no summary \(the run did not finish\); 1 row recorded$/m);
    // It has no figures for an "incomplete: these figures cover only ..." line to qualify: the summary's line says it all.
    expect(shown.trimEnd().split("\n").at(-1)).toBe("no summary (the run did not finish); 1 row recorded");
  });

  it("names the process recording a running run: on this host it is alive, elsewhere its end cannot be seen (a cancelled CI job's), so how to end it is said; of a service's, neither", async () => {
    const store = open();
    const here = await store.beginRun({ name: "here", dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
    const killed = await store.beginRun({ name: "cancelled", dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
    await store.addRows(killed, [{ row: 1, id: 1, results: {} }]);
    await store.beginRun({ name: "svc-live", dataset_path: null, dataset_hash: null, evaluators: [{ type: "exact_match" }] }, { owner: "none" });
    const db = join(temp.dir, "simeval.db");
    const raw = new Database(db);
    raw.prepare("UPDATE runs SET host = 'ci-runner-7 pid:[4026531836]', pid = 41 WHERE id = ?").run(killed);
    raw.close();

    const elsewhere = (await cliOutput(["show", "cancelled", "--db", db])).out;
    expect(elsewhere).toMatch(/^status {3}running, recorded by process 41 on host ci-runner-7$/m);
    expect(elsewhere).toContain(
      `\nno summary yet (the run is still being recorded); 1 row recorded so far\na run whose process was killed on another host or in another container stays recorded as running: \`simeval abort ${killed} --force\` marks it incomplete keeping its rows, \`simeval delete ${killed} --force\` deletes it`,
    );
    const alive = (await cliOutput(["show", "here", "--db", db])).out;
    expect(alive).toMatch(new RegExp(`^status {3}running, recorded by process ${process.pid} on this host$`, "m"));
    expect(alive).toContain(`\nprocess ${process.pid} on this host is alive: the run ends when it does (Ctrl-C there, or \`kill ${process.pid}\`, marks it incomplete keeping its rows)`);
    expect(alive).not.toContain("--force");
    const service = (await cliOutput(["show", "svc-live", "--db", db])).out;
    expect(service).toMatch(/^status {3}running$/m);
    expect(service).not.toContain("--force");
    expect(service).not.toContain("process");
    expect(JSON.parse((await cliOutput(["show", "cancelled", "--db", db, "--json"])).out)).toMatchObject({ owner: "process", process: { pid: 41, host: "ci-runner-7 pid:[4026531836]" } });
    expect(JSON.parse((await cliOutput(["show", "svc-live", "--db", db, "--json"])).out)).toMatchObject({ owner: "none", process: null });
    await store.abortRun(here, null, "stopped");
    expect((await cliOutput(["show", "here", "--db", db])).out).toMatch(/^status {3}incomplete: stopped$/m);
  });

  it("names the process of a run begun by a simeval that recorded no host, and escapes a recorded host's control and bidi characters on the status line", async () => {
    const store = open();
    const old = await store.beginRun({ name: "old", dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
    const odd = await store.beginRun({ name: "odd", dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
    const db = join(temp.dir, "simeval.db");
    const raw = new Database(db);
    raw.prepare("UPDATE runs SET host = NULL, pid = 42 WHERE id = ?").run(old); // before hosts were recorded: it stays running
    raw.prepare("UPDATE runs SET host = ?, pid = 43 WHERE id = ?").run("ci\u001b[31mred\u202e pid:[1]", odd);
    raw.close();
    expect((await cliOutput(["show", "old", "--db", db])).out).toMatch(/^status {3}running, recorded by process 42 on a host it did not record$/m);
    expect(JSON.parse((await cliOutput(["show", "old", "--db", db, "--json"])).out)).toMatchObject({ owner: "process", process: { pid: 42, host: null } });
    expect((await cliOutput(["show", "odd", "--db", db])).out).toMatch(/^status {3}running, recorded by process 43 on host ci\\u001b\[31mred\\u202e$/m);
  });

  it("prints a service's evaluators with their config's defaults, as it prints a run of `simeval run`, where it printed the config as given ({})", async () => {
    const store = open();
    await store.beginRun({ name: "svc", dataset_path: null, dataset_hash: null, evaluators: [{ type: "exact_match" }, { name: "lev", type: "levenshtein", config: { threshold: 0.9 } }] }, { owner: "none" });
    const out = (await cliOutput(["show", "svc", "--db", join(temp.dir, "simeval.db")])).out;
    expect(out).toMatch(/^exact_match +exact_match +\{"case_sensitive":false,"trim":true,"normalize_whitespace":false\}$/m);
    expect(out).toMatch(/^lev +levenshtein +\{"threshold":0\.9,"case_sensitive":false,"max_chars":10000,"unit":"code_point"\}$/m);
  });
});

describe("show: when the rows were stored, and whether they kept their records", () => {
  const db = () => join(temp.dir, "simeval.db");
  const passed = { exact_match: { type: "exact_match", score: 1, passed: true, label: "pass", reasoning: "", details: {} } };
  const SERVICE = { dataset_path: null, dataset_hash: null, evaluators: [{ type: "exact_match" }] };
  /** The header lines of `show`'s text: the lines before the evaluator table. */
  const header = async (ref: string) => (await cliOutput(["show", ref, "--db", db()])).out.split("\n\n")[0]!.split("\n");
  const json = async (ref: string) => JSON.parse((await cliOutput(["show", ref, "--db", db(), "--json"])).out) as Record<string, unknown>;
  /** Appends `rows` to run `id` as if at `ms` (milliseconds since the epoch). */
  async function appendAt(store: SqliteRunStore, id: string, ms: number, rows: object[]) {
    const now = vi.spyOn(Date, "now").mockReturnValue(ms);
    try {
      await store.appendRows(id, rows as never);
    } finally {
      now.mockRestore();
    }
  }

  it("a service's run: the last and first time a row was stored, and how many rows kept their record; --json gives the same", async () => {
    const store = open();
    const id = await store.beginRun({ name: "svc", ...SERVICE }, { owner: "none" });
    await appendAt(store, id, Date.UTC(2026, 10, 27, 1, 0, 0, 250), [{ id: "t1", results: passed, record: { output: "a" } }, { id: "t2", results: passed }]);
    await appendAt(store, id, Date.UTC(2026, 10, 27, 1, 2, 3, 0), [{ id: "t3", results: passed, record: { output: "b" } }]);
    const lines = await header("svc");
    expect(lines.slice(4)).toEqual([
      "finished -",
      "stored   the last row at 2026-11-27T01:02:03.000Z, the first at 2026-11-27T01:00:00.250Z",
      "dataset  none (not read from a dataset file)",
      "records  2 of 3 rows kept their record: compare --report shows their texts, not the others'",
    ]);
    expect(await json("svc")).toMatchObject({ rows_recorded: 3, rows_with_record: 2, first_stored_at: "2026-11-27T01:00:00.250Z", last_stored_at: "2026-11-27T01:02:03.000Z" });
    // Every row with its record; and once finished (a summary), --json gives no rows_recorded, the rest as before.
    const all = await store.beginRun({ name: "all", ...SERVICE }, { owner: "none" });
    await appendAt(store, all, Date.UTC(2026, 10, 27, 1, 0, 0), [1, 2].map((n) => ({ id: n, results: passed, record: { n } })));
    expect((await cliOutput(["finish", "all", "--db", db()])).code).toBe(0);
    expect((await header("all")).slice(5)).toEqual([
      "stored   every row at 2026-11-27T01:00:00.000Z",
      "dataset  none (not read from a dataset file)",
      "records  every row kept its record: compare --report shows their texts",
    ]);
    const finished = await json("all");
    expect(finished).toMatchObject({ rows_with_record: 2, first_stored_at: "2026-11-27T01:00:00.000Z", last_stored_at: "2026-11-27T01:00:00.000Z" });
    expect("rows_recorded" in finished).toBe(false);
  });

  it("a service's run whose rows kept no record says compare --report cannot show their texts; one without rows says nothing of either", async () => {
    const store = open();
    const id = await store.beginRun({ name: "bare", ...SERVICE }, { owner: "none" });
    await appendAt(store, id, Date.UTC(2026, 0, 2, 3, 4, 5, 6), [{ id: "t1", key: "k", results: passed }]);
    expect((await header("bare")).slice(5)).toEqual([
      "stored   every row at 2026-01-02T03:04:05.006Z",
      "dataset  none (not read from a dataset file)",
      "records  no row kept its record: compare --report cannot show texts",
    ]);
    expect(await json("bare")).toMatchObject({ rows_recorded: 1, rows_with_record: 0, first_stored_at: "2026-01-02T03:04:05.006Z", last_stored_at: "2026-01-02T03:04:05.006Z" });
    const one = await store.beginRun({ name: "one", ...SERVICE }, { owner: "none" });
    await appendAt(store, one, Date.UTC(2026, 0, 2, 3, 4, 5, 6), [{ id: "t1", results: passed, record: { output: "a" } }]);
    expect((await header("one"))[7]).toBe("records  its row kept its record: compare --report shows its texts");
    await store.beginRun({ name: "empty", ...SERVICE }, { owner: "none" });
    expect((await header("empty")).slice(4)).toEqual(["finished -", "dataset  none (not read from a dataset file)"]);
    expect(await json("empty")).toMatchObject({ rows_recorded: 0, rows_with_record: 0, first_stored_at: null, last_stored_at: null });
  });

  it("a run of simeval run: no line of when its rows were stored nor of records, and --json without their fields (a pass over every row)", async () => {
    const data = join(temp.dir, "a.jsonl");
    writeFileSync(data, ['{"output":"a","expected":"a"}', '{"output":"b","expected":"c"}'].join("\n") + "\n");
    writeFileSync(join(temp.dir, "evals.json"), JSON.stringify({ evaluators: [{ type: "exact_match" }] }));
    const ran = await cliOutput(["run", data, "--config", join(temp.dir, "evals.json"), "--db", db(), "--name", "cli", "--workers", "0"]);
    expect(ran.code).toBe(0);
    const spied = vi.spyOn(SqliteRunStore.prototype, "storedRows");
    try {
      const shown = await json("cli");
      expect(shown).toMatchObject({ status: "complete" });
      expect(Object.keys(shown).filter((k) => /stored_at|with_record/.test(k))).toEqual([]);
      const lines = await header("cli");
      expect(lines.filter((l) => /^(stored|records) /.test(l))).toEqual([]);
      expect(lines[5]).toMatch(/^dataset  /);
      expect(spied).not.toHaveBeenCalled();
    } finally {
      spied.mockRestore();
    }
  });

  it("a run whose rows were stored before schema version 5: no time, nulls in --json; rows added since have theirs, and the others are counted", async () => {
    const store = open();
    const id = await store.beginRun({ name: "old", ...SERVICE }, { owner: "none" });
    await store.appendRows(id, [{ id: 1, results: passed }, { id: 2, results: passed }] as never);
    // As a version 4 store left them (its upgrade adds both columns as NULL).
    const raw = new Database(db());
    raw.prepare("UPDATE rows SET stored_at = NULL, record = NULL WHERE run_id = ?").run(id);
    raw.close();
    expect((await header("old")).slice(4)).toEqual([
      "finished -",
      "dataset  none (not read from a dataset file)",
      "records  no row kept its record: compare --report cannot show texts",
    ]);
    expect(await json("old")).toMatchObject({ rows_recorded: 2, rows_with_record: 0, first_stored_at: null, last_stored_at: null });
    await appendAt(store, id, Date.UTC(2026, 10, 27, 1, 0, 0), [{ id: 3, results: passed, record: { n: 3 } }]);
    expect((await header("old")).slice(5)).toEqual([
      "stored   the last row at 2026-11-27T01:00:00.000Z (2 rows stored by a simeval before schema version 5 have no time)",
      "dataset  none (not read from a dataset file)",
      "records  1 of 3 rows kept their record: compare --report shows their texts, not the others'",
    ]);
    expect(await json("old")).toMatchObject({ rows_recorded: 3, rows_with_record: 1, first_stored_at: "2026-11-27T01:00:00.000Z", last_stored_at: "2026-11-27T01:00:00.000Z" });
  });
});
