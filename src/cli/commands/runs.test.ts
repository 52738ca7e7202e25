import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EvalError } from "../../errors.js";
import { evalErrorOf } from "../../test-support.js";
import { openSqliteStore, SqliteRunStore } from "../../storage/sqlite.js";
import type { EvaluatorSummary, RunInfo } from "../../run/types.js";
import type { CliIO } from "../io.js";
import { cliOutput, signalOnFirstRowRead } from "../test-support.js";
import Database from "better-sqlite3";
import fc from "fast-check";
import stringWidth from "string-width";
import { deleteCommand, describeUnscored, finishCommand, meansCell, rowsRecorded, shownDatasetPath, unscoredEvaluators } from "./runs.js";

// `killedAfterCommit`: the vacuuming child is killed once its VACUUM has committed (the file vacuumed, its answer not given).
const vacuuming = vi.hoisted(() => ({ killedAfterCommit: false }));
vi.mock("../vacuum.js", async (original) => {
  const real = await original<typeof import("../vacuum.js")>();
  return {
    vacuumInChild: async (path: string, signal: AbortSignal) => {
      if (!vacuuming.killedAfterCommit) return real.vacuumInChild(path, signal);
      const store = openSqliteStore(path);
      await store.vacuum();
      await store.close();
      process.emit("SIGINT");
      return "abandoned" as const;
    },
  };
});

