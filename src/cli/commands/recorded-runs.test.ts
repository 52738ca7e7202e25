import { describe, expect, it } from "vitest";
import { EvalError } from "../../errors.js";
import { SqliteRunStore } from "../../storage/sqlite.js";
import { cliOutput, storesInTempDir } from "../test-support.js";
import { inTempDir } from "../../test-support.js";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { databaseAbove, noDatabaseWarning, ownedRunsHint, recordingProcess, rowsRecorded } from "./recorded-runs.js";
import { THIS_HOST } from "../../storage/run-owner.js";
import type { RunInfo } from "../../run/types.js";
import { hostname } from "node:os";

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

describe("recordingProcess and ownedRunsHint", () => {
  const run = (id: string, process: RunInfo["process"]): RunInfo => ({
    id,
    name: null,
    started_at: "2026-01-01T00:00:00.000Z",
    finished_at: null,
    status: "running",
    dataset_path: "/d.jsonl",
    dataset_hash: "ab",
    evaluators: [],
    summary: null,
    stop_reason: null,
    owner: process === null ? "none" : "process",
    process,
  });

  it("names where the process is: this host (with or without the pid namespace recorded), another container of a host of this name, another host, or none recorded", () => {
    expect(recordingProcess(run("a", { pid: 7, host: THIS_HOST }))).toBe("process 7 on this host");
    expect(recordingProcess(run("a", { pid: 7, host: hostname() }))).toBe("process 7 on this host");
    expect(recordingProcess(run("a", { pid: 7, host: `${hostname()} pid:[1]` }))).toBe(`process 7 in another container on ${hostname()}`);
    expect(recordingProcess(run("a", { pid: 7, host: "ci-5 pid:[1]" }))).toBe("process 7 on host ci-5");
    expect(recordingProcess(run("a", { pid: 7, host: null }))).toBe("process 7 on a host it did not record");
    expect(recordingProcess(run("a", null))).toBeUndefined();
  });

  it("says how to end runs recorded elsewhere, and that runs on this host end with their live processes, naming them when several", () => {
    const elsewhere = run("far", { pid: 1, host: "ci-5" });
    const here = [run("near1", { pid: 11, host: THIS_HOST }), run("near2", { pid: 12, host: THIS_HOST })];
    // Of one run, its commands carry its id; of several, RUN stands for each.
    expect(ownedRunsHint([elsewhere])).toBe(
      "a run whose process was killed on another host or in another container stays recorded as running: `simeval abort far --force` marks it incomplete keeping its rows, `simeval delete far --force` deletes it",
    );
    expect(ownedRunsHint([elsewhere, run("far2", { pid: 2, host: "ci-6" })])).toContain("`simeval abort RUN --force` marks it incomplete keeping its rows, `simeval delete RUN --force` deletes it");
    expect(ownedRunsHint([here[0]!])).toBe("process 11 on this host (recording near1) is alive: the run ends when it does (Ctrl-C there, or `kill 11`, marks it incomplete keeping its rows)");
    // Of one run the message before it named, neither the run nor (when named too) its process is said again.
    expect(ownedRunsHint([here[0]!], "run")).toBe("process 11 on this host is alive: the run ends when it does (Ctrl-C there, or `kill 11`, marks it incomplete keeping its rows)");
    expect(ownedRunsHint([here[0]!], "process")).toBe("that process is alive: the run ends when it does (Ctrl-C there, or `kill 11`, marks it incomplete keeping its rows)");
    // One process recording two runs is named once, with both.
    const twice = [run("w1", { pid: 11, host: THIS_HOST }), run("w2", { pid: 11, host: THIS_HOST })];
    expect(ownedRunsHint(twice)).toBe("process 11 on this host (recording w1, w2) is alive: its runs end when it does (Ctrl-C there, or `kill 11`, marks each incomplete keeping its rows)");
    // `said` is of one run: several are named all the same, the message before them having named none of them alone.
    for (const said of ["run", "process"] as const) expect(ownedRunsHint(twice, said)).toBe(ownedRunsHint(twice));
    const both = ownedRunsHint([elsewhere, ...here]);
    expect(both).toMatch(/^a run whose process was killed on another host .*`simeval abort far --force`/);
    expect(both).toContain("; process 11 on this host (recording near1), process 12 on this host (recording near2) are alive: each run ends when its process does (Ctrl-C there, or `kill PID`, marks each incomplete keeping its rows)");
  });
});

