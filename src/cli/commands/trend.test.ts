import fc from "fast-check";
import { createHash } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { openSqliteStore } from "../../storage/sqlite.js";
import type { EvaluatorSpec } from "../../evaluators/spec.js";
import type { EvaluatorSummary, RunInfo } from "../../run/types.js";
import { cliOutput, expectReportWrittenWholeOnSignal } from "../test-support.js";
import { inTempDir } from "../../test-support.js";
import { datasetCount, datasetLabels, leftOutNote, seriesWarnings, trendSeries, type TrendJson } from "./trend.js";
import { formatFigure } from "../format.js";
import { NO_ROW_SCORED } from "../../report/trend-report.js";
import { escapeHtml } from "../../report/escape.js";

function summary(name: string, type: string, mean: number): EvaluatorSummary {
  return { name, type, direction: "maximize", threshold: null, n: 1, skipped: 0, errors: 0, mean, median: mean, p10: mean, p90: mean, min: mean, max: mean, pass_rate: null, verdicts: 0 };
}

function run(id: string, evaluators: [EvaluatorSpec, number][]): RunInfo {
  return {
    id,
    name: id,
    started_at: "2026-01-01T00:00:00.000Z",
    finished_at: null,
    status: "complete",
    dataset_path: "/d.jsonl",
    dataset_hash: "ab",
    evaluators: evaluators.map(([spec]) => spec),
    summary: { rows: 1, row_errors: 0, skipped_as_zero: false, evaluators: evaluators.map(([s, mean]) => summary(s.name ?? s.type, s.type, mean)) },
    stop_reason: null,
    owner: "process",
    process: { pid: 1, host: "test-host" },
  };
}

/** Runs `body` with a database path in a temporary folder of its own (also given), removed afterwards. */
function inTempDb(prefix: string, body: (db: string, dir: string) => Promise<void>): Promise<void> {
  return inTempDir(prefix, (dir) => body(join(dir, "simeval.db"), dir));
}

/** One dataset file at `dir/a.jsonl` and a copy at `dir/moved/a.jsonl` (a folder moved or copied), and the sha256 of both. */
function oneDatasetAtTwoPaths(dir: string): { a: string; moved: string; sha: string } {
  const [a, moved] = [join(dir, "a.jsonl"), join(dir, "moved", "a.jsonl")];
  mkdirSync(join(dir, "moved"));
  for (const f of [a, moved]) writeFileSync(f, '{"output":"x","expected":"x"}\n');
  return { a, moved, sha: createHash("sha256").update(readFileSync(a)).digest("hex") };
}

/** `simeval trend --db DB ...argv` in this process: its exit code and what it printed on stdout. */
function trendOut(db: string, argv: readonly string[] = [], columns?: number): Promise<{ code: number; out: string }> {
  return cliOutput(["trend", "--db", db, ...argv], columns);
}