let dir: string;
const opened: SqliteRunStore[] = [];
const open = (): SqliteRunStore => {
  const store = openSqliteStore(join(dir, "simeval.db"));
  opened.push(store);
  return store;
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "simeval-runs-"));
});
afterEach(async () => {
  vacuuming.killedAfterCommit = false;
  for (const s of opened.splice(0)) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

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

describe("deleteCommand interrupted", () => {
  async function finished(store: SqliteRunStore, name: string, rows: number) {
    const id = await store.beginRun({ name, dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
    for (let from = 1; from <= rows; from += 5_000) {
      await store.addRows(id, Array.from({ length: Math.min(5_000, rows - from + 1) }, (_, i) => ({ row: from + i, id: from + i, results: {} })));
    }
    await store.finishRun(id, { rows, row_errors: 0, skipped_as_zero: false, evaluators: [] } as never);
    return id;
  }

  /** The database, holding finished runs of these names and row counts. */
  async function recorded(runs: Record<string, number>): Promise<string> {
    const store = open();
    for (const [name, rows] of Object.entries(runs)) await finished(store, name, rows);
    await store.close();
    return join(dir, "simeval.db");
  }

  /** An io whose lines are kept in `out` and `err`; `onOut` and `onErr` see each line as it comes. */
  function captured(on: { onOut?: (line: string) => void; onErr?: (line: string) => void } = {}) {
    const out: string[] = [];
    const err: string[] = [];
    const io = {
      stdout: (line: string) => (out.push(line), on.onOut?.(line)),
      stderr: (line: string) => (err.push(line), on.onErr?.(line)),
    } as unknown as CliIO;
    return { out, err, io };
  }

  it("stops between runs on Ctrl-C, names what is not deleted, and exits 130", async () => {
    const db = await recorded({ first: 3, second: 3 });
    const { out, err, io } = captured({ onOut: (line) => void (line.startsWith("deleted") && process.emit("SIGINT")) });
    expect(await deleteCommand(["first", "second"], { db, vacuum: true }, io)).toBe(130);
    expect(out.filter((l) => l.startsWith("deleted"))).toEqual([expect.stringContaining("(first): 3 rows")]);
    expect(err).toEqual([expect.stringMatching(/^simeval: interrupted \(SIGINT\); \S+ \(second\) not deleted, the file not vacuumed$/)]);
    expect((await open().listRuns()).map((r) => r.name)).toEqual(["second"]);
    expect(process.listenerCount("SIGINT")).toBe(0);
  });

  it("stopped among a run's rows, does not say that they were all deleted", async () => {
    const db = await recorded({ big: 25_000 });
    const { out, err, io } = captured();
    const emit = setImmediate(() => process.emit("SIGINT")); // heard at the first chunk's end
    expect(await deleteCommand(["big"], { db }, io)).toBe(130);
    clearImmediate(emit);
    expect(out).toEqual([expect.stringMatching(/^deleted \S+ \(big\), but not all of its 25,000 rows \(interrupted\)$/)]);
    expect(err).toEqual([expect.stringMatching(/^simeval: interrupted \(SIGINT\); 15,000 of the rows of deleted runs are still in the file/)]);
  });

  it("--vacuum says on stderr that it vacuums the file, with its size, before it does, and the sizes before and after on stdout", async () => {
    const db = await recorded({ first: 12_000 });
    const said: string[] = [];
    const io = { stdout: (line: string) => void said.push(`out: ${line}`), stderr: (line: string) => void said.push(`err: ${line}`) } as unknown as CliIO;
    expect(await deleteCommand(["first"], { db, vacuum: true }, io)).toBe(0);
    expect(said).toEqual([
      expect.stringMatching(/^out: deleted \S+ \(first\): 12,000 rows$/),
      expect.stringMatching(new RegExp(`^err: vacuuming ${db} \\([\\d.]+ [kM]B\\): the whole file is rewritten; Ctrl-C abandons it, leaving the file as it was$`)),
      expect.stringMatching(new RegExp(`^out: vacuumed ${db}: [\\d.]+ [kM]B -> [\\d.]+ kB$`)),
    ]);
    expect(process.listenerCount("SIGINT")).toBe(0);
  });

  it("Ctrl-C once vacuuming is said abandons it: the file is as it was, the deletion done, exit 130", async () => {
    const db = await recorded({ first: 12_000 });
    let size = 0;
    const { out, err, io } = captured({
      onErr: (line) => {
        if (!line.startsWith("vacuuming")) return;
        size = statSync(db).size;
        process.emit("SIGINT");
      },
    });
    expect(await deleteCommand(["first"], { db, vacuum: true }, io)).toBe(130);
    expect(out).toEqual([expect.stringMatching(/^deleted \S+ \(first\): 12,000 rows$/)]);
    expect(err[1]).toBe(`simeval: interrupted (SIGINT); vacuuming abandoned: ${db} is as it was before vacuuming (the runs above are deleted)`);
    expect(statSync(db).size).toBe(size);
    const reopened = open();
    expect(await reopened.listRuns()).toEqual([]);
    expect(reopened.freeBytes()).toBeGreaterThan(0); // the deleted run's pages, not given back
    expect(process.listenerCount("SIGINT")).toBe(0);
  });

  it("Ctrl-C as vacuuming ended does not say that the file is as it was: it says that it was vacuumed", async () => {
    const db = await recorded({ first: 12_000 });
    const { out, err, io } = captured();
    vacuuming.killedAfterCommit = true;
    expect(await deleteCommand(["first"], { db, vacuum: true }, io)).toBe(130);
    expect(out).toEqual([expect.stringMatching(/^deleted \S+ \(first\): 12,000 rows$/), expect.stringMatching(new RegExp(`^vacuumed ${db}: [\\d.]+ [kM]B -> [\\d.]+ kB$`))]);
    expect(err[1]).toBe("simeval: interrupted (SIGINT); vacuuming had finished when it was stopped");
    expect(process.listenerCount("SIGINT")).toBe(0);
  });
});

describe("runs -n and --dataset", () => {
  /** A database of complete runs, oldest first, each of a name on a dataset file whose sha256 it records. */
  async function recordedOn(runs: [name: string, dataset: string][]): Promise<string> {
    const store = open();
    for (const [name, dataset] of runs) {
      const id = await store.beginRun({ name, dataset_path: dataset, dataset_hash: createHash("sha256").update(readFileSync(dataset)).digest("hex"), evaluators: [{ type: "exact_match" }] });
      await store.finishRun(id, { rows: 0, row_errors: 0, skipped_as_zero: false, evaluators: [] });
    }
    return join(dir, "simeval.db");
  }

  const cli = (...argv: string[]) => cliOutput(argv);

  /** The names of the runs a table lists, newest first. */
  const names = (table: string) => table.split("\n").slice(2).map((line) => line.split(/\s+/)[1]);

  let a: string;
  let b: string;
  let copy: string;
  beforeEach(() => {
    a = join(dir, "a.jsonl");
    b = join(dir, "b.jsonl");
    copy = join(dir, "copy", "a.jsonl");
    writeFileSync(a, '{"output":"x","expected":"x"}\n');
    writeFileSync(b, '{"output":"y","expected":"x"}\n');
    mkdirSync(join(dir, "copy"));
    writeFileSync(copy, readFileSync(a));
  });

  it("keep the runs of that name, and those on that file or its content at another path, in the table and in --json", async () => {
    const db = await recordedOn([["nightly", a], ["adhoc", a], ["nightly", b], ["nightly", copy]]);
    expect(names((await cli("runs", "--db", db, "-n", "nightly")).out)).toEqual(["nightly", "nightly", "nightly"]);
    // A relative path is the file's, as in trend; the copy is kept by its content.
    const onA = await cli("runs", "--db", db, "--dataset", relative(process.cwd(), a));
    expect(onA).toMatchObject({ code: 0, err: "" });
    expect(names(onA.out.split("\n(same content)")[0] ?? "")).toEqual(["nightly", "adhoc", "nightly"]);
    expect(onA.out).not.toContain(b);
    // The copy's run is marked, as trend marks it, and the mark said under the table.
    expect(onA.out).toContain(`${copy} (same content)`);
    expect(onA.out.match(/\(same content\)/g)).toHaveLength(2);
    expect(onA.out).toContain(`(same content): recorded at another path, matched by content: its dataset's sha256 is that of ${a}`);
    const both = JSON.parse((await cli("runs", "--db", db, "--json", "--name=nightly", "--dataset", a)).out) as RunInfo[];
    expect(both.map((r) => [r.name, r.dataset_path])).toEqual([
      ["nightly", copy],
      ["nightly", a],
    ]);
  });

  it("list a dataset under the working folder by its relative path, and one elsewhere as recorded", async () => {
    expect(shownDatasetPath("/work/project/examples/a.jsonl", "/work/project")).toBe("examples/a.jsonl");
    expect(shownDatasetPath("/work/project/..a.jsonl", "/work/project")).toBe("..a.jsonl");
    expect(shownDatasetPath("/work/other/a.jsonl", "/work/project")).toBe("/work/other/a.jsonl");
    expect(shownDatasetPath("/work/project", "/work/project")).toBe("/work/project");
    // Outside the working folder (the test's temporary one): the recorded, absolute path.
    const db = await recordedOn([["nightly", a]]);
    expect((await cli("runs", "--db", db)).out.split("\n")[2]).toContain(` ${a}`);
    // A working folder deleted under the shell (process.cwd() throws): the recorded path, as before relative paths.
    const cwd = vi.spyOn(process, "cwd").mockImplementation(() => {
      throw Object.assign(new Error("ENOENT: no such file or directory, uv_cwd"), { code: "ENOENT" });
    });
    try {
      const gone = await cli("runs", "--db", db);
      expect(gone).toMatchObject({ code: 0, err: "" });
      expect(gone.out.split("\n")[2]).toContain(` ${a}`);
    } finally {
      cwd.mockRestore();
    }
  });

  it("say so when they keep no run, naming the filters, and exit 0; --json gives []", async () => {
    const db = await recordedOn([["nightly", a], ["adhoc", b]]);
    expect(await cli("runs", "--db", db, "-n", "weekly")).toEqual({ code: 0, out: 'No run named "weekly" (2 other runs are recorded; `simeval runs` without -n lists them).', err: "" });
    const gone = join(dir, "gone.jsonl");
    expect((await cli("runs", "--db", db, "-n", "adhoc", "--dataset", gone)).out).toBe(`No run named "adhoc" on ${gone} (2 other runs are recorded; \`simeval runs\` without -n and --dataset lists them).`);
    expect((await cli("runs", "--db", db, "-n", "adhoc", "--dataset", a)).out).toBe(`No run named "adhoc" on ${a} or on a file with its content (2 other runs are recorded; \`simeval runs\` without -n and --dataset lists them).`);
    expect(await cli("runs", "--db", db, "-n", "weekly", "--json")).toEqual({ code: 0, out: "[]", err: "" });
  });

  it("refuse a directory as --dataset, as trend does (exit 2)", async () => {
    const db = await recordedOn([["nightly", a]]);
    const folder = join(dir, "copy");
    for (const command of ["runs", "trend"]) {
      expect(await cli(command, "--db", db, "--dataset", folder)).toEqual({
        code: 2,
        out: "",
        err: `simeval: --dataset ${folder}: is a directory; expected a dataset file (.jsonl, .json or .csv), the path that runs were recorded on`,
      });
    }
  });

  it("--last keeps the newest n runs the filters keep, in the table and in --json", async () => {
    const db = await recordedOn([["nightly", a], ["adhoc", a], ["nightly", b], ["nightly", a], ["adhoc", b]]);
    expect(names((await cli("runs", "--db", db, "--last", "2")).out)).toEqual(["adhoc", "nightly"]);
    expect(names((await cli("runs", "--db", db, "--last", "9")).out)).toEqual(["adhoc", "nightly", "nightly", "adhoc", "nightly"]);
    const json = JSON.parse((await cli("runs", "--db", db, "--json", "-n", "nightly", "--dataset", a, "--last", "1")).out) as RunInfo[];
    const all = await open().listRuns();
    expect(json.map((r) => r.id)).toEqual([all[1]!.id]);
  });

  it("--last refuses what is not a whole number >= 1 (exit 2), before the database is looked at", async () => {
    for (const value of ["0", "two"]) {
      for (const command of ["runs", "trend"]) {
        expect(await cli(command, "--db", join(dir, "none.db"), "--last", value)).toEqual({
          code: 2,
          out: "",
          err: `simeval: --last takes a whole number >= 1 (how many of the newest runs to keep), received ${JSON.stringify(value)}`,
        });
      }
    }
  });

  it("mark the baseline under the table only when the table lists it", async () => {
    const db = await recordedOn([["nightly", a], ["adhoc", b]]);
    await open().setBaseline((await open().findRun("nightly"))!.id);
    expect((await cli("runs", "--db", db)).out).toMatch(/\n\* baseline$/);
    expect((await cli("runs", "--db", db, "-n", "nightly")).out).toMatch(/\n\* baseline$/);
    expect((await cli("runs", "--db", db, "-n", "adhoc")).out).not.toContain("baseline");
  });

  it("mark the baseline's row with * after its id, and `show` says \"(baseline)\" of it alone", async () => {
    const db = await recordedOn([["nightly", a], ["adhoc", b]]);
    const [nightly, adhoc] = [(await open().findRun("nightly"))!.id, (await open().findRun("adhoc"))!.id];
    await open().setBaseline(nightly);
    const rows = (await cli("runs", "--db", db)).out.split("\n").slice(2, 4);
    expect(rows.find((l) => l.includes("nightly"))).toMatch(new RegExp(`^${nightly} \\* +nightly `));
    expect(rows.find((l) => l.includes("adhoc"))).toMatch(new RegExp(`^${adhoc} +adhoc `));
    expect((await cli("show", nightly, "--db", db)).out.split("\n")[0]).toBe(`run      ${nightly} (baseline)`);
    expect((await cli("show", adhoc, "--db", db)).out.split("\n")[0]).toBe(`run      ${adhoc}`);
  });
});

describe("a run not read from a dataset file (null dataset_path and dataset_hash: a service's)", () => {
  const cli = (...argv: string[]) => cliOutput(argv);
  let file: string;
  let db: string;
  let traces: string;
  let onFile: string;
  beforeEach(async () => {
    file = join(dir, "a.jsonl");
    writeFileSync(file, '{"output":"x","expected":"x"}\n');
    const store = open();
    const empty = { rows: 0, row_errors: 0, skipped_as_zero: false, evaluators: [] };
    onFile = await store.beginRun({ name: "nightly", dataset_path: file, dataset_hash: createHash("sha256").update(readFileSync(file)).digest("hex"), evaluators: [{ type: "exact_match" }] });
    await store.finishRun(onFile, empty);
    traces = await store.beginRun({ name: "svc", dataset_path: null, dataset_hash: null, evaluators: [{ type: "exact_match" }] }, { owner: "none" });
    await store.finishRun(traces, empty);
    db = join(dir, "simeval.db");
  });

  it("runs lists it with - as its dataset beside a run on a file, and null in --json", async () => {
    const listed = await cli("runs", "--db", db);
    expect(listed).toMatchObject({ code: 0, err: "" });
    const lines = listed.out.split("\n");
    expect(lines[0]).toMatch(/^id +name +started \(UTC\) +status +rows +dataset +means$/);
    expect(lines[2]).toMatch(new RegExp(`^${traces} +svc +\\S+ \\S+ +complete +0 +- *$`));
    expect(lines[3]).toMatch(new RegExp(`^${onFile} +nightly +\\S+ \\S+ +complete +0 +${file.replace(/[.\\]/g, "\\$&")} *$`));
    const json = JSON.parse((await cli("runs", "--db", db, "--json")).out) as RunInfo[];
    expect(json.map((r) => [r.name, r.dataset_path, r.dataset_hash])).toEqual([
      ["svc", null, null],
      ["nightly", file, expect.stringMatching(/^[0-9a-f]{64}$/)],
    ]);
  });

  it("runs --dataset never keeps it, by path or by content", async () => {
    const json = JSON.parse((await cli("runs", "--db", db, "--json", "--dataset", file)).out) as RunInfo[];
    expect(json.map((r) => r.name)).toEqual(["nightly"]);
    // A file whose sha256 no run recorded, at a path none recorded either: nothing kept, the null one neither.
    const other = join(dir, "b.jsonl");
    writeFileSync(other, "{}\n");
    expect(JSON.parse((await cli("runs", "--db", db, "--json", "--dataset", other)).out)).toEqual([]);
  });

  it("show says it read no dataset file, and --json gives null; a run on a file is shown as before", async () => {
    const shown = await cli("show", "svc", "--db", db);
    expect(shown).toMatchObject({ code: 0, err: "" });
    expect(shown.out.split("\n")[5]).toBe("dataset  none (not read from a dataset file)");
    expect(JSON.parse((await cli("show", "svc", "--db", db, "--json")).out)).toMatchObject({ id: traces, dataset_path: null, dataset_hash: null });
    const hash = createHash("sha256").update(readFileSync(file)).digest("hex");
    expect((await cli("show", "nightly", "--db", db)).out.split("\n")[5]).toBe(`dataset  ${file} (sha256 ${hash})`);
  });
});

describe("runs' means", () => {
  it("lists the means that fit in the room, in order, then how many more; all of them when they fit", () => {
    const mean = fc.tuple(fc.oneof(fc.stringMatching(/^[a-z_ ]{1,30}$/), fc.constantFrom("中文", "👍🏽 ok")), fc.constantFrom("0.5", "1", "26.2517")).map(([n, m]) => `${n}=${m}`);
    fc.assert(
      fc.property(fc.array(mean, { maxLength: 12 }), fc.integer({ min: 0, max: 200 }), (means, room) => {
        const cell = meansCell(means, room);
        if (stringWidth(means.join(" ")) <= room) {
          expect(cell).toBe(means.join(" "));
          return;
        }
        const cut = cell.match(/^(.*) \+(\d+) more$/);
        if (!cut) {
          expect(cell).toBe(`${means.length} evaluators`);
          return;
        }
        const shown = means.length - Number(cut[2]);
        expect(shown).toBeGreaterThan(0);
        expect(cut[1]).toBe(means.slice(0, shown).join(" "));
        expect(stringWidth(cell)).toBeLessThanOrEqual(room);
        // One more would not have fitted.
        expect(stringWidth(`${means.slice(0, shown + 1).join(" ")} +${means.length - shown - 1} more`)).toBeGreaterThan(room);
      }),
    );
  });

  it("counts a cell that fills the room exactly as fitting", () => {
    // "a=1 b=2" is 7 columns: it fits in 7, and in 6 not even "a=1 +1 more" (11) does.
    expect(meansCell(["a=1", "b=2"], 7)).toBe("a=1 b=2");
    expect(meansCell(["a=1", "b=2"], 6)).toBe("2 evaluators");
    // Of five: "a=1 +4 more" is 11 columns, "a=1 b=2 +3 more" 15, "a=1 b=2 c=3 +2 more" 19, all five 19.
    const five = ["a=1", "b=2", "c=3", "d=4", "e=5"];
    expect(meansCell(five, 10)).toBe("5 evaluators");
    expect(meansCell(five, 11)).toBe("a=1 +4 more");
    expect(meansCell(five, 14)).toBe("a=1 +4 more");
    expect(meansCell(five, 15)).toBe("a=1 b=2 +3 more");
    expect(meansCell(five, 19)).toBe("a=1 b=2 c=3 d=4 e=5");
  });

  it("fit the terminal's width in the table (160 columns when stdout is not one)", async () => {
    const store = open();
    const evaluators = Array.from({ length: 12 }, (_, i) => ({ name: `answer_quality_${i}`, mean: i / 10 }));
    const id = await store.beginRun({ name: "wide", dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: evaluators.map((e) => ({ type: "exact_match", name: e.name })) });
    const summary = (e: (typeof evaluators)[number]) => ({ name: e.name, type: "exact_match", direction: "maximize" as const, threshold: null, n: 1, skipped: 0, errors: 0, mean: e.mean, median: e.mean, p10: e.mean, p90: e.mean, min: e.mean, max: e.mean, pass_rate: null, verdicts: 0 });
    await store.finishRun(id, { rows: 1, row_errors: 0, skipped_as_zero: false, evaluators: evaluators.map(summary) });
    const db = join(dir, "simeval.db");
    for (const columns of [undefined, 120]) {
      const { code, out } = await cliOutput(["runs", "--db", db], columns);
      expect(code).toBe(0);
      const line = out.split("\n")[2] as string;
      expect(line.length).toBeLessThanOrEqual(columns ?? 160);
      expect(line, line).toMatch(/ answer_quality_0=0( answer_quality_\d+=\S+)* \+\d+ more$/);
    }
  });
});

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

describe("deleteCommand", () => {
  const io = () => {
    const out: string[] = [];
    return { out, io: { stdout: (line: string) => void out.push(line), stderr: () => undefined } as unknown as CliIO };
  };

  it("takes an id prefix of 4 characters or more, refuses one of 3 (nothing deleted), and says \"1 row\"", async () => {
    const store = open();
    const id = await store.beginRun({ name: null, dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
    await store.addRows(id, [{ row: 1, id: 1, results: {} }]);
    await store.finishRun(id, { rows: 1, row_errors: 0, skipped_as_zero: false, evaluators: [] } as never);
    const db = join(dir, "simeval.db");
    const short = await evalErrorOf(deleteCommand([id.slice(0, 3)], { db }, io().io));
    expect(short.code).toBe("USAGE");
    expect(short.message).toContain("give at least 4 characters of the id");
    const { out, io: ok } = io();
    expect(await deleteCommand([id.slice(0, 4)], { db }, ok)).toBe(0);
    expect(out[0]).toBe(`deleted ${id}: 1 row`);
    expect(await store.listRuns()).toEqual([]);
  });

  it("says how much free space the deletion left only when there is some: a small run's pages stay in use, a large run's are freed", async () => {
    const store = open();
    const record = async (name: string, rows: number) => {
      const id = await store.beginRun({ name, dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
      for (let from = 1; from <= rows; from += 5_000) {
        await store.addRows(id, Array.from({ length: Math.min(5_000, rows - from + 1) }, (_, i) => ({ row: from + i, id: from + i, results: {} })));
      }
      await store.finishRun(id, { rows, row_errors: 0, skipped_as_zero: false, evaluators: [] } as never);
      return id;
    };
    const small = await record("small", 3);
    await record("kept", 3);
    const db = join(dir, "simeval.db");
    // The 3 rows shared their pages with the kept run's: no page is freed, and no "0 B of free space" is said.
    const none = io();
    expect(await deleteCommand(["small"], { db }, none.io)).toBe(0);
    expect(store.freeBytes()).toBe(0);
    expect(none.out).toEqual([`deleted ${small} (small): 3 rows`]);
    const large = await record("large", 12_000);
    const some = io();
    expect(await deleteCommand(["large"], { db }, some.io)).toBe(0);
    expect(store.freeBytes()).toBeGreaterThan(0);
    expect(some.out).toEqual([`deleted ${large} (large): 12,000 rows`, expect.stringMatching(new RegExp(`^[\\d.]+ [kM]B of ${db} is free space that new runs reuse; \`simeval delete --vacuum\` gives it back to the file system$`))]);
  });

  it("refusing a running run that no process owns, does not send the user looking for a killed process", async () => {
    const store = open();
    const id = await store.beginRun({ name: "svc", dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] }, { owner: "none" });
    const e = await evalErrorOf(deleteCommand(["svc"], { db: join(dir, "simeval.db") }, io().io));
    expect(e.message).toContain(`run ${id} (svc) is still being recorded; finish or abort it before deleting it (nothing was deleted); ${id} (svc) is owned by no process`);
    expect(e.message).not.toContain("killed on another host");
  });

  it("--vacuum refuses while one run is being recorded, saying \"is\" and \"it has\" of one", async () => {
    const store = open();
    const id = await store.beginRun({ name: "live", dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
    const e = await evalErrorOf(deleteCommand([], { db: join(dir, "simeval.db"), vacuum: true }, io().io));
    expect(e.code).toBe("USAGE");
    expect(e.message).toMatch(new RegExp(`^--vacuum: ${id} \\(live\\) is still being recorded, .*; vacuum once it has finished \\(nothing was deleted\\)`));
  });
});

describe("showCommand", () => {
  it("says why a run has no summary: still being recorded, or it did not finish, with the rows it has stored", async () => {
    const store = open();
    const running = await store.beginRun({ name: "live", dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
    await store.addRows(running, [1, 2].map((row) => ({ row, id: row, results: {} })));
    const db = join(dir, "simeval.db");
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

  it("prints a service's evaluators with their config's defaults, as it prints a run of `simeval run`, where it printed the config as given ({})", async () => {
    const store = open();
    await store.beginRun({ name: "svc", dataset_path: null, dataset_hash: null, evaluators: [{ type: "exact_match" }, { name: "lev", type: "levenshtein", config: { threshold: 0.9 } }] }, { owner: "none" });
    const out = (await cliOutput(["show", "svc", "--db", join(dir, "simeval.db")])).out;
    expect(out).toMatch(/^exact_match +exact_match +\{"case_sensitive":false,"trim":true,"normalize_whitespace":false\}$/m);
    expect(out).toMatch(/^lev +levenshtein +\{"threshold":0\.9,"case_sensitive":false,"max_chars":10000,"unit":"code_point"\}$/m);
  });
});

describe("show: when the rows were stored, and whether they kept their records", () => {
  const db = () => join(dir, "simeval.db");
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
    const data = join(dir, "a.jsonl");
    writeFileSync(data, ['{"output":"a","expected":"a"}', '{"output":"b","expected":"c"}'].join("\n") + "\n");
    writeFileSync(join(dir, "evals.json"), JSON.stringify({ evaluators: [{ type: "exact_match" }] }));
    const ran = await cliOutput(["run", data, "--config", join(dir, "evals.json"), "--db", db(), "--name", "cli", "--workers", "0"]);
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
  const db = () => join(dir, "simeval.db");

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

  it("refuse a running run that a process owns: that process finishes it, once gone leaves it incomplete, and one on another host is deleted with --force", async () => {
    const store = open();
    const id = await store.beginRun({ name: "live", dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
    for (const command of ["finish", "abort"]) {
      const refused = await cliOutput([command, "live", "--db", db()]);
      expect(refused.code).toBe(2);
      expect(refused.err).toBe(
        `simeval: ${command}: run ${id} (live) is being recorded by the process that began it (as \`simeval run\` records its runs), which finishes it; \`simeval ${command}\` ends only a run that no process owns (begun with owner "none", as a service begins its runs), so the run is unchanged. Once that process is gone, \`simeval runs\` lists the run incomplete; a run whose process was killed on another host or in another container stays recorded as running: \`simeval delete RUN --force\` deletes it`,
      );
    }
    expect((await store.findRun(id))!.status).toBe("running");
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