describe("databaseAbove", () => {
  it("names the project's database when a command runs from a subfolder, where the default path finds none", async () => {
    await inTempDir("simeval-db-above-", async (tmp) => {
      const project = realpathSync(tmp);
      const sub = join(project, "evals", "today");
      mkdirSync(sub, { recursive: true });
      writeFileSync(join(project, "d.jsonl"), `{"output": "a", "expected": "a"}\n`);
      writeFileSync(join(project, "e.json"), `{"evaluators": [{"type": "exact_match"}]}`);
      const was = process.cwd();
      try {
        process.chdir(project);
        expect((await cliOutput(["run", "d.jsonl", "--config", "e.json", "--name", "known-good"])).code).toBe(0);
        expect(databaseAbove(".simeval/simeval.db")).toBe(""); // it is here
        process.chdir(sub);
        const hint = `; a run database is at ../../.simeval/simeval.db, in a folder above the working one (where .simeval/simeval.db is looked for): give --db ../../.simeval/simeval.db, or run from ${project}`;
        expect(databaseAbove(".simeval/simeval.db")).toBe(hint);
        expect(databaseAbove(join(sub, ".simeval/simeval.db"))).toBe(""); // an absolute path is meant as given
        expect(databaseAbove("other.db")).toBe("");
        // A folder (not a database file) at the path above is none: nothing is named.
        mkdirSync(join(project, "evals", "folder.db"));
        expect(databaseAbove("folder.db")).toBe("");
        const warning = `simeval: warning: no run database at .simeval/simeval.db (no such file), so there are no runs to show${hint}`;
        expect(await cliOutput(["runs"])).toMatchObject({ code: 0, out: `No runs recorded in .simeval/simeval.db yet${hint}.`, err: warning });
        // With --json, stdout holds [] alone and the hint goes to stderr.
        expect(await cliOutput(["runs", "--json"])).toMatchObject({ code: 0, out: "[]", err: warning });
        expect((await cliOutput(["baseline"])).out).toBe(`no baseline set: there is no run database at .simeval/simeval.db yet${hint}`);
        const show = await cliOutput(["show", "known-good"]);
        expect(show).toMatchObject({ code: 2, err: expect.stringContaining(hint) });
        const gated = await cliOutput(["run", "../../d.jsonl", "--config", "../../e.json", "--baseline", "--fail-on-regression"]);
        expect(gated).toMatchObject({ code: 2, err: `simeval: --fail-on-regression: there is no run database at .simeval/simeval.db, so no baseline to gate on${hint}` });
        expect(existsSync(join(sub, ".simeval"))).toBe(false);
        // A run makes its own database all the same, and says so.
        const second = await cliOutput(["run", "../../d.jsonl", "--config", "../../e.json"]);
        expect(second.code).toBe(0);
        expect(second.err).toContain(`simeval: warning: no run database at .simeval/simeval.db, so this run makes one${hint}`);
        expect(existsSync(join(sub, ".simeval/simeval.db"))).toBe(true);
        expect(databaseAbove(".simeval/simeval.db")).toBe("");
      } finally {
        process.chdir(was);
      }
    });
  });
});

describe("noDatabaseWarning", () => {
  it("runs and trend warn on stderr of a --db where there is no database (no file, or an empty one), listing no runs all the same (exit 0), stdout as before", async () => {
    await inTempDir("simeval-no-db-", async (dir) => {
      const typo = join(dir, "TYPO.db");
      const empty = join(dir, "empty.db");
      writeFileSync(empty, "");
      const warning = {
        [typo]: `no run database at ${typo} (no such file), so there are no runs to show; \`simeval run\` records runs there (--db reads another)`,
        [empty]: `no run database at ${empty} (the file there is empty), so there are no runs to show; \`simeval run\` records runs there (--db reads another)`,
      };
      for (const db of [typo, empty]) {
        expect(noDatabaseWarning(db)).toBe(warning[db]);
        const noneYet = `No runs recorded in ${db} yet: \`simeval run DATASET --config EVALS.json\` records one.`;
        for (const command of ["runs", "trend"]) {
          expect(await cliOutput([command, "--db", db])).toEqual({ code: 0, out: noneYet, err: `simeval: warning: ${warning[db]}` });
        }
        expect(await cliOutput(["runs", "--db", db, "--json"])).toEqual({ code: 0, out: "[]", err: `simeval: warning: ${warning[db]}` });
        // trend --json gives it in its warnings, as it does those it says on stderr; stdout holds the JSON alone.
        const json = await cliOutput(["trend", "--db", db, "--json"]);
        expect(json).toMatchObject({ code: 0, err: `simeval: warning: ${warning[db]}` });
        expect(JSON.parse(json.out)).toEqual({ runs: [], evaluators: [], warnings: [warning[db]], notes: [noneYet], left_out: [] });
        // The report of no runs written over the path asked for says it too.
        const report = join(dir, "t.html");
        expect(await cliOutput(["trend", "--db", db, "--report", report])).toEqual({ code: 0, out: `${noneYet}\nReport: ${report}`, err: `simeval: warning: ${warning[db]}` });
        expect(readFileSync(report, "utf8")).toContain(`no run database at ${db} (`);
      }
      // A path with a line break or an escape sequence in it is said on one line, the escape shown, not obeyed.
      const odd = join(dir, "TYPO\n\u001b[31m.db");
      expect(noDatabaseWarning(odd)).toBe(`no run database at ${join(dir, "TYPO")}\\u000a\\u001b[31m.db (no such file), so there are no runs to show; \`simeval run\` records runs there (--db reads another)`);
      // Nothing is made at the path, nor written into the empty file.
      expect(existsSync(typo)).toBe(false);
      expect(readFileSync(empty, "utf8")).toBe("");
    });
  });
});