describe("trend series", () => {
  it("keeps a name given to two evaluator types apart, titled with the type, and warns", () => {
    const runs = [run("a", [[{ type: "tfidf_similarity" }, 0.9], [{ type: "levenshtein" }, 0.8]]), run("b", [[{ type: "exact_match", name: "tfidf_similarity" }, 0.6]])];
    const series = trendSeries(runs);
    expect(series.map((s) => [s.title, s.summaries.map((x) => x?.mean ?? null)])).toEqual([
      ["tfidf_similarity (tfidf_similarity)", [0.9, null]],
      ["levenshtein", [0.8, null]],
      ["tfidf_similarity (exact_match)", [null, 0.6]],
    ]);
    expect(seriesWarnings(runs, series)).toEqual(["tfidf_similarity names different evaluators in these runs (tfidf_similarity, exact_match): each has a column of its own"]);
  });

  it("gives a name that reads as another's title its type too, so that every title (a key of trend --json's means) names one series", () => {
    const runs = [
      run("a", [[{ type: "levenshtein", name: "x" }, 0.9], [{ type: "exact_match", name: "x (levenshtein)" }, 0.5]]),
      run("b", [[{ type: "jaccard_similarity", name: "x" }, 0.7]]),
    ];
    const titles = trendSeries(runs).map((s) => s.title);
    expect(titles).toEqual(["x (levenshtein)", "x (levenshtein) (exact_match)", "x (jaccard_similarity)"]);
    expect(new Set(titles).size).toBe(titles.length);
  });

  it("types a title again when typing it made it another's name, whichever series comes first", () => {
    // `x (levenshtein)` typed is `x (levenshtein) (exact_match)`, the name of a series that came before it, which gets its type too.
    const runs = [
      run("a", [[{ type: "jaccard_similarity", name: "x (levenshtein) (exact_match)" }, 0.1], [{ type: "levenshtein", name: "x" }, 0.9], [{ type: "exact_match", name: "x (levenshtein)" }, 0.5]]),
      run("b", [[{ type: "tfidf_similarity", name: "x" }, 0.7]]),
    ];
    expect(trendSeries(runs).map((s) => s.title)).toEqual([
      "x (levenshtein) (exact_match) (jaccard_similarity)",
      "x (levenshtein)",
      "x (levenshtein) (exact_match)",
      "x (tfidf_similarity)",
    ]);
    // In the other order too.
    const titles = trendSeries([...runs].reverse().map((r) => ({ ...r, summary: { ...r.summary!, evaluators: [...r.summary!.evaluators].reverse() } }))).map((s) => s.title);
    expect(new Set(titles).size).toBe(4);
  });

  it("warns when config or inputs that change scores differ between the runs, not for the threshold alone", () => {
    const lev = (config: Record<string, unknown>, inputs?: Record<string, string>): EvaluatorSpec => ({ type: "levenshtein", config, ...(inputs ? { inputs } : {}) });
    const thresholdOnly = [run("a", [[lev({ threshold: 0.8 }), 0.9]]), run("b", [[lev({ threshold: 0.5 }), 0.9]])];
    expect(seriesWarnings(thresholdOnly, trendSeries(thresholdOnly))).toEqual([]);
    const changed = [run("a", [[lev({}), 0.9]]), run("b", [[lev({}), 0.9]]), run("c", [[lev({ case_sensitive: true }, { output: "$.x" }), 0.7]])];
    expect(seriesWarnings(changed, trendSeries(changed))).toEqual([
      "levenshtein: its case_sensitive, inputs.output differ between these runs, so its means may differ because of that; `simeval compare` names the values",
    ]);
    const one = [run("a", [[lev({}), 0.9]]), run("b", [[lev({ case_sensitive: true }), 0.7]])];
    expect(seriesWarnings(one, trendSeries(one))).toEqual([
      "levenshtein: its case_sensitive differs between these runs, so its means may differ because of that; `simeval compare` names the values",
    ]);
  });

  it("warns when some runs counted skipped rows as 0 and others did not", () => {
    const lev: EvaluatorSpec = { type: "levenshtein" };
    const zero = run("b", [[lev, 0.7]]);
    zero.summary = { ...zero.summary!, skipped_as_zero: true };
    const runs = [run("a", [[lev, 0.9]]), zero];
    expect(seriesWarnings(runs, trendSeries(runs))).toEqual([
      "1 of these 2 runs counted skipped rows as 0 (--count-skipped-as-zero) and the other left them out, so their means may differ because of that, not the outputs",
    ]);
    const three = [...runs, run("c", [[lev, 0.9]])];
    expect(seriesWarnings(three, trendSeries(three))).toEqual([
      "1 of these 3 runs counted skipped rows as 0 (--count-skipped-as-zero) and the others left them out, so their means may differ because of that, not the outputs",
    ]);
    const alike = [zero, zero];
    expect(seriesWarnings(alike, trendSeries(alike))).toEqual([]);
  });

  it("names datasets by file name, or by whole path when two of them share a file name", () => {
    const labels = datasetLabels(["/old/a.jsonl", "/data/b.jsonl", "/new/a.jsonl", "/old/a.jsonl"]);
    expect([...labels]).toEqual([
      ["/old/a.jsonl", "/old/a.jsonl"],
      ["/data/b.jsonl", "b.jsonl"],
      ["/new/a.jsonl", "/new/a.jsonl"],
    ]);
  });

  it("names the runs left out as not complete, incomplete and still running apart, in the order given (oldest first), the newest 5 of each", () => {
    const as = (id: string, status: RunInfo["status"]): RunInfo => ({ ...run(id, []), status, summary: null });
    expect(leftOutNote([])).toBeNull();
    expect(leftOutNote([as("cut", "incomplete")])).toBe("left out: 1 incomplete run (cut); trend shows complete runs only (`simeval show RUN` prints one)");
    const many = [as("live", "running"), ...["a", "b", "c", "d", "e", "f", "g"].map((id) => as(id, "incomplete"))];
    expect(leftOutNote(many)).toBe("left out: 7 incomplete runs (2 older, then c, d, e, f, g) and 1 run still being recorded (live); trend shows complete runs only (`simeval show RUN` prints one)");
    expect(leftOutNote(["x", "y"].map((id) => as(id, "running")))).toBe("left out: 2 runs still being recorded (x, y); trend shows complete runs only (`simeval show RUN` prints one)");
  });
});

describe("trend --report interrupted", () => {
  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)("%s while the report is written lets it be finished, leaves no temporary file beside it, says so, and exits %i", async (signal, exit) => {
    await inTempDb("simeval-trend-stop-", async (db, dir) => {
      const report = join(dir, "trend.html");
      const store = openSqliteStore(db);
      for (const mean of [0.5, 0.75]) {
        const id = await store.beginRun({ name: "r", dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
        await store.finishRun(id, run(id, [[{ type: "exact_match" }, mean]]).summary!);
      }
      await store.close();
      // With no listener, Node's default action stopped the process mid-write, the temporary file half written.
      expectReportWrittenWholeOnSignal({
        signal,
        exit,
        moduleUrl: new URL("./trend.ts", import.meta.url),
        command: "trendCommand",
        call: `trendCommand({ db: process.argv[1], report: process.argv[2] }, io)`,
        db,
        report,
      });
    });
  });
});

describe("trend --last", () => {
  it("shows the newest n complete runs the filters keep, oldest first, and names only the runs left out since the oldest shown", async () => {
    await inTempDb("simeval-trend-last-", async (db) => {
      const store = openSqliteStore(db);
      const record = async (name: string, mean: number | null) => {
        const id = await store.beginRun({ name, dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
        if (mean === null) await store.abortRun(id, null, "interrupted (SIGINT)");
        else await store.finishRun(id, run(id, [[{ type: "exact_match" }, mean]]).summary!);
      };
      await record("cut-early", null);
      for (const [i, mean] of [0.1, 0.2, 0.3].entries()) await record(`n${i + 1}`, mean);
      await record("cut-late", null);
      await record("n4", 0.4);
      await record("other", 0.9);
      await store.close();
      const shown = (out: string) => out.split("\n").slice(2).filter((l) => /^#\d+\s+\S+\s+\d{4}-/.test(l)).map((l) => l.split(/\s+/)[1]);
      const three = await trendOut(db, ["--last", "3"]);
      expect(three.code).toBe(0);
      expect(shown(three.out)).toEqual(["n3", "n4", "other"]);
      expect(three.out).toContain("left out: 1 incomplete run (cut-late);");
      expect(three.out).not.toContain("cut-early");
      // Without --last cutting any complete run off, every run left out is named, as before.
      const nine = await trendOut(db, ["--last", "9"]);
      expect(nine.code).toBe(0);
      expect(shown(nine.out)).toEqual(["n1", "n2", "n3", "n4", "other"]);
      expect(nine.out).toContain("left out: 2 incomplete runs (cut-early, cut-late);");
    });
  });
});

describe("trend's table on a wide config", () => {
  it("goes on in further tables, each naming the runs, past the terminal's width (160 columns when stdout is not a terminal)", async () => {
    await inTempDb("simeval-trend-wide-", async (db) => {
      const specs: EvaluatorSpec[] = Array.from({ length: 12 }, (_, i) => ({ type: "exact_match", name: `answer_matches_reference_${i}` }));
      const store = openSqliteStore(db);
      for (const name of ["first", "second"]) {
        const id = await store.beginRun({ name, dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: specs });
        await store.finishRun(id, run(id, specs.map((s, i) => [s, i / 10])).summary!);
      }
      await store.close();
      const trend = async (columns?: number) => {
        const { code, out } = await trendOut(db, [], columns);
        expect(code).toBe(0);
        return out.trimEnd().split("\n\n");
      };
      for (const [columns, width] of [[undefined, 160], [80, 80], [400, 400]] as const) {
        const tables = await trend(columns);
        const heads = tables.map((t) => t.split("\n")[0] as string);
        // Every evaluator once, in order, beside the runs' names and times in each table.
        expect(heads.flatMap((h) => h.split(/\s{2,}/).slice(3)).filter((c) => c !== "dataset")).toEqual(specs.map((s) => s.name));
        for (const t of tables) {
          expect(t.split("\n").slice(2).map((l) => l.split(/\s+/).slice(0, 2).join(" "))).toEqual(["#1 first", "#2 second"]);
          expect(Math.max(...t.split("\n").map((l) => l.length))).toBeLessThanOrEqual(width);
        }
        expect(tables.length > 1).toBe(width < 400);
      }
      // A terminal that does not say its width (0 columns in some containers) is read as a pipe, not as one
      // column wide: each evaluator alone in a table of its own.
      expect(await trend(0)).toEqual(await trend(undefined));
    });
  });
});

describe("trend --report", () => {
  it("draws each series with its latest run's threshold and direction, and says which runs it left out", async () => {
    await inTempDb("simeval-trend-report-", async (db, dir) => {
      const store = openSqliteStore(db);
      const record = async (name: string, threshold: number | null, direction: "maximize" | "minimize") => {
        const id = await store.beginRun({ name, dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "levenshtein", name: "lev" }] });
        if (threshold === null) return store.abortRun(id, null, "interrupted (SIGINT)");
        const s = run(id, [[{ type: "levenshtein", name: "lev" }, 0.5]]).summary!;
        await store.finishRun(id, { ...s, evaluators: s.evaluators.map((e) => ({ ...e, threshold, direction })) });
      };
      await record("old", 0.25, "minimize");
      await record("cut", null, "maximize");
      await record("new", 0.75, "maximize");
      await store.close();
      const report = join(dir, "trend.html");
      expect((await trendOut(db, ["--report", report])).code).toBe(0);
      const html = readFileSync(report, "utf8");
      expect(html).toContain("threshold 0.75");
      expect(html).not.toContain("threshold 0.25");
      expect(html).toContain("left out: 1 incomplete run (cut);");
    });
  });

  it("refuses a --report path that is the database (exit 2), writing nothing over it", async () => {
    await inTempDb("simeval-trend-report-db-", async (db) => {
      const store = openSqliteStore(db);
      const id = await store.beginRun({ name: "one", dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
      await store.finishRun(id, run(id, [[{ type: "exact_match" }, 1]]).summary!);
      await store.close();
      const before = readFileSync(db);
      const refused = await cliOutput(["trend", "--db", db, "--report", db]);
      expect(refused).toMatchObject({ code: 2, out: "", err: `simeval: --report ${db} is the same file as --db (an input, which writing would destroy); give each output a file of its own` });
      expect(readFileSync(db).equals(before)).toBe(true);
    });
  });

  it("does not warn of several datasets when --dataset kept the runs, on its file or its content at another path", async () => {
    await inTempDb("simeval-trend-moved-", async (db, dir) => {
      const { a, moved, sha } = oneDatasetAtTwoPaths(dir);
      const store = openSqliteStore(db);
      for (const [name, path] of [["here", a], ["there", moved]] as const) {
        const id = await store.beginRun({ name, dataset_path: path, dataset_hash: sha, evaluators: [{ type: "exact_match" }] });
        await store.finishRun(id, run(id, [[{ type: "exact_match" }, 1]]).summary!);
      }
      await store.close();
      const kept = await cliOutput(["trend", "--db", db, "--dataset", a]);
      expect(kept.code).toBe(0);
      expect(kept.out).toContain("matched by content");
      expect(kept.err).not.toContain("datasets");
      // Without --dataset too, one content at two paths is one dataset (a runner whose checkout path changes), not warned of.
      const all = await cliOutput(["trend", "--db", db]);
      expect(all.out).toMatch(/here[\s\S]*there/);
      expect(all.err).not.toContain("datasets");
    });
  });
});

describe("trend with runs not read from a dataset file (null dataset_path and dataset_hash: a service's)", () => {
  /** A database of complete runs of exact_match, oldest first: each a name, a dataset file (null: none) and a mean. */
  async function recorded(db: string, runs: [name: string, path: string | null, mean: number][]): Promise<void> {
    const store = openSqliteStore(db);
    try {
      for (const [name, path, mean] of runs) {
        const hash = path === null ? null : createHash("sha256").update(readFileSync(path)).digest("hex");
        const id = await store.beginRun({ name, dataset_path: path, dataset_hash: hash, evaluators: [{ type: "exact_match" }] }, { owner: path === null ? "none" : "process" });
        await store.finishRun(id, run(id, [[{ type: "exact_match" }, mean]]).summary!);
      }
    } finally {
      await store.close();
    }
  }
  /** The table's rows: run, dataset and mean cells. */
  const cells = (out: string) =>
    out
      .split("\n")
      .slice(2)
      .filter((l) => /^#\d+\s+\S+\s+\d{4}-/.test(l))
      .map((l) => l.split(/\s{2,}/))
      .map(([, name, , dataset, mean]) => [name, dataset, mean]);

  it("shows them with - as their dataset, counted together as one more dataset in the warning, in the table and the report", async () => {
    await inTempDb("simeval-trend-traces-", async (db, dir) => {
      const file = join(dir, "a.jsonl");
      writeFileSync(file, '{"output":"x","expected":"x"}\n');
      await recorded(db, [["nightly", file, 0.5], ["svc1", null, 0.75], ["svc2", null, 1]]);
      const report = join(dir, "trend.html");
      const all = await cliOutput(["trend", "--db", db, "--report", report]);
      expect(all.code).toBe(0);
      expect(cells(all.out)).toEqual([
        ["nightly", "a.jsonl", "0.5000"],
        ["svc1", "-", "0.7500"],
        ["svc2", "-", "1"],
      ]);
      expect(all.err).toBe(
        "simeval: warning: these runs are on 2 datasets (counting the runs not read from a dataset file as one), whose means need not be comparable; --dataset PATH keeps the runs on one",
      );
      const html = readFileSync(report, "utf8");
      expect(html.match(/<td class="name left path" data-label="Dataset">-<\/td>/g)).toHaveLength(2);
      // The report names a run's dataset file by its whole path, where the table gives its file name.
      expect(html.replaceAll("<wbr>", "")).toContain(`<td class="name left path" data-label="Dataset">${file}</td>`);
      expect(html).toContain("counting the runs not read from a dataset file as one");
      expect(html).not.toContain(">null<");
      // --dataset keeps the run on the file only; runs of traces alone are one dataset: no warning.
      const onFile = await cliOutput(["trend", "--db", db, "--dataset", file]);
      expect(cells(onFile.out)).toEqual([["nightly", "a.jsonl", "0.5000"]]);
      expect(onFile.err).toBe("");
      const last = await cliOutput(["trend", "--db", db, "--last", "2"]);
      expect(cells(last.out)).toEqual([
        ["svc1", "-", "0.7500"],
        ["svc2", "-", "1"],
      ]);
      expect(last.err).toBe("");
    });
  });
});

describe("trend --json", () => {
  /** The text's table rows, each split into its cells: run, start time, dataset, then a mean per evaluator. */
  const tableRows = (out: string) =>
    out
      .split("\n")
      .slice(2)
      .filter((l) => /^#\d+\s+\S+\s+\d{4}-/.test(l))
      .map((l) => l.split(/\s{2,}/).slice(1));

  it("gives the runs in the text's order with each evaluator's full-precision mean, null where a run lacks it, and what the text says beside", async () => {
    await inTempDb("simeval-trend-json-", async (db, dir) => {
      const file = join(dir, "a.jsonl");
      writeFileSync(file, '{"output":"x","expected":"x"}\n');
      const sha = createHash("sha256").update(readFileSync(file)).digest("hex");
      const store = openSqliteStore(db);
      const em: EvaluatorSpec = { type: "exact_match" };
      const lev: EvaluatorSpec = { type: "levenshtein", config: { threshold: 0.8 } };
      const record = async (name: string, path: string | null, means: [EvaluatorSpec, number | null][] | null) => {
        const id = await store.beginRun({ name, dataset_path: path, dataset_hash: path === null ? null : sha, evaluators: means?.map(([s]) => s) ?? [em] }, { owner: path === null ? "none" : "process" });
        if (means === null) return store.abortRun(id, null, "interrupted (SIGINT)");
        const s = run(id, means.map(([spec, mean]) => [spec, mean ?? 0])).summary!;
        await store.finishRun(id, { ...s, evaluators: s.evaluators.map((e, i) => ({ ...e, mean: means[i]![1], threshold: e.type === "levenshtein" ? 0.8 : null })) });
      };
      await record("first", file, [[em, 1 / 3], [lev, 0.123456789]]);
      await record("cut", file, null);
      await record("svc", null, [[em, 2 / 3]]);
      await record("unscored", file, [[em, 0.5], [lev, null]]);
      await store.close();

      const text = await cliOutput(["trend", "--db", db]);
      const json = await cliOutput(["trend", "--db", db, "--json"]);
      expect([text.code, json.code]).toEqual([0, 0]);
      const t = JSON.parse(json.out) as TrendJson;
      expect(Object.keys(t)).toEqual(["runs", "evaluators", "warnings", "notes", "left_out"]);
      const rows = tableRows(text.out);
      expect(t.runs.map((r) => r.name)).toEqual(rows.map((r) => r[0]));
      const titles = t.evaluators.map((e) => e.title);
      expect(text.out.split("\n")[0]!.split(/\s{2,}/).slice(4)).toEqual(titles);
      t.runs.forEach((r, i) => {
        expect(Object.keys(r.means)).toEqual(titles);
        const cell = (title: string) => (r.unscored.includes(title) ? NO_ROW_SCORED : formatFigure(r.means[title] ?? null));
        expect(rows[i]!.slice(3)).toEqual(titles.map(cell));
      });
      expect(t.runs[0]!.means).toEqual({ exact_match: 1 / 3, levenshtein: 0.123456789 });
      expect(t.runs[1]).toMatchObject({ name: "svc", dataset_path: null, dataset_hash: null, means: { exact_match: 2 / 3, levenshtein: null }, unscored: [] });
      expect(t.runs[2]).toMatchObject({ name: "unscored", dataset_path: file, dataset_hash: sha, means: { levenshtein: null }, unscored: ["levenshtein"] });
      expect(t.evaluators).toEqual([
        { title: "exact_match", name: "exact_match", type: "exact_match", direction: "maximize", threshold: null },
        { title: "levenshtein", name: "levenshtein", type: "levenshtein", direction: "maximize", threshold: 0.8 },
      ]);
      // The warnings the text gives on stderr, also on stderr with --json; the notes the text prints under its table.
      expect(t.warnings.length).toBeGreaterThan(0);
      expect(t.warnings.map((w) => `simeval: warning: ${w}`).join("\n")).toBe(text.err);
      expect(json.err).toBe(text.err);
      expect(t.warnings[0]).toContain("these runs are on 2 datasets");
      expect(t.notes).toEqual(text.out.split("\n").filter((l) => l.startsWith("left out: ")));
      expect(t.left_out).toEqual([{ id: expect.any(String), name: "cut", status: "incomplete", started_at: expect.any(String) }]);
      // --report is written beside it, "Report: PATH" on stderr.
      const report = join(dir, "trend.html");
      const both = await cliOutput(["trend", "--db", db, "--json", "--report", report]);
      expect(JSON.parse(both.out)).toEqual(t);
      expect(both.err.split("\n").at(-1)).toBe(`Report: ${report}`);
      expect(readFileSync(report, "utf8")).toMatch(/<\/html>\s*$/);
    });
  });

  it("marks the runs --dataset matched by content, gives both notes in the text's order, each left-out run's status, and a series' setting from the latest run that has it", async () => {
    await inTempDb("simeval-trend-json-notes-", async (db, dir) => {
      const { a, moved, sha } = oneDatasetAtTwoPaths(dir);
      const store = openSqliteStore(db);
      const em: EvaluatorSpec = { type: "exact_match" };
      const lev: EvaluatorSpec = { type: "levenshtein", name: "lev" };
      const complete = async (name: string, path: string, specs: EvaluatorSpec[]) => {
        const id = await store.beginRun({ name, dataset_path: path, dataset_hash: sha, evaluators: specs });
        const s = run(id, specs.map((spec) => [spec, 0.5])).summary!;
        await store.finishRun(id, { ...s, evaluators: s.evaluators.map((e) => (e.name === "lev" ? { ...e, threshold: 0.7, direction: "minimize" as const } : e)) });
      };
      await complete("here", a, [em, lev]);
      const cut = await store.beginRun({ name: "cut", dataset_path: a, dataset_hash: sha, evaluators: [em] });
      await store.abortRun(cut, null, "interrupted (SIGINT)");
      // Begun with no owning process: still running once this store is closed.
      await store.beginRun({ name: "live", dataset_path: a, dataset_hash: sha, evaluators: [em] }, { owner: "none" });
      // The newest run has no levenshtein lev (a jaccard one, a series of its own): that series' setting is the one "here" records.
      await complete("there", moved, [em, { type: "jaccard_similarity", name: "lev" }]);
      await store.close();

      const text = await trendOut(db, ["--dataset", a]);
      const json = await cliOutput(["trend", "--db", db, "--dataset", a, "--json"]);
      expect([text.code, json.code]).toEqual([0, 0]);
      const t = JSON.parse(json.out) as TrendJson;
      expect(t.runs.map((r) => [r.name, r.matched_by_content])).toEqual([
        ["here", false],
        ["there", true],
      ]);
      // The text's lines under its table, in its order: the runs matched by content, then those left out.
      const lines = text.out.split("\n");
      // After the last table: a wide one goes on below, each part ending with the run "there".
      const under = lines.slice(lines.findLastIndex((l) => /^#\d+\s+there /.test(l)) + 1);
      expect(under).toHaveLength(2);
      expect(under[0]).toContain("matched by content");
      expect(under[1]).toMatch(/^left out: 1 incomplete run \(cut\) and 1 run still being recorded \(live\)/);
      expect(t.notes).toEqual(under);
      expect(t.left_out.map((r) => [r.name, r.status])).toEqual([
        ["cut", "incomplete"],
        ["live", "running"],
      ]);
      expect(t.evaluators.map((e) => [e.title, e.name, e.type])).toEqual([
        ["exact_match", "exact_match", "exact_match"],
        ["lev (levenshtein)", "lev", "levenshtein"],
        ["lev (jaccard_similarity)", "lev", "jaccard_similarity"],
      ]);
      expect(t.evaluators[1]).toMatchObject({ direction: "minimize", threshold: 0.7 });
    });
  });

  it("gives no runs, exit 0, when no complete run is recorded, with the text's message in notes and the runs left out", async () => {
    await inTempDb("simeval-trend-json-empty-", async (db) => {
      const store = openSqliteStore(db);
      const id = await store.beginRun({ name: "cut", dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
      await new Promise((resolve) => setTimeout(resolve, 5)); // so that it ends at another millisecond than it began
      await store.abortRun(id, null, "interrupted (SIGINT)");
      await store.close();
      const text = await trendOut(db);
      const json = await cliOutput(["trend", "--db", db, "--json"]);
      expect([text.code, json.code]).toEqual([0, 0]);
      const t = JSON.parse(json.out) as TrendJson;
      expect(t).toEqual({ runs: [], evaluators: [], warnings: [], notes: text.out.split("\n"), left_out: [{ id, name: "cut", status: "incomplete", started_at: expect.any(String) }] });
      expect(t.notes[0]).toBe("No complete runs recorded yet.");
      // A left-out run's start time is the one recorded (as `runs --json` gives it), not its end.
      const reader = openSqliteStore(db);
      const [recorded] = await reader.listRuns();
      await reader.close();
      expect(recorded!.finished_at).not.toBe(recorded!.started_at);
      expect(t.left_out[0]!.started_at).toBe(recorded!.started_at);
      // Filters that keep none: their message, as the text's; with no complete run at all, it says that, not that none is named so.
      const none = await cliOutput(["trend", "--db", db, "--json", "-n", "nobody"]);
      expect((JSON.parse(none.out) as TrendJson).notes).toEqual((await trendOut(db, ["-n", "nobody"])).out.split("\n"));
      expect((JSON.parse(none.out) as TrendJson).notes).toEqual(["No complete runs recorded yet."]);
      // --report is written all the same: a report of no runs, with the message and the runs left out.
      const report = join(dirname(db), "empty.html");
      const reported = await cliOutput(["trend", "--db", db, "--json", "--report", report]);
      expect(reported.code).toBe(0);
      expect(JSON.parse(reported.out)).toEqual(t);
      expect(reported.err).toContain(`Report: ${report}`);
      const html = readFileSync(report, "utf8");
      expect(html).toContain("<dt>Runs</dt><dd>0</dd>");
      for (const note of t.notes) expect(html).toContain(escapeHtml(note));
    });
  });
});

describe("trend --report to a descriptor of this process", () => {
  // As `simeval trend --report /dev/stdout > trend.html`: the report is among what is printed, not a file to name.
  it.skipIf(process.platform !== "linux")("writes the report there and does not say \"Report: /dev/fd/N\"", () =>
    inTempDb("simeval-trend-fd-", async (db, dir) => {
      const path = join(dir, "shared.html");
      const fd = openSync(path, "w");
      try {
        const r = await cliOutput(["trend", "--db", db, "--report", `/dev/fd/${fd}`]);
        expect(r.code).toBe(0);
        expect(`${r.out}\n${r.err}`).not.toContain("Report:");
      } finally {
        closeSync(fd);
      }
      expect(readFileSync(path, "utf8")).toContain("</html>");
    }));
});

describe("datasetCount", () => {
  const on = (path: string | null, hash: string | null) => ({ dataset_path: path, dataset_hash: hash });

  it("counts runs on one path, or on one content at several paths, as one dataset; runs read from no file as one more", () => {
    expect(datasetCount([on("/a.jsonl", "h1"), on("/a.jsonl", "h2")])).toBe(1); // a file edited between runs
    expect(datasetCount([on("/ci/1/a.jsonl", "h1"), on("/ci/2/a.jsonl", "h1")])).toBe(1); // a checkout that moved
    expect(datasetCount([on("/a.jsonl", "h1"), on("/b.jsonl", "h2"), on("/c.jsonl", "h1")])).toBe(2);
    expect(datasetCount([on("/a", "h1"), on("/b", "h1"), on("/b", "h2"), on("/c", "h2"), on("/d", "h3")])).toBe(2); // joined through b
    expect(datasetCount([on(null, null), on(null, null), on("/a", "h1")])).toBe(2);
    expect(datasetCount([on("/a", ""), on("/b", "")])).toBe(2); // no hash recorded: by path alone
  });

  it("is the number of groups that sharing a path or a content joins, on random runs", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 })), { minLength: 1, maxLength: 12 }), (pairs) => {
        const runs = pairs.map(([p, h]) => on(`/d${p}`, `h${h}`));
        // Plain reference: grow each group until no run outside it shares a path or a hash with it.
        const left = new Set(runs.keys());
        let groups = 0;
        while (left.size) {
          const group = [left.values().next().value as number];
          left.delete(group[0] as number);
          for (let i = 0; i < group.length; i++) {
            const r = runs[group[i] as number]!;
            for (const j of [...left]) if (runs[j]!.dataset_path === r.dataset_path || runs[j]!.dataset_hash === r.dataset_hash) (left.delete(j), group.push(j));
          }
          groups++;
        }
        expect(datasetCount(runs)).toBe(groups);
      }),
    );
  });
});
