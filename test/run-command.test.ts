import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { XMLParser } from "fast-xml-parser";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { main } from "../src/cli/main.js";
import { openSqliteStore, SqliteRunStore } from "../src/storage/sqlite.js";
import { processGone } from "../src/storage/store.js";
import { THIS_HOST } from "../src/storage/run-owner.js";
import { collect } from "../src/test-support.js";
import type { FakeOpenAI } from "./openai-server.js";

const root = fileURLToPath(new URL("..", import.meta.url));
let dir: string;

/** Resolves once the run named `name` in the database `db` (being made by another process) has recorded a row. */
async function rowsRecorded(db: string, name: string): Promise<void> {
  const started = Date.now();
  for (;;) {
    await new Promise((r) => setTimeout(r, 200));
    if (existsSync(db)) {
      const s = openSqliteStore(db);
      const r = await s.findRun(name);
      const n = r ? (await collect(s.rows(r.id))).length : 0;
      await s.close();
      if (n > 0) return;
    }
    if (Date.now() - started > 60_000) throw new Error(`the run ${name} never recorded a row`);
  }
}

async function run(...argv: string[]) {
  let out = "";
  let err = "";
  const code = await main(argv, { stdout: (s) => void (out += `${s}\n`), stderr: (s) => void (err += `${s}\n`) });
  return { code, out, err };
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
const evals = (specs: unknown[]) => JSON.stringify({ evaluators: specs });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "simeval-run-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("simeval run", () => {
  it("scores every row in input order on worker threads, and writes results, summary, report and JUnit", async () => {
    const rows = Array.from({ length: 1500 }, (_, i) => ({ id: `r${i}`, output: i % 3 === 0 ? "Paris" : "Lyon", expected: "Paris" }));
    const data = file("data.jsonl", jsonl(rows));
    const config = file("evals.json", evals([{ type: "exact_match" }, { type: "levenshtein" }]));
    const r = await run("run", data, "--config", config, "--db", join(dir, "db.sqlite"), "--out", join(dir, "out.jsonl"), "--summary", join(dir, "s.json"), "--report", join(dir, "r.html"), "--junit", join(dir, "j.xml"), "--workers", "2");
    expect(r.code).toBe(0);
    const lines = readFileSync(join(dir, "out.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1500);
    expect(lines.map((l) => l.row)).toEqual(rows.map((_, i) => i + 1));
    expect(lines.map((l) => l.id)).toEqual(rows.map((x) => x.id));
    expect(lines[0].results.exact_match).toMatchObject({ score: 1, passed: true, label: "pass", skipped: false });
    expect(lines[1].results.levenshtein.details.distance).toBe(5); // "lyon" -> "paris"
    const summary = JSON.parse(readFileSync(join(dir, "s.json"), "utf8"));
    expect(summary.summary.evaluators[0]).toMatchObject({ name: "exact_match", n: 1500, mean: 500 / 1500, pass_rate: 500 / 1500 });
    expect(r.out).toMatch(/exact_match\s+1500\s+0\s+0\s+0\.3333/);
    // Each file written is named, last, in the order written.
    expect(r.out.trimEnd().split("\n").slice(-4)).toEqual(["Results", "Report", "Summary", "JUnit"].map((what, i) => `${what}: ${join(dir, ["out.jsonl", "r.html", "s.json", "j.xml"][i]!)}`));
    const html = readFileSync(join(dir, "r.html"), "utf8");
    expect(html).toContain("<svg");
    expect(html).not.toMatch(/<script src|https?:\/\/(?!www\.w3\.org)/);
    const xml = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(join(dir, "j.xml"), "utf8"));
    expect(xml.testsuites.testsuite[0]["@_tests"]).toBe("1500");
    expect(xml.testsuites.testsuite[0]["@_failures"]).toBe("1000");
  });

  it("records a bad row as that row's error and goes on", async () => {
    const data = file("bad.jsonl", '{"output":"a","expected":"a"}\n{not json\n[1,2]\n{"output":"b","expected":"b"}\n');
    const config = file("evals.json", evals([{ type: "exact_match" }]));
    const r = await run("run", data, "--config", config, "--no-db", "--out", join(dir, "out.jsonl"));
    expect(r.code).toBe(0);
    expect(r.out).toContain("4 rows, 2 unreadable");
    expect(r.err).toMatch(/row 2 \(line 2\): not valid JSON/);
    expect(r.err).toMatch(/row 3 \(line 3\): expected a JSON object/);
    const lines = readFileSync(join(dir, "out.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines[1]).toMatchObject({ row: 2, line: 2, error: { code: "DATASET_ROW_INVALID" } });
    expect(lines[3].results.exact_match.passed).toBe(true);
    // A gate does not pass over rows lost: exit 1, naming them, where its figure alone passed.
    const gated = await run("run", data, "--config", config, "--no-db", "--min-pass-rate", "exact_match=0.5");
    expect(gated).toMatchObject({ code: 1, err: expect.stringContaining("--min-pass-rate exact_match=0.5: failed, 2 rows of the dataset could not be read (its pass rate 100.0% covers only the rows read)") });
  });

  it("an unreadable row's message shows its control and bidi characters escaped on the terminal, and as they were in --out", async () => {
    // JSON.parse quotes the start of the line it cannot read: an ESC sequence (clear screen), a right-to-left override, a C1 CSI, a bell.
    const line = "\u001b[2J\u202E\u009b1m\u0007";
    const data = file("ctl.jsonl", `{"output":"a","expected":"a"}\n${line}\n`);
    const out = join(dir, "out.jsonl");
    const r = await run("run", data, "--config", file("evals.json", evals([{ type: "exact_match" }])), "--no-db", "--out", out);
    expect(r.err).toContain("simeval: warning: row 2 (line 2): not valid JSON (Unexpected token '\\u001b', \"\\u001b[2J\\u202e\\u009b1m\\u0007\" is not valid JSON at column 1 of the line (the control character U+001B: JSON takes it only inside a string, escaped as \\u001b))");
    expect(r.err).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    const written = JSON.parse(readFileSync(out, "utf8").trim().split("\n")[1]!);
    expect(written.error.message).toContain(`"${line}"`);
  });

  it("past five unreadable rows, says where the others are listed", async () => {
    const data = file("many-bad.jsonl", '{"output":"a","expected":"a"}\n' + "{not json\n".repeat(7));
    const config = file("evals.json", evals([{ type: "exact_match" }]));
    const lean = await run("run", data, "--config", config, "--no-db");
    // Each a warning (exit 0 without a gate), as the README's "Exit codes" says every one is.
    expect(lean).toMatchObject({ code: 0 });
    expect(lean.err.split("\n").filter((l) => l.includes("line ")).every((l) => l.startsWith("simeval: warning: row "))).toBe(true);
    expect(lean.err).toContain("simeval: warning: … and 2 more unreadable rows (--out lists every one)");
    const out = join(dir, "out.jsonl");
    const full = await run("run", data, "--config", config, "--no-db", "--out", out);
    expect(full.err).toContain(`… and 2 more unreadable rows (see ${out})`);
  });

  it("a mapping that fails on a row is that evaluator's error on that row", async () => {
    const data = file("m.jsonl", jsonl([{ answers: ["a"], expected: "a" }, { answers: ["a", "b"], expected: "a" }]));
    const config = file("evals.json", evals([{ type: "exact_match", inputs: { output: "$.answers[*]" } }]));
    const r = await run("run", data, "--config", config, "--no-db", "--out", join(dir, "out.jsonl"), "--workers", "0", "--summary", join(dir, "s.json"));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/exact_match\s+1\s+0\s+1\s+1/);
    const lines = readFileSync(join(dir, "out.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines[1].results.exact_match.error.message).toContain("$.answers[*] matched 2 values");
    // The summary file carries what the terminal said besides the table.
    const summary = JSON.parse(readFileSync(join(dir, "s.json"), "utf8"));
    expect(summary.evaluator_errors).toEqual({ exact_match: { row: 2, code: "INPUT_INVALID", message: expect.stringContaining("matched 2 values") } });
    expect(summary.warnings).toEqual([expect.stringContaining('"exact_match": 1 row failed; the first, row 2:')]);
    expect(summary.row_errors).toEqual([]);
  });

  it("leaves skipped rows out of means unless --count-skipped-as-zero", async () => {
    const data = file("s.jsonl", jsonl([{ output: "a", expected: "a" }, { output: "a" }]));
    const config = file("evals.json", evals([{ type: "exact_match" }]));
    const plain = await run("run", data, "--config", config, "--no-db", "--summary", join(dir, "a.json"));
    expect(JSON.parse(readFileSync(join(dir, "a.json"), "utf8")).summary.evaluators[0]).toMatchObject({ n: 1, skipped: 1, mean: 1, pass_rate: 1 });
    expect(plain.code).toBe(0);
    await run("run", data, "--config", config, "--no-db", "--count-skipped-as-zero", "--summary", join(dir, "b.json"));
    expect(JSON.parse(readFileSync(join(dir, "b.json"), "utf8")).summary.evaluators[0]).toMatchObject({ n: 2, skipped: 1, mean: 0.5, pass_rate: 0.5 });
  });

  it("--count-skipped-as-zero: JUnit fails the skipped rows that the pass rate counted as failed", async () => {
    const data = file("z.jsonl", jsonl([{ output: "a", expected: "a" }, { output: "b" }]));
    // The second has no threshold, so no verdicts: its skipped row stays skipped, as in the summary.
    const config = file("evals.json", evals([{ type: "levenshtein_distance", config: { threshold: 1 } }, { type: "levenshtein_distance", name: "dist" }]));
    const junit = join(dir, "z.xml");
    const r = await run("run", data, "--config", config, "--db", join(dir, "db.sqlite"), "--count-skipped-as-zero", "--junit", junit, "--min-pass-rate", "levenshtein_distance=1");
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/levenshtein_distance .* 50\.0%/);
    const suites = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(junit, "utf8")).testsuites.testsuite;
    expect([suites[0]["@_name"], suites[0]["@_failures"], suites[0]["@_skipped"]]).toEqual(["simeval.levenshtein_distance", "1", "0"]);
    expect(suites[0].testcase[1].failure["@_message"]).toBe("no expected output; counted as failed because of --count-skipped-as-zero");
    expect([suites[1]["@_name"], suites[1]["@_failures"], suites[1]["@_skipped"]]).toEqual(["simeval.dist", "0", "1"]);
  });

  it("--junit gives the run's recorded duration as the suites' time, the gates 0, and no testcase a time", async () => {
    const data = file("t.jsonl", jsonl([{ output: "a", expected: "a" }, { output: "b", expected: "c" }]));
    const db = join(dir, "db.sqlite");
    const junit = join(dir, "t.xml");
    const r = await run("run", data, "--config", file("evals.json", evals([{ type: "exact_match" }])), "--db", db, "--junit", junit, "--min-pass-rate", "exact_match=0.5");
    expect(r.code).toBe(0);
    const id = /^Run (\w+):/m.exec(r.out)?.[1] as string;
    const shown = JSON.parse((await run("show", id, "--db", db, "--json")).out);
    const seconds = ((Date.parse(shown.finished_at) - Date.parse(shown.started_at)) / 1000).toFixed(3);
    const xml = readFileSync(junit, "utf8");
    const doc = new XMLParser({ ignoreAttributes: false }).parse(xml).testsuites;
    expect(doc["@_time"]).toBe(seconds);
    expect(doc.testsuite.map((s: Record<string, string>) => [s["@_name"], s["@_time"]])).toEqual([
      ["simeval.exact_match", seconds],
      ["simeval:gates", "0.000"],
    ]);
    expect(xml).not.toMatch(/<testcase [^>]*time=/);
  });

  it("in a CSV, an empty expected cell skips the row and an empty output is scored as the empty string", async () => {
    const data = file("s.csv", "output,expected\na,a\nb,\"\"\n,x\n");
    await run("run", data, "--config", file("evals.json", evals([{ type: "exact_match" }])), "--no-db", "--summary", join(dir, "s.json"));
    expect(JSON.parse(readFileSync(join(dir, "s.json"), "utf8")).summary.evaluators[0]).toMatchObject({ n: 2, skipped: 1, mean: 0.5 });
  });

  it("gates: exit 1 naming the failed gate; 2 for an unknown evaluator name", async () => {
    const data = file("g.jsonl", jsonl([{ output: "abc", expected: "abd" }, { output: "x", expected: "x" }]));
    const config = file("evals.json", evals([{ type: "levenshtein" }, { type: "exact_match" }]));
    const ok = await run("run", data, "--config", config, "--no-db", "--fail-under", "levenshtein=0.8", "--min-pass-rate", "exact_match=0.5");
    expect(ok.code).toBe(0);
    const failed = await run("run", data, "--config", config, "--no-db", "--fail-under", "levenshtein=0.9", "--min-pass-rate", "exact_match=0.6");
    expect(failed.code).toBe(1);
    expect(failed.err).toContain("2 gates not met: --fail-under levenshtein=0.9, --min-pass-rate exact_match=0.6");
    const unknown = await run("run", data, "--config", config, "--no-db", "--fail-under", "lev=0.9");
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('no evaluator is named "lev"');
  });

  it("names every problem of the gates in one run, in the order given, and with the config's problems", async () => {
    const data = file("g.jsonl", jsonl([{ output: "abc", expected: "abd" }]));
    const config = file("evals.json", evals([{ type: "levenshtein" }, { type: "levenshtein_distance" }]));
    const gates = ["--fail-under", "lev=0.9", "--fail-under", "x", "--fail-over", "levenshtein=0.2", "--min-pass-rate", "levenshtein=95"];
    const all = await run("run", data, "--config", config, "--no-db", ...gates);
    expect(all.code).toBe(2);
    expect(all.err).toBe(
      [
        "simeval: 4 problems with the gate options:",
        '✖ --fail-under lev=0.9: no evaluator is named "lev"; the evaluators are levenshtein, levenshtein_distance.',
        '✖ --fail-under takes NAME=MEAN, the name of an evaluator and a number (e.g. --fail-under levenshtein=0.8), received "x"',
        '✖ --fail-over levenshtein=0.2: "levenshtein" is a similarity (higher is better); use --fail-under levenshtein=MEAN to fail when its mean is below MEAN',
        '✖ --min-pass-rate takes a fraction in [0, 1] (e.g. exact_match=0.95), received "levenshtein=95": a pass rate of 95% is written levenshtein=0.95',
        "",
      ].join("\n"),
    );
    // A bad config and a malformed gate: both in one message, the config's first.
    const bad = file("bad.json", evals([{ type: "levenshtein", config: { threshold: 2 } }]));
    const both = await run("run", data, "--config", bad, "--no-db", "--fail-under", "x", "--min-pass-rate", "levenshtein=0.5");
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/^simeval: .*bad\.json: Invalid evaluator configuration \(1 problem\):\n✖ evaluators\[0\].*config\.threshold.*\n  → at evaluators\[0\]\.config\.threshold\n1 problem with the gate options:\n✖ --fail-under takes NAME=MEAN, .*received "x"\n$/);
    // So is a config that cannot be read.
    const missing = await run("run", data, "--config", join(dir, "none.json"), "--no-db", "--fail-under", "x");
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/none\.json: no such file .*\n1 problem with the gate options:\n✖ --fail-under takes NAME=MEAN/);
    // One problem alone reads as before.
    const one = await run("run", data, "--config", config, "--no-db", "--fail-under", "x");
    expect(one.err).toBe('simeval: --fail-under takes NAME=MEAN, the name of an evaluator and a number (e.g. --fail-under levenshtein=0.8), received "x"\n');
  });

  it("--summary's gates have a failed entry for every failure the exit code reports, as --junit's gates suite does", async () => {
    const gatesOf = (path: string) => JSON.parse(readFileSync(path, "utf8")).gates as { name: string; passed: boolean; message: string }[];
    // An evaluator that scored nothing: exit 3, with a gate that passed on what little there was.
    const data = file("m.jsonl", jsonl([{ answer: "Paris", many: [1, 2] }, { answer: "Rome", many: [3, 4] }]));
    const config = file("evals.json", evals([{ type: "exact_match", inputs: { output: "$.many[*]", expected: "$.answer" } }, { type: "levenshtein_distance", inputs: { output: "$.answer", expected: "$.answer" } }]));
    const junit = join(dir, "n.xml");
    const nothing = await run("run", data, "--config", config, "--db", join(dir, "db.sqlite"), "--summary", join(dir, "n.json"), "--junit", junit, "--fail-over", "levenshtein_distance=1");
    expect(nothing.code).toBe(3);
    const scoredNothing = { name: "exact_match scored rows", passed: false, message: expect.stringContaining('"exact_match": 2 rows failed, and nothing was scored') };
    expect(gatesOf(join(dir, "n.json"))).toEqual([scoredNothing, { name: "--fail-over levenshtein_distance=1", passed: true, message: expect.any(String) }]);
    const suites = [new XMLParser({ ignoreAttributes: false }).parse(readFileSync(junit, "utf8")).testsuites.testsuite].flat();
    const gateSuite = suites.find((s: { "@_name": string }) => s["@_name"] === "simeval:gates");
    expect([gateSuite.testcase].flat().map((c: { "@_name": string }) => c["@_name"])).toEqual(["exact_match scored rows", "--fail-over levenshtein_distance=1"]);
    // A read that stopped: exit 2.
    const cut = file("cut.json", `[{"output": "a", "expected": "a"},\n{"output": "a", "expected": "a"]\n`);
    const plain = file("plain.json", evals([{ type: "exact_match" }]));
    expect((await run("run", cut, "--config", plain, "--no-db", "--summary", join(dir, "c.json"))).code).toBe(2);
    expect(gatesOf(join(dir, "c.json"))).toEqual([{ name: "dataset read to its end", passed: false, message: expect.stringContaining("Reading stopped here") }]);
    // A gate fails on it as on the rest of the file not read, not as "1 row of the dataset could not be read".
    const gated = await run("run", cut, "--config", plain, "--no-db", "--fail-under", "exact_match=0.5");
    expect(gated.err).toContain("--fail-under exact_match=0.5: failed, the dataset was not read to its end (its mean 1 covers only the rows read)");
    // Not one row readable: exit 2.
    expect((await run("run", file("junk.jsonl", "not json\n[1]\n"), "--config", plain, "--no-db", "--summary", join(dir, "j.json"))).code).toBe(2);
    expect(gatesOf(join(dir, "j.json"))).toEqual([{ name: "dataset rows read", passed: false, message: expect.stringContaining("no row could be read") }]);
  });

  it("names a 1 MB field of the first row cut to 100 characters, on the terminal, in --summary and in the report", async () => {
    const key = `${"k".repeat(1_000_000)}z`;
    const data = file("key.jsonl", `{"answer":"a",${JSON.stringify(key)}:1}\n{"answer":"b",${JSON.stringify(key)}:2}\n`);
    const r = await run("run", data, "--config", file("evals.json", evals([{ type: "exact_match" }])), "--no-db", "--summary", join(dir, "k.json"), "--report", join(dir, "k.html"));
    const shown = `the first row's fields are "answer", "${"k".repeat(100)}…"`;
    expect(r.err).toContain(`simeval: warning: ${shown}\n`);
    expect(r.err.length).toBeLessThan(5_000);
    expect(JSON.parse(readFileSync(join(dir, "k.json"), "utf8")).warnings).toContain(shown);
    expect(statSync(join(dir, "k.json")).size).toBeLessThan(10_000);
    expect(statSync(join(dir, "k.html")).size).toBeLessThan(200_000);
  });

  it("shows a 1 MB row id cut to 100 characters in JUnit, the report, and compare's table and report", async () => {
    const id = `${"i".repeat(1_000_000)}z`;
    const config = file("evals.json", evals([{ type: "exact_match" }, { type: "levenshtein" }]));
    const shown = `${"i".repeat(100)}…`;
    for (const [name, output] of [["a", "same"], ["b", "other"]] as const) {
      const r = await run("run", file(`${name}.jsonl`, jsonl([{ id, output, expected: "same" }, { id: "small", output: "x", expected: "x" }])), "--config", config, "--db", join(dir, "runs.db"), "--out", join(dir, `${name}.out.jsonl`), "--junit", join(dir, `${name}.xml`), "--report", join(dir, `${name}.html`));
      expect(r.err).toBe("");
      expect(r.code).toBe(0);
      expect(readFileSync(join(dir, `${name}.xml`), "utf8")).toContain(`name="row 1 (id ${shown})"`);
      expect(statSync(join(dir, `${name}.xml`)).size).toBeLessThan(20_000);
      expect(statSync(join(dir, `${name}.html`)).size).toBeLessThan(300_000);
    }
    expect(readFileSync(join(dir, "b.html"), "utf8")).toContain(`id <code>${shown}</code>`);
    const cmp = await run("compare", join(dir, "a.out.jsonl"), join(dir, "b.out.jsonl"), "--db", join(dir, "none.db"), "--report", join(dir, "c.html"));
    expect(cmp.out).toContain(shown);
    expect(cmp.out.length).toBeLessThan(20_000);
    expect(statSync(join(dir, "c.html")).size).toBeLessThan(300_000);
  });

  it("warns about mappings that reach nothing, naming the row's fields, and exits 3 when an evaluator failed on every row", async () => {
    const data = file("m.jsonl", jsonl([{ answer: "Paris", reply: { text: "Paris" }, many: [1, 2] }, { answer: "Rome", reply: { text: "Roma" }, many: [3, 4] }]));
    const typoConfig = file("evals.json", evals([{ type: "levenshtein", inputs: { output: "$.reply.text", expected: "$.answr" } }]));
    const typo = await run("run", data, "--config", typoConfig, "--no-db", "--summary", join(dir, "typo.json"), "--report", join(dir, "typo.html"));
    expect(typo.code).toBe(0);
    expect(typo.err).toContain('simeval: warning: "levenshtein": every row was skipped: no row has an expected value at $.answr');
    expect(typo.err).toContain('simeval: warning: the first row\'s fields are "answer", "reply", "many"');
    // The summary file and the report say what the terminal said, the fields included.
    expect(JSON.parse(readFileSync(join(dir, "typo.json"), "utf8")).warnings).toEqual([
      '"levenshtein": every row was skipped: no row has an expected value at $.answr',
      'the first row\'s fields are "answer", "reply", "many"',
      'to read "answer" as the expected output, map it: "inputs": {"expected": "$.answer"}',
    ]);
    expect(readFileSync(join(dir, "typo.html"), "utf8")).toContain("the first row&#39;s fields are &quot;answer&quot;, &quot;reply&quot;, &quot;many&quot;");
    const report = join(dir, "failing.html");
    const failing = await run("run", data, "--config", file("evals.json", evals([{ type: "exact_match", inputs: { output: "$.many[*]", expected: "$.answer" } }])), "--no-db", "--report", report);
    expect(failing.code).toBe(3);
    expect(failing.err).toContain('simeval: "exact_match": 2 rows failed, and nothing was scored; the first, row 1: output: JSONPath $.many[*] matched 2 values');
    // The report says it too, not only "errors 2", among its gates as --summary and --junit have it: it read "Gates ✓ passed".
    const failingHtml = readFileSync(report, "utf8");
    expect(failingHtml).toContain("exact_match&quot;: 2 rows failed, and nothing was scored; the first, row 1: output: JSONPath $.many[*] matched 2 values");
    expect(failingHtml).toContain(`<span class="badge fail">✗ 1 of 1 failed</span>`);
    expect(failingHtml).toMatch(/✗ failed<\/span> &quot;exact_match&quot;: 2 rows failed, and nothing was scored/);
    // Said once, among the gates, not again in a warning box.
    expect(failingHtml.split("2 rows failed, and nothing was scored").length - 1).toBe(1);
    // Failed on one row of two: a gate on it fails, though the row it scored passes.
    const some = file("some.jsonl", jsonl([{ answer: "Paris", many: ["Paris"] }, { answer: "Rome", many: [3, 4] }]));
    const gated = await run("run", some, "--config", file("evals.json", evals([{ type: "exact_match", inputs: { output: "$.many[*]", expected: "$.answer" } }])), "--no-db", "--fail-under", "exact_match=0.5");
    expect(gated.code).toBe(1);
    expect(gated.err).toContain("--fail-under exact_match=0.5: failed, exact_match failed on 1 row (its mean 1 covers only the 1 it scored)");
    // Recorded, it cannot be the baseline: comparisons would have no pairs for that evaluator.
    const db = join(dir, "failing.db");
    // A name is recorded trimmed, as it is looked up.
    await run("run", data, "--config", file("evals.json", evals([{ type: "exact_match", inputs: { output: "$.many[*]", expected: "$.answer" } }])), "--db", db, "--name", "  f  ");
    expect((await run("show", "  f  ", "--db", db)).code).toBe(0);
    expect(await run("baseline", "set", "f", "--db", db)).toMatchObject({ code: 2, err: expect.stringContaining("cannot be the baseline: exact_match (every row an error) scored no row in it") });
  });

  it("says once, naming them all, that every evaluator skipped every row, keeping the warnings that differ (report, terminal and --summary)", async () => {
    const data = file("noexp.jsonl", jsonl([{ id: 1, output: "Paris", answer: "Paris" }, { id: 2, output: "Rome", answer: "Roma" }]));
    const config = file("evals.json", evals([{ type: "exact_match" }, { type: "levenshtein" }, { type: "jaccard_similarity" }, { type: "tfidf_similarity", inputs: { expected: "$.answr" } }]));
    const r = await run("run", data, "--config", config, "--no-db", "--report", join(dir, "noexp.html"), "--summary", join(dir, "noexp.json"));
    expect(r.code).toBe(0);
    const boxes = [...readFileSync(join(dir, "noexp.html"), "utf8").matchAll(/<div class="warnbox">⚠ ([^<]*)<\/div>/g)].map((m) => m[1]);
    // It was a box per evaluator, alike but for the name.
    expect(boxes).toEqual([
      "&quot;exact_match&quot;, &quot;levenshtein&quot; and &quot;jaccard_similarity&quot;: every row was skipped: no row has an expected value at $.expected or $.metadata.expectedOutput",
      "&quot;tfidf_similarity&quot;: every row was skipped: no row has an expected value at $.answr",
      "the first row&#39;s fields are &quot;id&quot;, &quot;output&quot;, &quot;answer&quot;",
      "to read &quot;answer&quot; as the expected output, map it: &quot;inputs&quot;: {&quot;expected&quot;: &quot;$.answer&quot;}",
    ]);
    // The terminal and --summary say it once too: they gave a line each.
    const said = [
      '"exact_match", "levenshtein" and "jaccard_similarity": every row was skipped: no row has an expected value at $.expected or $.metadata.expectedOutput',
      '"tfidf_similarity": every row was skipped: no row has an expected value at $.answr',
      "the first row's fields are \"id\", \"output\", \"answer\"",
      'to read "answer" as the expected output, map it: "inputs": {"expected": "$.answer"}',
    ];
    expect(r.err.split("\n").filter((l) => l.startsWith("simeval: warning: "))).toEqual(said.map((w) => `simeval: warning: ${w}`));
    expect(JSON.parse(readFileSync(join(dir, "noexp.json"), "utf8")).warnings).toEqual(said);
  });

  it("--workers above the core count is brought down to it, saying so", async () => {
    const data = file("w.jsonl", jsonl([{ output: "a", expected: "a" }]));
    const r = await run("run", data, "--config", file("evals.json", evals([{ type: "exact_match" }])), "--no-db", "--workers", "1000");
    expect(r.code).toBe(0);
    expect(r.err).toContain(`simeval: warning: --workers 1000 is more than this machine's ${availableParallelism()} cores; using ${availableParallelism()}`);
    expect((await run("run", data, "--config", file("evals.json", evals([{ type: "exact_match" }])), "--no-db", "--workers", "1e3")).err).toContain('--workers takes a whole number >= 0, received "1e3"');
  });

  // /dev/full fails every write with ENOSPC, as a disk that fills during the run.
  (process.platform === "linux" ? it : it.skip)("an output that cannot be written for a full disk is a runtime failure (exit 3) naming the flag and path", async () => {
    const data = file("w.jsonl", jsonl([{ output: "a", expected: "a" }]));
    const config = file("evals.json", evals([{ type: "exact_match" }]));
    for (const flag of ["--out", "--summary", "--report", "--junit"]) {
      const r = await run("run", data, "--config", config, "--db", join(dir, "full.db"), flag, "/dev/full");
      expect(r.code).toBe(3);
      expect(r.err).toContain(`${flag} /dev/full: cannot write (ENOSPC`);
    }
  });

  (process.platform === "linux" ? it : it.skip)("a run whose --out failed on its last write, found only when the file is closed, is recorded as incomplete, as one that failed during scoring", async () => {
    const config = file("evals.json", evals([{ type: "exact_match" }]));
    const db = join(dir, "full.db");
    // One row: its line is the only write, accepted at once and failed later, so the failure is found when the file is closed.
    // Many rows: it is found by a later write, while the rows are scored.
    for (const [name, rows] of [["last", 1], ["during", 5000]] as const) {
      const data = file(`${name}.jsonl`, jsonl(Array.from({ length: rows }, () => ({ output: "a", expected: "a" }))));
      const r = await run("run", data, "--config", config, "--db", db, "--name", name, "--out", "/dev/full", "--workers", "0");
      expect(r.code).toBe(3);
      expect(r.err).toContain("--out /dev/full: cannot write (ENOSPC");
    }
    const store = openSqliteStore(db);
    expect((await store.listRuns()).map((x) => [x.name, x.status])).toEqual([["during", "incomplete"], ["last", "incomplete"]]);
    await store.close();
  });

  (process.platform === "linux" ? it : it.skip)("an output whose writing failed is a failed gate in the files written after it, which are written all the same", async () => {
    const data = file("w.jsonl", jsonl([{ output: "a", expected: "a" }]));
    const config = file("evals.json", evals([{ type: "exact_match" }]));
    const failedCases = (path: string) => {
      const suites = [new XMLParser({ ignoreAttributes: false }).parse(readFileSync(path, "utf8")).testsuites.testsuite].flat();
      const gates = suites.find((s: { "@_name": string }) => s["@_name"] === "simeval:gates");
      return [gates?.testcase ?? []].flat().filter((c: { failure?: unknown }) => c.failure !== undefined).map((c: { "@_name": string }) => c["@_name"]);
    };
    // The report fails: the summary and the JUnit file say so, though every gate passed.
    const db = join(dir, "w.db");
    const report = await run("run", data, "--config", config, "--db", db, "--report", "/dev/full", "--summary", join(dir, "s.json"), "--junit", join(dir, "j.xml"), "--min-pass-rate", "exact_match=1");
    expect(report.code).toBe(3);
    expect(report.err).toContain("--report /dev/full: cannot write (ENOSPC");
    const gates = JSON.parse(readFileSync(join(dir, "s.json"), "utf8")).gates;
    expect(gates).toEqual([
      { name: "--min-pass-rate exact_match=1", passed: true, message: expect.any(String) },
      { name: "--report written", passed: false, message: expect.stringContaining("--report /dev/full: cannot write (ENOSPC") },
    ]);
    expect(failedCases(join(dir, "j.xml"))).toEqual(["--report written"]);
    // The summary fails: the report is written before it, and the JUnit file after it says so.
    const summary = await run("run", data, "--config", config, "--db", db, "--report", join(dir, "r.html"), "--summary", "/dev/full", "--junit", join(dir, "j2.xml"));
    expect(summary.code).toBe(3);
    expect(summary.err).toContain("--summary /dev/full: cannot write (ENOSPC");
    // Only the files written whole are named: not the summary, whose write failed.
    expect(summary.out.trimEnd().split("\n").slice(-2)).toEqual([`Report: ${join(dir, "r.html")}`, `JUnit: ${join(dir, "j2.xml")}`]);
    expect(readFileSync(join(dir, "r.html"), "utf8")).toContain("<svg");
    expect(failedCases(join(dir, "j2.xml"))).toEqual(["--summary written"]);
  });

  // `ulimit -f 64` (32 kB) fails every write past it with EFBIG, as a disk that fills while the file is written.
  (process.platform === "linux" ? it : it.skip)("--summary and --report that fail midway leave an earlier run's file whole, and say it is one; a new path, nothing", async () => {
    const data = file("w.jsonl", jsonl([{ output: "a", expected: "a" }]));
    const config = file("evals.json", evals([{ type: "exact_match" }]));
    const [summary, report, fresh] = [join(dir, "s.json"), join(dir, "r.html"), join(dir, "new.html")];
    expect((await run("run", data, "--config", config, "--no-db", "--summary", summary, "--report", report)).code).toBe(0);
    const earlier = [readFileSync(summary, "utf8"), readFileSync(report, "utf8")];
    // A name of 40,000 characters: each file is larger than the limit, which nothing else reaches.
    const argv = ["run", data, "--config", config, "--no-db", "--name", "n".repeat(40_000), "--summary", summary, "--report", report];
    const limited = (...more: string[]) =>
      spawnSync("sh", ["-c", 'ulimit -f 64 && exec "$0" --import tsx src/cli/bin.ts "$@"', process.execPath, ...argv, ...more], { cwd: root, encoding: "utf8" });
    const r = limited();
    expect(r.status).toBe(3);
    expect(r.stderr).toContain(`--report ${report}: cannot write (EFBIG: file too large, write); the file at ${report} is from an earlier run, left as it was`);
    expect(r.stderr).toContain(`--summary ${summary}: cannot write (EFBIG: file too large, write); the file at ${summary} is from an earlier run, left as it was`);
    expect([readFileSync(summary, "utf8"), readFileSync(report, "utf8")]).toEqual(earlier);
    expect(readdirSync(dir).sort()).toEqual(["evals.json", "r.html", "s.json", "w.jsonl"]);
    // No earlier file: nothing is left at the path, and nothing is said of one.
    const none = limited("--report", fresh);
    expect(none.stderr).toContain(`--report ${fresh}: cannot write (EFBIG: file too large, write)\n`);
    expect(existsSync(fresh)).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(["evals.json", "r.html", "s.json", "w.jsonl"]);
  });

  // As `simeval run … --out /dev/stdout > all.txt`: standard output is a file the shell opened.
  (process.platform === "linux" ? it : it.skip)("--out, --summary and --junit /dev/stdout on a file write after the table and are not written over by it", () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({ id: `q${i}`, output: `answer ${i}`, expected: i % 2 ? `answer ${i}` : "other" }));
    const data = file("w.jsonl", jsonl(rows));
    const config = file("evals.json", evals([{ type: "exact_match" }]));
    const toFile = (name: string, ...argv: string[]) => {
      const path = join(dir, name);
      const fd = openSync(path, "w");
      try {
        const r = spawnSync(process.execPath, ["--import", "tsx", "src/cli/bin.ts", "run", data, "--config", config, ...argv], { cwd: root, encoding: "utf8", stdio: ["ignore", fd, "pipe"] });
        expect(r.stderr).toBe("");
        expect(r.status).toBe(0);
      } finally {
        closeSync(fd);
      }
      return readFileSync(path, "utf8").split("\n");
    };
    const table = (lines: string[]) => lines.findIndex((l) => l.startsWith("exact_match "));

    const out = toFile("out.txt", "--no-db", "--out", "/dev/stdout");
    const results = out.filter((l) => l.startsWith("{"));
    expect(results.map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(rows.map((r) => r.id));
    expect(table(out)).toBeGreaterThan(out.indexOf(results.at(-1)!));
    // Not named as a file written ("Results: /dev/stdout"): its lines are there.
    expect(out.filter((l) => l.includes("/dev/stdout"))).toEqual([]);

    const summary = toFile("summary.txt", "--no-db", "--summary", "/dev/stdout");
    expect(table(summary)).toBeGreaterThan(0);
    const json = summary.slice(summary.indexOf("{")).join("\n");
    expect((JSON.parse(json) as { summary: { rows: number } }).summary.rows).toBe(50);

    const junit = toFile("junit.txt", "--db", join(dir, "runs.db"), "--junit", "/dev/stdout");
    expect(table(junit)).toBeGreaterThan(0);
    const xml = junit.slice(junit.findIndex((l) => l.startsWith("<?xml"))).join("\n");
    expect(new XMLParser().parse(xml)).toHaveProperty("testsuites");
    expect(xml.trimEnd().endsWith("</testsuites>")).toBe(true);
  });

  // /dev/ptmx opens a new pseudo-terminal: results shown on a terminal (as --out /dev/tty), not a file to name.
  it.skipIf(!existsSync("/dev/ptmx"))("does not name results shown on a terminal as a file written", async () => {
    const data = file("t.jsonl", jsonl([{ output: "a", expected: "a" }]));
    const config = file("evals.json", evals([{ type: "exact_match" }]));
    const shown = await run("run", data, "--config", config, "--no-db", "--out", "/dev/ptmx", "--summary", join(dir, "t.json"));
    expect(shown.code).toBe(0);
    expect(shown.out).not.toContain("Results:");
    expect(shown.out).toContain(`Summary: ${join(dir, "t.json")}`);
  });

  it("--db with --no-db is a usage error, whichever comes last; nothing is recorded", async () => {
    const data = file("w.jsonl", jsonl([{ output: "a", expected: "a" }]));
    const config = file("evals.json", evals([{ type: "exact_match" }]));
    for (const flags of [["--db", join(dir, "x.db"), "--no-db"], ["--no-db", `--db=${join(dir, "x.db")}`]]) {
      const r = await run("run", data, "--config", config, ...flags);
      expect(r.code).toBe(2);
      expect(r.err).toContain("--db and --no-db contradict each other");
    }
    expect(existsSync(join(dir, "x.db"))).toBe(false);
  });

  it("--db through a '..' after a folder that is not there or is a file is a usage error naming the path, for run and for the commands that read runs", async () => {
    const data = file("w.jsonl", jsonl([{ output: "a", expected: "a" }]));
    const config = file("evals.json", evals([{ type: "exact_match" }]));
    file("notes.txt", "x");
    // Not join(), which reads the ".." away: the system steps out of the folder before it, so that must be one.
    for (const through of ["missing", "notes.txt", "notes.txt/deeper"]) {
      const db = `${dir}/${through}/../db.sqlite`;
      const r = await run("run", data, "--config", config, "--db", db);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`${db}: could not open the run store: `);
      expect(r.err).toContain(`a ".." steps out of the folder before it, which must be a folder that is there`);
      for (const argv of [["runs"], ["show", "good"], ["trend"]]) {
        const read = await run(...argv, "--db", db);
        expect(read).toMatchObject({ code: 2, out: "" });
        expect(read.err).toContain(`no run database at ${db}: `);
        expect(read.err).toContain(`a ".." steps out of the folder before it`);
      }
    }
    expect(existsSync(join(dir, "db.sqlite"))).toBe(false);
  });

  it("tf-idf with idf fitted on the dataset stops counting words every reference shares", async () => {
    const rows = Array.from({ length: 20 }, (_, i) => ({ output: `the answer is ${i % 2 ? "yes" : "maybe"}`, expected: `the answer is ${i % 2 ? "yes" : "no"}` }));
    const data = file("idf.jsonl", jsonl(rows));
    const config = file("evals.json", evals([{ name: "pair", type: "tfidf_similarity" }, { name: "dataset", type: "tfidf_similarity", config: { idf: "dataset" } }]));
    await run("run", data, "--config", config, "--no-db", "--out", join(dir, "o.jsonl"), "--workers", "2");
    const line = JSON.parse(readFileSync(join(dir, "o.jsonl"), "utf8").split("\n")[0] as string);
    // "the answer is" appears in every expected text: its weight falls to 1, while "no" (in half) weighs more.
    expect(line.results.dataset.score).toBeLessThan(line.results.pair.score);
    const noIdf = line.results.dataset.details.top_terms.find((t: { token: string }) => t.token === "no");
    expect(noIdf.idf).toBeCloseTo(Math.log(21 / 11) + 1, 12);
  });

  it("a dataset that cannot be read to its end: the rows before are scored and recorded, the rest is named, exit 2", async () => {
    const rows = Array.from({ length: 10 }, (_, i) => JSON.stringify({ id: i, output: "a", expected: "a" }));
    // A ] closing a {: where the next row starts is unknown.
    rows[3] = '{"id": 3, "output": "a", "expected": "a"]';
    const data = file("cut.json", `[\n${rows.join(",\n")}\n]\n`);
    const config = file("evals.json", evals([{ type: "exact_match" }]));
    const db = join(dir, "db.sqlite");
    // Given relative, recorded absolute: `runs` and reports find it from any folder.
    const r = await run("run", relative(process.cwd(), data), "--config", config, "--db", db, "--name", "partial", "--summary", join(dir, "s.json"), "--fail-under", "exact_match=0.5");
    expect(r.code).toBe(2);
    expect(r.out).toContain("4 rows, 1 unreadable");
    expect(r.err).toContain(`simeval: ${relative(process.cwd(), data)}: line 5: not valid JSON`);
    expect(r.err).toContain("Reading stopped here: the rest of the file is not in the run");
    // Said once, with the file's name, not also as a row's error.
    expect(r.err.match(/Reading stopped here/g)).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(dir, "s.json"), "utf8")).read_stopped).toMatchObject({ row: 4, line: 5 });
    const store = openSqliteStore(db);
    const [recorded] = await store.listRuns();
    expect((await collect(store.rows(recorded!.id))).map((x) => x.row)).toEqual([1, 2, 3, 4]);
    expect(recorded!.dataset_path).toBe(data);
    // It does not cover its dataset: incomplete, so it cannot become the baseline.
    expect(recorded!.status).toBe("incomplete");
    const shown = (await run("show", "partial", "--db", db)).out;
    expect(shown).toMatch(/4 rows, 1 unreadable\nincomplete: these figures cover only the rows read before it stopped\n/);
    expect(shown).toContain(`status   incomplete: the dataset could not be read from row 4 on: line 5: not valid JSON`);
    expect(recorded!.stop_reason).toMatch(/^the dataset could not be read from row 4 on: line 5: not valid JSON .*Reading stopped here/);
    expect(await run("baseline", "set", recorded!.id, "--db", db)).toMatchObject({
      code: 2,
      err: expect.stringContaining(`run ${recorded!.id} (partial) is incomplete; only a complete run can be the baseline (the baseline is unchanged)`),
    });
    await store.close();
  });

  it("a run not recorded (--no-db) is reported as incomplete when its file was read only up to a fault, as a recorded one is", async () => {
    const data = file("cut.json", '[{"output":"a","expected":"a"},\n{"output":"a", "expected":"a"]\n');
    const config = file("evals.json", evals([{ type: "exact_match" }]));
    const report = join(dir, "r.html");
    expect((await run("run", data, "--config", config, "--no-db", "--report", report)).code).toBe(2);
    expect(readFileSync(report, "utf8")).toContain('<span class="badge warn">incomplete</span>');
    const whole = file("whole.json", '[{"output":"a","expected":"a"}]\n');
    expect((await run("run", whole, "--config", config, "--no-db", "--report", report)).code).toBe(0);
    expect(readFileSync(report, "utf8")).toContain("✓ complete");
  });

  it("rows that are not UTF-8 (a CSV saved as Windows-1252) get one hint naming the likely encoding and how to convert, in --summary too", async () => {
    const data = join(dir, "latin1.csv");
    writeFileSync(data, Buffer.concat([Buffer.from("output,expected\nplain,plain\ncaf"), Buffer.from([0xe9]), Buffer.from(",cafe\nna"), Buffer.from([0xef]), Buffer.from("ve,naive\n")]));
    const config = file("evals.json", evals([{ type: "exact_match" }]));
    const r = await run("run", data, "--config", config, "--no-db", "--summary", join(dir, "s.json"));
    expect(r.out).toContain("3 rows, 2 unreadable");
    const hint = `${data}: rows that are not valid UTF-8 usually mean the file was saved in another encoding (Windows-1252 or Latin-1, as older Excel versions save CSV); convert it to UTF-8, e.g. iconv -f WINDOWS-1252 -t UTF-8 FILE > FILE-utf8, or save it again from the spreadsheet as CSV UTF-8`;
    expect(r.err.split("\n").filter((l) => l.includes("usually mean"))).toEqual([`simeval: warning: ${hint}`]);
    expect(JSON.parse(readFileSync(join(dir, "s.json"), "utf8")).warnings).toContain(hint);
    // Not said when every row is UTF-8.
    const clean = await run("run", file("clean.csv", "output,expected\ncafé,café\n"), "--config", config, "--no-db");
    expect(clean.err).not.toContain("usually mean");
  });

  it("a trailing comma after a JSON array's last element: every row is scored, no row is made up, and the comma is said once", async () => {
    const data = file("trailing.json", '[{"output":"a","expected":"a"},{"output":"b","expected":"b"},]');
    const config = file("evals.json", evals([{ type: "exact_match" }]));
    const db = join(dir, "db.sqlite");
    const r = await run("run", data, "--config", config, "--db", db, "--summary", join(dir, "s.json"), "--out", join(dir, "o.jsonl"));
    expect(r.code).toBe(0);
    expect(r.out).toContain("2 rows, 0 unreadable");
    const said = `${data}: line 1: not valid JSON (a trailing comma after the last element, at byte 61 of the line; JSON allows no comma before ]): every row was read, and the comma is ignored`;
    expect(r.err.split("\n").filter((l) => l.includes("trailing comma"))).toEqual([`simeval: warning: ${said}`]);
    const summary = JSON.parse(readFileSync(join(dir, "s.json"), "utf8"));
    expect(summary.summary).toMatchObject({ rows: 2, row_errors: 0, evaluators: [{ n: 2, errors: 0 }] });
    expect(summary.read_stopped).toBeNull();
    expect(summary.row_errors).toEqual([]);
    expect(summary.warnings).toEqual([said]);
    expect(readFileSync(join(dir, "o.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l).row)).toEqual([1, 2]);
    const store = openSqliteStore(db);
    const [recorded] = await store.listRuns();
    expect((await collect(store.rows(recorded!.id))).map((x) => x.row)).toEqual([1, 2]);
    expect(recorded!.status).not.toBe("incomplete");
    await store.close();
  });

  it("bad input gets a clear message and exit 2, never a stack trace", async () => {
    const config = file("evals.json", evals([{ type: "exact_match" }]));
    const missing = await run("run", join(dir, "nope.jsonl"), "--config", config, "--no-db");
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/nope\.jsonl: no such file/);
    const empty = await run("run", file("empty.jsonl", ""), "--config", config, "--no-db");
    expect(empty.code).toBe(2);
    expect(empty.err).toMatch(/empty/);
    const badConfig = await run("run", file("d.jsonl", jsonl([{ output: "a", expected: "a" }])), "--config", file("bad.json", '{"evaluators": [{"type": "levenshtein", "config": {"threshold": 7}}]}'), "--no-db");
    expect(badConfig.code).toBe(2);
    expect(badConfig.err).toContain("bad.json: Invalid evaluator configuration (1 problem)");
    expect(badConfig.err).toContain("evaluators[0]: evaluator (levenshtein): invalid config.threshold: expected a number in [0, 1], received number 7");
    const notJson = await run("run", file("d2.jsonl", "{}\n"), "--config", file("x.json", "{evaluators"), "--no-db");
    expect(notJson.err).toMatch(/x\.json: not valid JSON/);
    // Refused before the first row is read: no results file is started.
    const junitNoDb = await run("run", file("d3.jsonl", "{}\n"), "--config", config, "--no-db", "--junit", join(dir, "j.xml"), "--out", join(dir, "never.jsonl"));
    expect(junitNoDb.code).toBe(2);
    expect(junitNoDb.err).toContain("--junit reads the rows back from the run database; drop --no-db");
    expect(existsSync(join(dir, "never.jsonl"))).toBe(false);
    // An output that is the dataset would destroy it: refused, and the dataset is kept whole.
    const data = file("keep.jsonl", jsonl([{ output: "a", expected: "a" }]));
    const overwrite = await run("run", data, "--config", config, "--no-db", "--out", data);
    expect(overwrite.code).toBe(2);
    expect(overwrite.err).toContain(`--out ${data} is the same file as the dataset (an input, which writing would destroy)`);
    expect(readFileSync(data, "utf8")).toBe(jsonl([{ output: "a", expected: "a" }]));
    // The files SQLite keeps beside --db are the database too: an output over DB-wal lost every recorded run.
    const db = join(dir, "runs.db");
    expect((await run("run", data, "--config", config, "--db", db, "--name", "kept")).code).toBe(0);
    for (const [flag, side, what] of [["--out", "-wal", "write-ahead log"], ["--report", "-shm", "shared-memory index"], ["--summary", "-journal", "rollback journal"]] as const) {
      const over = await run("run", data, "--config", config, "--db", db, flag, `${db}${side}`);
      expect(over).toMatchObject({ code: 2, err: expect.stringContaining(`${flag} ${db}${side} is the same file as --db's ${what} (an input, which writing would destroy)`) });
    }
    expect((await run("runs", "--db", db, "--json")).out).toContain('"name": "kept"');
    expect(await run("trend", "--db", db, "--report", `${db}-wal`)).toMatchObject({ code: 2, err: expect.stringContaining("is the same file as --db's write-ahead log") });
    // compare --report over a recorded run's dataset (which it reads the texts from) is refused, the dataset kept whole.
    const overData = await run("compare", "kept", "kept", "--db", db, "--report", data);
    expect(overData).toMatchObject({ code: 2, err: expect.stringContaining(`--report ${data} is the same file as the dataset of RUN_B (an input, which writing would destroy)`) });
    expect(readFileSync(data, "utf8")).toBe(jsonl([{ output: "a", expected: "a" }]));
    const twice = await run("run", data, "--config", config, "--no-db", "--out", join(dir, "o.jsonl"), "--summary", join(dir, ".", "o.jsonl"));
    expect(twice.err).toContain("is the same file as --out (one output would overwrite the other)");
    const stdin = await run("run", "-", "--config", config, "--no-db");
    expect(stdin).toMatchObject({ code: 2, err: expect.stringContaining("a dataset cannot be read from standard input") });
    const badName = await run("run", data, "--config", config, "--no-db", "--name", "two\nlines");
    expect(badName).toMatchObject({ code: 2, err: expect.stringContaining('--name takes a non-empty name with a visible character, without line breaks, control characters or bidirectional marks, overrides and isolates (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) or invisible characters (U+00AD, U+200B, U+2060–U+2064, U+FEFF), received "two\\nlines"') });
    expect((await run("run", data, "--config", config, "--no-db", "--name", " ")).code).toBe(2);
    // A name that shows nothing is quoted escaped, where it read as "" or a blank.
    for (const [blank, shown] of [["\u200d", '"\\u200d"'], ["\u3164", '"\\u3164"']] as const) {
      expect(await run("run", data, "--config", config, "--no-db", "--name", blank)).toMatchObject({ code: 2, err: expect.stringContaining(`--name takes a non-empty name with a visible character, without line breaks`) });
      expect((await run("run", data, "--config", config, "--no-db", "--name", blank)).err).toContain(`received ${shown}`);
    }
    // Trimming takes off spaces, not a control or invisible character around the name: refused as within it.
    for (const padded of ["nightly\n", "\tnightly", "\ufeffnightly", "nightly\u2028"]) {
      expect(await run("run", data, "--config", config, "--no-db", "--name", padded), JSON.stringify(padded)).toMatchObject({ code: 2, err: expect.stringContaining("--name takes a non-empty name with a visible character, without") });
    }
    expect((await run("run", data, "--config", config, "--no-db", "--name", " nightly ")).code).toBe(0);
    // Bidi marks, overrides and isolates reorder what a table or report prints around the name; C1 controls act like ESC.
    for (const c of ["\u061c", "\u200e", "\u200f", "\u202a", "\u202e", "\u2066", "\u2069", "\u2028", "\u0085", "\u009b", "\u007f", "\u001b", "\u200b", "\ufeff"]) {
      const bidi = await run("run", data, "--config", config, "--no-db", "--name", `prompt${c}b`);
      expect(bidi, JSON.stringify(c)).toMatchObject({ code: 2, err: expect.stringContaining("--name takes a non-empty name with a visible character, without") });
      // Quoted escaped, not acting on the terminal.
      expect(bidi.err).not.toContain(c);
    }
    // Other scripts, emoji and joiners are names like any other.
    expect((await run("run", data, "--config", config, "--no-db", "--name", "עברית مرحبا 👩‍💻")).code).toBe(0);
    // Not one row readable: the run says so and exits 2 rather than passing on nothing.
    const junk = await run("run", file("junk.jsonl", "not json\n[1]\n"), "--config", config, "--no-db");
    expect(junk).toMatchObject({ code: 2, err: expect.stringContaining("junk.jsonl: no row could be read (its rows' errors say why); nothing was scored") });
    for (const r of [missing, empty, badConfig, notJson, junitNoDb, overwrite, twice, stdin, badName, junk]) expect(r.err).not.toMatch(/\n\s+at /);
  });
});

/**
 * A database with a complete run "done" of `rows` rows (recorded by `simeval run`), and two runs without
 * a summary holding its first rows: `stopped` (aborted, as a run killed outright is found: incomplete,
 * no summary) and "live" (still running, `liveRows` rows). The caller closes `recorder`.
 */
async function runsWithoutSummary(rows: number, stopped: { name: string; rows: number }, liveRows: number) {
  const db = join(dir, "db.sqlite");
  const config = file("evals.json", evals([{ type: "exact_match" }]));
  const data = file("d.jsonl", jsonl(Array.from({ length: rows }, (_, i) => ({ id: i, output: "x", expected: "x" }))));
  expect((await run("run", data, "--config", config, "--db", db, "--name", "done")).code).toBe(0);
  const recorder = openSqliteStore(db);
  const done = (await recorder.findRun("done"))!;
  const doneRows = await collect(recorder.rows(done.id));
  const begin = (name: string) => recorder.beginRun({ name, dataset_path: data, dataset_hash: "h", evaluators: done.evaluators });
  const stoppedId = await begin(stopped.name);
  await recorder.addRows(stoppedId, doneRows.slice(0, stopped.rows));
  // Killed outright: its process is gone, and said nothing.
  const raw = new Database(db);
  raw.prepare("UPDATE runs SET pid = 999999999 WHERE id = ?").run(stoppedId); // no such process on this host
  raw.close();
  const live = await begin("live");
  await recorder.addRows(live, doneRows.slice(0, liveRows));
  return { db, recorder, stopped: stoppedId, live };
}

describe("simeval run refused before its first row", () => {
  it("leaves an earlier --out file as it was: a dataset missing, a folder, empty, or with a header and no row", async () => {
    const config = file("evals.json", evals([{ type: "exact_match" }]));
    const out = join(dir, "results.jsonl");
    const earlier = jsonl([{ row: 1, id: null, results: {} }]);
    mkdirSync(join(dir, "folder"));
    for (const dataset of [join(dir, "nope.jsonl"), join(dir, "folder"), file("empty.jsonl", ""), file("header.csv", "output,expected\n")]) {
      writeFileSync(out, earlier);
      const r = await run("run", dataset, "--config", config, "--no-db", "--out", out);
      expect(r.code, dataset).toBe(2);
      expect(readFileSync(out, "utf8"), dataset).toBe(earlier);
    }
    // A run that is run writes the file from its start.
    writeFileSync(out, earlier.repeat(10));
    expect((await run("run", file("d.jsonl", jsonl([{ output: "a", expected: "a" }])), "--config", config, "--no-db", "--out", out)).code).toBe(0);
    expect(readFileSync(out, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l).row)).toEqual([1]);
  });
});

describe("simeval run stopped by a failure", () => {
  it.skipIf(process.platform !== "linux")("says that an earlier --summary or --junit, not written, is from an earlier run (exit 3: --out on a full disk)", async () => {
    const config = file("evals.json", evals([{ type: "exact_match" }]));
    const data = file("d.jsonl", jsonl(Array.from({ length: 50 }, (_, i) => ({ id: i, output: "a", expected: "a" }))));
    const summary = file("summary.json", '{"earlier": true}\n');
    const junit = file("junit.xml", "<testsuites/>\n");
    const report = join(dir, "report.html");
    // /dev/full fails every write with ENOSPC: a disk that fills during the run.
    const r = await run("run", data, "--config", config, "--db", join(dir, "db.sqlite"), "--out", "/dev/full", "--summary", summary, "--junit", junit, "--report", report);
    expect(r.code).toBe(3);
    // Also which run was recorded as incomplete, and with how many rows (all 50 were recorded before the file's write failed).
    expect(r.err).toMatch(
      new RegExp(
        `simeval: --out /dev/full: cannot write \\(ENOSPC: no space left on device, write\\); the run (\\w+) is recorded as incomplete, with 50 rows; the file at ${summary} is from an earlier run, left as it was; the file at ${junit} is from an earlier run, left as it was\n`,
      ),
    );
    expect(r.err).not.toMatch(/\n\s+at /);
    expect(readFileSync(summary, "utf8")).toBe('{"earlier": true}\n');
    expect(existsSync(report)).toBe(false);
  });

  it.skipIf(process.platform !== "linux")("says nothing of an earlier file of --summary /dev/stdout on a file (the shell's, as `> summary.json` opens it)", () => {
    const config = file("evals.json", evals([{ type: "exact_match" }]));
    const data = file("d.jsonl", jsonl([{ output: "a", expected: "a" }]));
    const fd = openSync(join(dir, "summary.json"), "w");
    try {
      const argv = ["run", data, "--config", config, "--db", join(dir, "db.sqlite"), "--out", "/dev/full", "--summary", "/dev/stdout"];
      const r = spawnSync(process.execPath, ["--import", "tsx", "src/cli/bin.ts", ...argv], { cwd: root, encoding: "utf8", stdio: ["ignore", fd, "pipe"] });
      expect(r.status).toBe(3);
      expect(r.stderr).toMatch(/ENOSPC.*is recorded as incomplete, with 1 row\n$/);
      expect(r.stderr).not.toContain("earlier run");
    } finally {
      closeSync(fd);
    }
  });

  it("says that an earlier --out file is from an earlier run when the run stops with an error before its first row (the database refusing its rows)", async () => {
    const config = file("evals.json", evals([{ type: "exact_match" }]));
    const data = file("d.jsonl", jsonl([{ output: "a", expected: "a" }]));
    const db = join(dir, "db.sqlite");
    expect((await run("run", data, "--config", config, "--db", db)).code).toBe(0);
    const raw = new Database(db);
    raw.exec("CREATE TRIGGER refuse BEFORE INSERT ON rows BEGIN SELECT RAISE(FAIL, 'refused'); END");
    raw.close();
    const out = file("results.jsonl", jsonl([{ row: 1, id: "earlier", results: {} }]));
    const r = await run("run", data, "--config", config, "--db", db, "--out", out);
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/: refused; the run \w+ is recorded as incomplete, with 0 rows; the file at \S+results\.jsonl is from an earlier run, left as it was\n/);
    expect(readFileSync(out, "utf8")).toContain('"earlier"');
    // Not said of a file that the run created (empty).
    const created = join(dir, "created.jsonl");
    expect((await run("run", data, "--config", config, "--db", db, "--out", created)).err).not.toContain("earlier run");
    expect(readFileSync(created, "utf8")).toBe("");
  });
});

describe("simeval run on any number of threads", () => {
  it("writes the same results.jsonl, summary, report and JUnit with --workers 0, 1, 2 and 3 (apart from run ids and times): worst rows that tie on score go to the lowest rows", async () => {
    const words = ["the answer", "Paris", "PARIS", "café", "cafe\u0301", "👨‍👩‍👧‍👦", "🇫🇷", "שלום", "مرحبا", "東京", "", " "];
    const rows = Array.from({ length: 1200 }, (_, i) => {
      if (i % 97 === 3) return "{not json";
      const w = (k: number) => words[(i * k) % words.length] as string;
      const row: Record<string, unknown> = { id: `q${i}`, output: `${w(3)} ${w(5)}` };
      if (i % 13 !== 0) row["expected"] = i % 4 === 0 ? row["output"] : `${w(7)} ${w(11)}`;
      if (i % 211 === 5) [row["output"], row["expected"]] = ["long text ".repeat(1200), "long text ".repeat(1150)];
      return JSON.stringify(row);
    });
    const data = file("threads.jsonl", rows.join("\n") + "\n");
    const specs = [
      { type: "exact_match" },
      { type: "levenshtein", config: { unit: "grapheme" } },
      { type: "levenshtein_distance", config: { threshold: 4 } },
      { type: "jaccard_similarity" },
      { type: "tfidf_similarity", config: { idf: "dataset" } },
      { type: "tfidf_similarity", name: "chars", config: { tokenizer: "char_ngram", idf: "dataset" } },
    ];
    const config = file("evals.json", evals(specs));
    const outputs = async (workers: number) => {
      const at = (name: string) => join(dir, `${workers}-${name}`);
      const r = await run("run", data, "--config", config, "--db", join(dir, "db.sqlite"), "--name", "threads", "--workers", String(workers), "--out", at("out.jsonl"), "--summary", at("summary.json"), "--report", at("report.html"), "--junit", at("junit.xml"));
      expect(r.code).toBe(0);
      const { run_id: id, ...summary } = JSON.parse(readFileSync(at("summary.json"), "utf8"));
      const times = /\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+)?( UTC|Z)?/g;
      const report = readFileSync(at("report.html"), "utf8").replaceAll(id, "RUN").replace(times, "TIME");
      // The run's duration differs from run to run.
      const junit = readFileSync(at("junit.xml"), "utf8").replaceAll(id, "RUN").replace(times, "TIME").replace(/ time="\d+\.\d{3}"/g, ' time="SECONDS"');
      return { results: readFileSync(at("out.jsonl"), "utf8"), summary, report, junit, out: r.out.replaceAll(id, "RUN").replaceAll(at(""), "") };
    };
    const inline = await outputs(0);
    // exact_match's worst rows all score 0: the ten lowest such rows, in row order.
    const worstRows = [...inline.report.matchAll(/class="row worst-row" data-row="(\d+)"/g)].map((m) => Number(m[1]));
    expect(worstRows.slice(0, 10)).toEqual([...worstRows.slice(0, 10)].sort((a, b) => a - b));
    for (const workers of [1, 2, 3].filter((n) => n <= availableParallelism())) {
      const threaded = await outputs(workers);
      expect(threaded.results === inline.results, `results.jsonl, --workers ${workers}`).toBe(true);
      expect(threaded.summary).toEqual(inline.summary);
      expect(threaded.report === inline.report, `--report, --workers ${workers}`).toBe(true);
      expect(threaded.junit === inline.junit, `--junit, --workers ${workers}`).toBe(true);
      expect(threaded.out).toBe(inline.out);
    }
  });
});

describe("runs, show, baseline, compare and trend", () => {
  it("compare names a RUN that is a folder as one, where it said only that it was neither a results.jsonl file nor a run", async () => {
    const db = join(dir, "folder.sqlite");
    const config = file("evals.json", evals([{ type: "exact_match" }]));
    const rows = file("f.jsonl", jsonl([{ output: "a", expected: "a" }]));
    expect((await run("run", rows, "--config", config, "--db", db, "--name", "r")).code).toBe(0);
    const r = await run("compare", dir, "r", "--db", db);
    expect(r).toMatchObject({ code: 2, out: "" });
    expect(r.err).toContain(`simeval: ${JSON.stringify(dir)} is a folder, and no recorded run is named so; give a results.jsonl file in it, or a recorded run (id, name or id prefix)`);
  });

  it("show lists the evaluators one a line, with their config as run and their inputs, escaping what would act on the terminal", async () => {
    const db = join(dir, "show.sqlite");
    const specs = [{ type: "exact_match" }, { type: "levenshtein", name: "lev", config: { threshold: 0.5 }, inputs: { output: "$['an\u202eswer']" } }];
    const config = file("evals.json", evals(specs));
    const rows = file("show.jsonl", jsonl([{ "an\u202eswer": "a", expected: "a" }]));
    expect((await run("run", rows, "--config", config, "--db", db, "--name", "shown")).code).toBe(0);
    const lines = (await run("show", "shown", "--db", db)).out.split("\n");
    const at = lines.findIndex((l) => l.startsWith("evaluator "));
    expect(lines[at]).toMatch(/^evaluator\s+type\s+config\s+inputs$/);
    expect(lines[at + 2]).toMatch(/^exact_match\s+exact_match\s+\{"case_sensitive":false,"trim":true,"normalize_whitespace":false\}\s+-$/);
    expect(lines[at + 3]).toMatch(/^lev\s+levenshtein\s+\{"threshold":0\.5,"case_sensitive":false,"max_chars":10000,"unit":"code_point"\}\s+\{"output":"\$\['an\\u202eswer'\]"\}$/);
    expect(lines.join("\n")).not.toContain("\u202e");
  });

  it("trend's note on runs its filters leave out counts one run in the singular", async () => {
    const db = join(dir, "one.sqlite");
    const config = file("evals.json", evals([{ type: "exact_match" }]));
    const rows = file("one.jsonl", jsonl([{ output: "a", expected: "a" }]));
    expect((await run("run", rows, "--config", config, "--db", db, "--name", "only")).code).toBe(0);
    expect((await run("trend", "--db", db, "-n", "other")).out).toContain('No complete run named "other" (1 other complete run is recorded; `simeval runs` lists it).');
  });

  it("--fail-on-regression fails, as every gate does, when rows of the dataset could not be read", async () => {
    const db = join(dir, "lost.sqlite");
    const config = file("evals.json", evals([{ type: "levenshtein" }]));
    const rows = jsonl(Array.from({ length: 20 }, (_, i) => ({ id: i, output: `answer ${i}`, expected: `answer ${i}` })));
    expect((await run("run", file("good.jsonl", rows), "--config", config, "--db", db, "--name", "good")).code).toBe(0);
    expect((await run("baseline", "set", "good", "--db", db)).code).toBe(0);
    // The same rows and a line of bad JSON after them: nothing regressed on the rows compared.
    const lost = await run("run", file("lost.jsonl", `${rows}{not json\n`), "--config", config, "--db", db, "--baseline", "--fail-on-regression");
    expect(lost).toMatchObject({ code: 1, err: expect.stringContaining("simeval: 1 gate not met: --fail-on-regression") });
    expect(lost.err).toContain("--fail-on-regression: failed, 1 row of the dataset could not be read, and what was lost was not compared with the baseline\n");
    // A read that stopped (a JSON array broken after its rows): the rest of the file was lost, not "1 row".
    const items = Array.from({ length: 20 }, (_, i) => JSON.stringify({ id: i, output: `answer ${i}`, expected: `answer ${i}` }));
    const stopped = await run("run", file("stopped.json", `[${items.join(",\n")},\n{"output": "a", "expected": "a"]\n`), "--config", config, "--db", db, "--baseline", "--fail-on-regression");
    expect(stopped.err).toContain("--fail-on-regression: failed, the dataset was not read to its end, and what was lost was not compared with the baseline");
    expect(stopped.err).not.toContain("1 row of the dataset could not be read");
  });

  it("counts the evaluators in both runs as such where the baseline has one more, in the regression gate's failure", async () => {
    const db = join(dir, "db.sqlite");
    const specs = Array.from({ length: 7 }, (_, i) => ({ type: "levenshtein", name: `lev${i}` }));
    const base = Array.from({ length: 30 }, (_, i) => ({ id: i, expected: `answer number ${i}` }));
    const good = file("good.jsonl", jsonl(base.map((r) => ({ ...r, output: r.expected }))));
    const worse = file("worse.jsonl", jsonl(base.map((r) => ({ ...r, output: `the reply was ${r.id}` }))));
    expect((await run("run", good, "--config", file("seven.json", evals(specs)), "--db", db, "--name", "good")).code).toBe(0);
    expect((await run("baseline", "set", "good", "--db", db)).code).toBe(0);
    // The new run drops lev6: the six it has all regressed, which are not all of the baseline's seven.
    const second = await run("run", worse, "--config", file("six.json", evals(specs.slice(0, 6))), "--db", db, "--baseline", "--fail-on-regression");
    expect(second.code).toBe(1);
    expect(second.out).toContain("only in A (not compared): lev6");
    expect(second.err).toMatch(/^--fail-on-regression: failed, this run is significantly worse than the baseline good \(\w+\) on all 6 evaluators in both runs$/m);
  });

  it("records runs and compares two prompt variants on the same dataset", async () => {
    const db = join(dir, "db.sqlite");
    const config = file("evals.json", evals([{ type: "levenshtein" }, { type: "levenshtein_distance" }]));
    const base = Array.from({ length: 60 }, (_, i) => ({ id: i, expected: `answer number ${i}` }));
    const a = file("a.jsonl", jsonl(base.map((r) => ({ ...r, output: `answer numbr ${r.id}` }))));
    const b = file("b.jsonl", jsonl(base.map((r) => ({ ...r, output: `the reply was ${r.id}` }))));
    expect((await run("run", a, "--config", config, "--db", db, "--name", "good", "--out", join(dir, "a.out.jsonl"))).code).toBe(0);
    expect((await run("baseline", "set", "good", "--db", db)).out).toContain("baseline:");
    const gated = ["--junit", join(dir, "b.junit.xml"), "--summary", join(dir, "b.summary.json")];
    const second = await run("run", b, "--config", config, "--db", db, "--name", "worse", "--baseline", "--fail-on-regression", "--out", join(dir, "b.out.jsonl"), ...gated);
    expect(second.code).toBe(1);
    expect(second.out).toContain("Against the baseline:");
    const regression = "this run is significantly worse than the baseline good";
    expect(second.err).toMatch(/^--fail-on-regression: failed, this run is significantly worse than the baseline good \(\w+\) on levenshtein, levenshtein_distance$/m);
    expect(second.err).toContain("1 gate not met: --fail-on-regression\n");
    // CI sees why: the regression is a failed gate in --summary and in --junit.
    const summary = JSON.parse(readFileSync(join(dir, "b.summary.json"), "utf8"));
    expect(summary.gates).toEqual([{ name: "--fail-on-regression", passed: false, message: expect.stringContaining(regression) }]);
    expect(summary.baseline).toMatchObject({ regressed_on: ["levenshtein", "levenshtein_distance"] });
    // The baseline's id alone, beside its printed label, for a script that should not parse "NAME (ID)".
    const baselineId = (await run("baseline", "--db", db)).out.match(/^baseline: (\S+) \(good\)/)?.[1];
    expect(summary.baseline.run).toBe(`good (${summary.baseline.run_id})`);
    expect(summary.baseline.run_id).toBe(baselineId);
    // The comparison's figures (means, difference, interval, p-value, verdict, rows) as `compare --json` gives them,
    // where before they were in the text alone.
    const json = JSON.parse((await run("compare", "good", "worse", "--db", db, "--json")).out);
    expect(summary.baseline.comparison).toEqual(json);
    expect(summary.baseline.comparison.evaluators[0]).toMatchObject({ name: "levenshtein", n_pairs: 60, regressed: true, rows: { improved: 0, regressed: 60, unchanged: 0 } });
    expect(summary.baseline.comparison.verdict).toEqual({ regressed_on: summary.baseline.regressed_on, no_verdict_on: summary.baseline.no_verdict_on, withheld: null });
    expect(readFileSync(join(dir, "b.junit.xml"), "utf8")).toMatch(/<testcase[^>]*name="--fail-on-regression"[^>]*>\s*<failure[^>]*message="--fail-on-regression: failed, this run is significantly worse/);

    const runs = await run("runs", "--db", db);
    expect(runs.out).toMatch(/good/);
    expect(runs.out).toMatch(/worse/);
    expect(runs.out).toContain("* baseline");
    expect((await run("show", "worse", "--db", db)).out).toMatch(/status\s+complete/);
    expect((await run("show", "worse", "--db", db)).out).not.toContain("incomplete");

    const cmp = await run("compare", "good", "worse", "--db", db, "--fail-on-regression", "--report", join(dir, "c.html"));
    expect(cmp.code).toBe(1);
    expect(cmp.out).toMatch(/levenshtein\s+60\s+0\.9\d+\s+0\.\d+\s+-0\.\d+/);
    expect(cmp.out).toMatch(/levenshtein_distance\s+60\s+1\s+\d+/);
    expect(cmp.out).toContain("paired sign-flip permutation test");
    const html = readFileSync(join(dir, "c.html"), "utf8");
    expect(html).toContain("the reply was"); // the regressed rows' outputs, read back from the dataset

    // results.jsonl files compare the same way, without the database.
    const nowhere = join(dir, "none", "typo.db");
    const files = await run("compare", join(dir, "a.out.jsonl"), join(dir, "b.out.jsonl"), "--db", nowhere);
    expect(files.out).toMatch(/levenshtein\s+60/);
    // Reading commands never create a database: a mistyped --db says so.
    // Those that list what is recorded list nothing, as on an empty database (exit 0); those asked of a run say there is no database.
    // They warn of it on stderr: a mistyped --db listed nothing, and wrote a report of nothing, unsaid.
    const noneYet = `No runs recorded in ${nowhere} yet: \`simeval run DATASET --config EVALS.json\` records one.`;
    const noDatabase = `no run database at ${nowhere} (no such file), so there are no runs to show; \`simeval run\` records runs there (--db reads another)`;
    expect(await run("runs", "--db", nowhere)).toMatchObject({ code: 0, out: `${noneYet}\n`, err: `simeval: warning: ${noDatabase}\n` });
    const emptyReport = join(dir, "none.html");
    expect(await run("trend", "--db", nowhere, "--report", emptyReport)).toMatchObject({ code: 0, out: `${noneYet}\nReport: ${emptyReport}\n`, err: `simeval: warning: ${noDatabase}\n` });
    // The report asked for is written all the same: no runs, and why.
    expect(readFileSync(emptyReport, "utf8")).toContain(`<dt>Runs</dt><dd>0</dd>`);
    expect(readFileSync(emptyReport, "utf8")).toContain(`No runs recorded in ${nowhere} yet`);
    rmSync(emptyReport);
    const trendJson = await run("trend", "--db", nowhere, "--json");
    expect(trendJson.code).toBe(0);
    expect(JSON.parse(trendJson.out)).toEqual({ runs: [], evaluators: [], warnings: [noDatabase], notes: [noneYet], left_out: [] });
    expect(await run("baseline", "--db", nowhere)).toMatchObject({ code: 0, out: expect.stringContaining(`no baseline set: there is no run database at ${nowhere} yet;`) });
    for (const argv of [["show", "good"], ["baseline", "set", "good"], ["compare", "good", "worse"]]) {
      const r = await run(...argv, "--db", nowhere);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`no run database at ${nowhere}: \`simeval run\` records runs there`);
    }
    expect(existsSync(join(dir, "none"))).toBe(false);
    // An empty file (touch runs.db, a cache restored empty) is no database either: read, nothing is written into it.
    const empty = file("empty.db", "");
    const noneInEmpty = `No runs recorded in ${empty} yet: \`simeval run DATASET --config EVALS.json\` records one.`;
    const emptyWarning = `simeval: warning: no run database at ${empty} (the file there is empty), so there are no runs to show; \`simeval run\` records runs there (--db reads another)\n`;
    expect(await run("runs", "--db", empty)).toMatchObject({ code: 0, out: `${noneInEmpty}\n`, err: emptyWarning });
    expect(await run("trend", "--db", empty)).toMatchObject({ code: 0, out: `${noneInEmpty}\n`, err: emptyWarning });
    expect(await run("baseline", "--db", empty)).toMatchObject({ code: 0, out: expect.stringContaining(`no baseline set: there is no run database at ${empty} yet;`) });
    for (const argv of [["show", "good"], ["baseline", "set", "good"], ["compare", "good", "worse"]]) {
      const r = await run(...argv, "--db", empty);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`no run database at ${empty} (the file there is empty): \`simeval run\` records runs there`);
    }
    expect(readdirSync(dir).filter((f) => f.startsWith("empty.db"))).toEqual(["empty.db"]);
    expect(statSync(empty).size).toBe(0);
    // A --db under a file can never hold a database: every reading command says so, `runs` too (not "no runs yet").
    const notes = file("notes.txt", "x");
    for (const under of [join(notes, "sub.db"), join(notes, "deeper", "sub.db")]) {
      for (const argv of [["runs"], ["runs", "--json"], ["show", "good"], ["trend"], ["baseline"], ["compare", "good", "worse"], ["delete", "good"]]) {
        const r = await run(...argv, "--db", under);
        expect(r).toMatchObject({ code: 2, out: "" });
        expect(r.err).toContain(`no run database at ${under}: ${notes} is a file, not a folder, so no database can be under it; give --db the path of a database file`);
      }
    }
    expect((await run("compare", "good", "good", "--db", db, "--fail-on-regression")).code).toBe(0);
    const narrow = file("narrow.json", evals([{ type: "levenshtein" }, { type: "exact_match" }]));
    await run("run", a, "--config", narrow, "--db", db, "--name", "other-evaluators");
    const partial = await run("compare", "good", "other-evaluators", "--db", db, "--report", join(dir, "partial.html"));
    expect(partial.out).toContain("only in A (not compared): levenshtein_distance");
    expect(partial.out).toContain("only in B (not compared): exact_match");
    // The report names them too, where it left them out without a word.
    expect(readFileSync(join(dir, "partial.html"), "utf8")).toContain("Only in A (not compared): levenshtein_distance</p><p class=\"sub not-compared\">Only in B (not compared): exact_match</p>");
    expect((await run("compare", "good", "nothing-like-this", "--db", db)).err).toContain("neither a results.jsonl file nor a recorded run");

    const trend = await run("trend", "--db", db, "--report", join(dir, "t.html"));
    expect(trend.out).toMatch(/good[\s\S]*worse/);
    expect(trend.out).toMatch(/good\s+\S+ \S+\s+a\.jsonl/); // the dataset column
    expect(trend.err).toContain("these runs are on 2 datasets, whose means need not be comparable; --dataset PATH keeps the runs on one");
    expect(existsSync(join(dir, "t.html"))).toBe(true);
    const one = await run("trend", "--db", db, "--dataset", b);
    expect(one.out).toMatch(/worse/);
    expect(one.out).not.toMatch(/good/);
    expect(one.err).toBe("");
    expect((await run("trend", "--db", db, "-n", "no-such-name")).out).toContain('No complete run named "no-such-name" (3 other complete runs are recorded; `simeval runs` lists them).');

    // A RUN that names both a file and a recorded run is refused, not silently taken as the file.
    const both = join(dir, "a.out.jsonl");
    await run("run", a, "--config", config, "--db", db, "--name", both);
    const clash = await run("compare", both, "good", "--db", db);
    expect(clash.code).toBe(2);
    expect(clash.err).toContain(`"${both}" names both a file and the recorded run `);
    expect((await run("compare", `${dir}/./a.out.jsonl`, "good", "--db", db)).code).toBe(0); // another spelling of the path
    // So is one compared with another file: the database is read for the clash, though two files need none.
    const twoFiles = await run("compare", both, join(dir, "b.out.jsonl"), "--db", db);
    expect(twoFiles.code).toBe(2);
    expect(twoFiles.err).toContain(`"${both}" names both a file and the recorded run `);
  });

  it("compare gives the same intervals and p-values every time, whether the runs are given by id, id prefix, name or results.jsonl file, and whatever threads recorded them", async () => {
    const db = join(dir, "db.sqlite");
    const config = file("evals.json", evals([{ type: "exact_match" }, { type: "levenshtein" }, { type: "levenshtein_distance" }, { type: "jaccard_similarity" }, { type: "tfidf_similarity", config: { idf: "dataset" } }]));
    const words = ["paris", "lyon", "the", "capital", "is", "of", "france", "👍🏽", "é"];
    const text = (i: number, k: number) => Array.from({ length: 1 + (i % 5) }, (_, j) => words[(i * k + j * 7) % words.length]).join(" ");
    // Enough rows (and non-zero differences) that the p-value comes from random sign patterns, not the exact test.
    const base = Array.from({ length: 300 }, (_, i) => ({ id: `q${i}`, expected: i % 17 === 0 ? null : text(i, 3) }));
    const a = file("a.jsonl", jsonl(base.map((r, i) => ({ ...r, output: i % 2 ? r.expected : text(i, 5) }))));
    // B answers differently on every seventh row, better on some and worse on others: a p-value far from 0 and 1.
    const b = file("b.jsonl", jsonl(base.map((r, i) => ({ ...r, output: i % 2 === 1 !== (i % 7 === 0) ? r.expected : text(i, 4) }))));
    expect((await run("run", a, "--config", config, "--db", db, "--name", "A", "--out", join(dir, "a.out.jsonl"), "--workers", "2")).code).toBe(0);
    expect((await run("run", b, "--config", config, "--db", db, "--name", "B", "--out", join(dir, "b.out.jsonl"), "--workers", "0")).code).toBe(0);
    const ids = JSON.parse((await run("runs", "--db", db, "--json")).out) as { id: string; name: string }[];
    const id = (name: string) => ids.find((r) => r.name === name)?.id as string;
    /** The comparison table, without the two lines naming the runs. */
    const table = async (...refs: string[]) => {
      const r = await run("compare", ...refs, "--db", db);
      expect(r.code, r.err).toBe(0);
      return r.out.split("\n").slice(2).join("\n");
    };
    const byName = await table("A", "B");
    expect(byName).toMatch(/levenshtein\s+282\s+[\d.]+\s+[\d.]+\s+[+-][\d.]+\s+\[-[\d.]+, [\d.]+\]\s+0\.\d{4}\s/);
    expect(await table("A", "B")).toBe(byName);
    expect(await table(id("A"), id("B"))).toBe(byName);
    expect(await table(id("A").slice(0, 20), "B")).toBe(byName);
    expect(await table(join(dir, "a.out.jsonl"), join(dir, "b.out.jsonl"))).toBe(byName);
    expect(await table(join(dir, "a.out.jsonl"), id("B"))).toBe(byName);
    // Another seed, other resamples: the interval moves, which shows that it comes from them.
    expect((await run("compare", "A", "B", "--db", db, "--seed", "7")).out.split("\n").slice(2).join("\n")).not.toBe(byName);
    // A seed is an integer written in decimal: "" was taken as 0, "0x10" as 16, "1e3" as 1000.
    for (const seed of ["", " ", "0x10", "1e3", "1.0", "9007199254740993"]) {
      const r = await run("compare", "A", "B", "--db", db, "--seed", seed);
      expect(r.code, seed).toBe(2);
      expect(r.err).toContain(`--seed takes an integer such as 1 or 42 (negative too; used modulo 2^32), received ${JSON.stringify(seed)}`);
    }
    expect((await run("compare", "A", "B", "--db", db, "--seed", "-3")).code).toBe(0);
  });

  it("fails --baseline --fail-on-regression when an evaluator of the new run has no row scored in both runs: no verdict is not 'no regression'", async () => {
    const db = join(dir, "db.sqlite");
    const config = file("evals.json", evals([{ type: "exact_match" }, { type: "levenshtein" }]));
    const rows = Array.from({ length: 30 }, (_, i) => ({ id: i, output: `answer ${i}`, expected: `answer ${i}` }));
    expect((await run("run", file("a.jsonl", jsonl(rows)), "--config", config, "--db", db, "--name", "good")).code).toBe(0);
    expect((await run("baseline", "set", "good", "--db", db)).code).toBe(0);
    // The same outputs, but the new run reads its reference from a field the rows do not have: every row skipped.
    const moved = file("moved.json", evals([{ type: "exact_match" }, { type: "levenshtein", inputs: { expected: "$.reference" } }]));
    const summaryPath = join(dir, "s.json");
    const r = await run("run", file("b.jsonl", jsonl(rows)), "--config", moved, "--db", db, "--baseline", "--fail-on-regression", "--summary", summaryPath, "--report", join(dir, "b.html"));
    expect(r.code).toBe(1);
    expect(r.out).toContain("levenshtein: no row has a score in both runs");
    expect(r.err).toMatch(/^--fail-on-regression: failed, no row has a score in both this run and the baseline good \(\w+\) on levenshtein, so there is no verdict on it$/m);
    const summary = JSON.parse(readFileSync(summaryPath, "utf8"));
    expect(summary.baseline).toMatchObject({ regressed_on: [], no_verdict_on: ["levenshtein"] });
    expect(summary.gates).toContainEqual(expect.objectContaining({ name: "--fail-on-regression", passed: false }));
    // The report shows the gate too: its reader sees that the run failed it, and why.
    const html = readFileSync(join(dir, "b.html"), "utf8");
    expect(html).toContain(`<span class="badge fail">✗ 1 of 1 failed</span>`);
    expect(html).toMatch(/✗ failed<\/span> --fail-on-regression: no row has a score in both this run and the baseline good/);
    // Without the gate, the run stands (exit 0) and the comparison says it.
    const ungated = await run("run", file("b.jsonl", jsonl(rows)), "--config", moved, "--db", db, "--baseline");
    expect(ungated.code).toBe(0);
    expect(ungated.out).toContain("- (no pairs)");
  });

  it("delete resolves every run before deleting any, unsets the baseline it deletes, and --vacuum shrinks the file", async () => {
    const db = join(dir, "db.sqlite");
    const config = file("evals.json", evals([{ type: "levenshtein" }]));
    const data = file("d.jsonl", jsonl(Array.from({ length: 2_000 }, (_, i) => ({ id: i, output: `reply ${i}`, expected: `answer ${i}` }))));
    for (const name of ["one", "two", "three"]) expect((await run("run", data, "--config", config, "--db", db, "--name", name)).code).toBe(0);
    await run("baseline", "set", "two", "--db", db);
    const names = async () => JSON.parse((await run("runs", "--json", "--db", db)).out).map((r: { name: string }) => r.name);

    expect(await run("delete", "one", "no-such-run", "--db", db)).toMatchObject({ code: 2, err: expect.stringContaining('no recorded run matches "no-such-run"') });
    expect(await run("delete", "--db", db)).toMatchObject({ code: 2, err: expect.stringContaining("name the runs to delete") });
    expect(await names()).toEqual(["three", "two", "one"]);

    const deleted = await run("rm", "one", "two", "--db", db);
    expect(deleted.code).toBe(0);
    expect(deleted.out).toMatch(/deleted \w+ \(one\): 2,000 rows\ndeleted \w+ \(two\): 2,000 rows\nit was the baseline/);
    expect(deleted.out).toContain("is free space that new runs reuse; `simeval delete --vacuum` gives it back");
    expect(await names()).toEqual(["three"]);
    const only = JSON.parse((await run("runs", "--json", "--db", db)).out)[0].id as string;
    expect((await run("show", only.slice(0, 3), "--db", db)).code).toBe(0); // a unique prefix, however short, names it
    expect(await run("delete", only.slice(0, 3), "--db", db)).toMatchObject({ code: 2, err: expect.stringContaining("give at least 4 characters of the id") });
    expect((await run("baseline", "--db", db)).out).toContain("no baseline set");
    expect(await run("baseline", "show", "killed", "--db", db)).toMatchObject({ code: 2, err: expect.stringContaining('baseline show takes no run, received "killed"') });

    const recorder = openSqliteStore(db);
    const live = await recorder.beginRun({ name: "live", dataset_path: data, dataset_hash: "h", evaluators: [{ type: "exact_match" }] });
    expect(await run("delete", "three", "live", "--db", db)).toMatchObject({
      code: 2,
      err: expect.stringContaining(`run ${live} (live) is still being recorded by process ${process.pid} on this host; stop it before deleting it (nothing was deleted); that process is alive: the run ends when it does`),
    });
    // Vacuuming would hold the database past the lock timeout of the run being recorded: refused.
    expect(await run("delete", "three", "--vacuum", "--db", db)).toMatchObject({ code: 2, err: expect.stringContaining(`--vacuum: ${live} (live) is still being recorded`) });
    expect(await names()).toEqual(["live", "three"]);
    await recorder.close();
    expect(await names()).toEqual(["live", "three"]);
    expect((await run("delete", "live", "--db", db)).code).toBe(0); // closed unfinished: incomplete, deletable

    const vacuumed = await run("delete", "--vacuum", "--db", db);
    const [before, after] = [...vacuumed.out.matchAll(/([\d.]+) (kB|MB)/g)].map((m) => Number(m[1]) * (m[2] === "MB" ? 1000 : 1));
    expect(after).toBeLessThan((before as number) / 2);
    expect((await run("show", "three", "--db", db)).out).toMatch(/status\s+complete/);
  });

  it("delete --force deletes a run recorded as running by a process it cannot look up (another host), which otherwise blocks delete and --vacuum for good", async () => {
    const db = join(dir, "db.sqlite");
    const data = file("d.jsonl", jsonl([{ id: 1, output: "a", expected: "a" }]));
    const recorder = openSqliteStore(db);
    const stale = await recorder.beginRun({ name: "stale", dataset_path: data, dataset_hash: "h", evaluators: [{ type: "exact_match" }] });
    await recorder.addRows(stale, [{ row: 1, id: 1, results: {} }]);
    await recorder.close(); // marks it incomplete: recorded as running again below, by a process killed on another host
    const raw = new Database(db);
    raw.prepare("UPDATE runs SET status = 'running', host = 'ci-runner-7', pid = 1 WHERE id = ?").run(stale);
    raw.close();
    const hint = `a run whose process was killed on another host or in another container stays recorded as running: \`simeval abort ${stale} --force\` marks it incomplete keeping its rows, \`simeval delete ${stale} --force\` deletes it`;
    expect(await run("delete", "stale", "--db", db)).toMatchObject({ code: 2, err: expect.stringContaining(`still being recorded by process 1 on host ci-runner-7; stop it where it runs before deleting it (nothing was deleted); ${hint}`) });
    expect(await run("delete", "--vacuum", "--db", db)).toMatchObject({ code: 2, err: expect.stringContaining(hint) });
    const forced = await run("delete", "stale", "--force", "--vacuum", "--db", db);
    expect(forced).toMatchObject({ code: 0, out: expect.stringMatching(new RegExp(`^deleted ${stale} \\(stale\\): 1 row$`, "m")) });
    expect(forced.out).toContain("vacuumed");
    expect((await run("runs", "--db", db)).out).toContain("No runs recorded");
  });

  it("delete and --vacuum say that a run no process owns stays running until finished or aborted, and --force deletes it; runs --json and show --json give owner", async () => {
    const db = join(dir, "db.sqlite");
    const data = file("d.jsonl", jsonl([{ id: 1, output: "a", expected: "a" }]));
    expect((await run("run", data, "--config", file("evals.json", evals([{ type: "exact_match" }])), "--db", db, "--name", "cli")).code).toBe(0);
    const recorder = openSqliteStore(db);
    const svc = await recorder.beginRun({ name: "svc", dataset_path: "traces", dataset_hash: "", evaluators: [{ type: "exact_match" }] }, { owner: "none" });
    const stale = await recorder.beginRun({ name: "stale", dataset_path: data, dataset_hash: "h", evaluators: [{ type: "exact_match" }] });
    await recorder.close(); // svc stays running; stale is marked incomplete, then recorded as running by a process on another host
    const raw = new Database(db);
    raw.prepare("UPDATE runs SET status = 'running', host = 'ci-runner-7', pid = 1 WHERE id = ?").run(stale);
    raw.close();

    const unowned = `${svc} (svc) is owned by no process (begun with owner "none", as a service begins its runs), so it stays running until some process finishes or aborts it: \`simeval finish RUN\` marks it complete with the summary of its stored rows, \`simeval abort RUN\` marks it incomplete keeping its rows, and \`simeval delete RUN --force\` deletes it`;
    const killedElsewhere = "a run whose process was killed on another host or in another container stays recorded as running";
    const refused = await run("delete", "svc", "--db", db);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(`run ${svc} (svc) is still being recorded; finish or abort it before deleting it (nothing was deleted); ${unowned}`);
    expect(refused.err).not.toContain(killedElsewhere); // no process was ever killed: that hint would mislead
    const vacuum = await run("delete", "--vacuum", "--db", db);
    expect(vacuum.code).toBe(2);
    expect(vacuum.err).toContain(`(nothing was deleted); ${killedElsewhere}: \`simeval abort ${stale} --force\` marks it incomplete keeping its rows, \`simeval delete ${stale} --force\` deletes it; ${unowned}`);

    const listed = JSON.parse((await run("runs", "--json", "--db", db)).out) as { name: string; owner: string; process: unknown }[];
    expect(listed.map((r) => [r.name, r.owner, r.process])).toEqual([
      ["stale", "process", { pid: 1, host: "ci-runner-7" }],
      ["svc", "none", null],
      ["cli", "process", { pid: expect.any(Number), host: THIS_HOST }],
    ]);
    expect(JSON.parse((await run("show", "svc", "--json", "--db", db)).out)).toMatchObject({ id: svc, status: "running", owner: "none", rows_recorded: 0 });
    expect(JSON.parse((await run("show", "cli", "--json", "--db", db)).out)).toMatchObject({ status: "complete", owner: "process" });

    expect(await run("delete", "svc", "--force", "--db", db)).toMatchObject({ code: 0, out: expect.stringMatching(new RegExp(`^deleted ${svc} \\(svc\\): 0 rows$`, "m")) });
  });

    it("compare reads results.jsonl files: types from the first row every evaluator scored, a bad line named wherever it is", async () => {
    const config = file("evals.json", evals([{ type: "exact_match" }, { type: "levenshtein_distance", inputs: { output: "$.answer[*]" } }]));
    // Row 1's answer has two values: levenshtein_distance cannot score it, so its type comes from row 2.
    const rows = (extra: string) => Array.from({ length: 40 }, (_, i) => ({ id: i, answer: i === 0 ? ["a", "b"] : [`answer ${i}${extra}`], output: "x", expected: `answer ${i}` }));
    await run("run", file("a.jsonl", jsonl(rows(""))), "--config", config, "--no-db", "--out", join(dir, "a.out.jsonl"));
    await run("run", file("b.jsonl", jsonl(rows(" and more"))), "--config", config, "--no-db", "--out", join(dir, "b.out.jsonl"));
    const r = await run("compare", join(dir, "a.out.jsonl"), join(dir, "b.out.jsonl"));
    expect(r.code).toBe(0);
    // A distance: lower is closer, so A (distance 0) is the closer run.
    expect(r.out).toMatch(/levenshtein_distance\s+39\s+0\s+9\s+\+9\s+\[9, 9\]\s+<0\.0001\s+A\s/);
    const lines = readFileSync(join(dir, "b.out.jsonl"), "utf8").split("\n");
    lines[29] = "{oops";
    const bad = file("bad.jsonl", lines.join("\n"));
    const broken = await run("compare", join(dir, "a.out.jsonl"), bad);
    expect(broken.code).toBe(2);
    expect(broken.err).toContain(`${bad}:30: not valid JSON`);
    expect(broken.out).not.toContain("levenshtein_distance");
  });

  it("compare refuses a results.jsonl whose score is not a number or whose type is unknown (exit 2), rather than dropping or misreading it", async () => {
    const score = file("score.jsonl", '{"row":1,"results":{"x":{"type":"levenshtein","score":"high"}}}\n');
    const r = await run("compare", score, score);
    expect(r).toMatchObject({ code: 2, out: "" });
    expect(r.err).toContain(`${score}:1: evaluator "x": "score" must be a finite number or null, from -2^53 to 2^53 (no evaluator scores beyond; larger ones overflow the comparison's sums), received string "high"`);
    // The first pass (the evaluators' types) reads only row 1: a bad row further on is refused as the comparison reads it.
    const type = file("type.jsonl", '{"row":1,"results":{"x":{"type":"levenshtein","score":0.5}}}\n{"row":2,"results":{"x":{"type":"nope","score":0.5}}}\n');
    const t = await run("compare", type, type);
    expect(t).toMatchObject({ code: 2 });
    expect(t.err).toContain(`${type}:2: evaluator "x": "type" must be one of the registered evaluator types (exact_match, levenshtein, levenshtein_distance,`);
    expect(t.out).not.toContain("pairs");
  });

  it("a run in which an evaluator scored no row cannot be the baseline, and a baseline that has one cannot be gated on", async () => {
    const db = join(dir, "db.sqlite");
    const config = file("evals.json", evals([{ type: "exact_match" }, { type: "levenshtein", inputs: { expected: "$.answr" } }]));
    const data = file("d.jsonl", jsonl([{ output: "a", expected: "a", answer: "a" }, { output: "b", expected: "b", answer: "b" }]));
    // levenshtein skipped every row (its expected path is a typo); --count-skipped-as-zero's zeros are no scores either.
    expect((await run("run", data, "--config", config, "--db", db, "--name", "typo")).code).toBe(0);
    expect((await run("run", data, "--config", config, "--db", db, "--name", "zeros", "--count-skipped-as-zero")).code).toBe(0);
    expect((await run("run", data, "--config", file("good.json", evals([{ type: "exact_match" }])), "--db", db, "--name", "good")).code).toBe(0);
    expect((await run("baseline", "set", "good", "--db", db)).code).toBe(0);
    for (const ref of ["typo", "zeros"]) {
      const r = await run("baseline", "set", ref, "--db", db);
      expect(r).toMatchObject({ code: 2, out: "" });
      expect(r.err).toMatch(new RegExp(`run \\w+ \\(${ref}\\) cannot be the baseline: levenshtein \\(every row skipped\\) scored no row in it, so a comparison with it could not show a regression on it; .*\\(the baseline is unchanged\\)`));
    }
    expect((await run("baseline", "--db", db)).out).toContain("(good)");
    // A baseline set otherwise (by an earlier simeval, or the library): a gate on it is refused before the run, a comparison warns.
    const store = openSqliteStore(db);
    await store.setBaseline((await store.findRun("typo"))!.id);
    await store.close();
    const rows = (await run("runs", "--json", "--db", db)).out;
    const gated = await run("run", data, "--config", config, "--db", db, "--baseline", "--fail-on-regression");
    expect(gated.code).toBe(2);
    expect(gated.err).toMatch(/--fail-on-regression: the baseline \w+ \(typo\): levenshtein \(every row skipped\) scored no row in it, so a comparison with it cannot show a regression on it; `simeval baseline set RUN`/);
    expect((await run("runs", "--json", "--db", db)).out).toBe(rows); // nothing was run
    const warned = await run("run", data, "--config", config, "--db", db, "--baseline");
    expect(warned.code).toBe(0);
    expect(warned.err).toMatch(/simeval: warning: --baseline: the baseline \w+ \(typo\): levenshtein \(every row skipped\) scored no row in it/);
    expect(warned.out).toContain("Against the baseline:");
    // A run without that evaluator is not compared on it: the gate stands.
    const narrow = await run("run", data, "--config", file("good.json", evals([{ type: "exact_match" }])), "--db", db, "--baseline", "--fail-on-regression");
    expect(narrow).toMatchObject({ code: 0, err: expect.not.stringContaining("scored no row") });
  });

  it("run --baseline compares with a baseline not read from a dataset file (a service's, with null dataset_path and dataset_hash)", async () => {
    const db = join(dir, "db.sqlite");
    const rows = Array.from({ length: 30 }, (_, i) => ({ id: i, output: `answer ${i}`, expected: `answer ${i}` }));
    const recorder = openSqliteStore(db);
    const svc = await recorder.beginRun({ name: "svc", dataset_path: null, dataset_hash: null, evaluators: [{ type: "exact_match" }] }, { owner: "none" });
    const result = { exact_match: { type: "exact_match", score: 1, passed: true, label: "pass", reasoning: null, details: null, skipped: false } };
    await recorder.appendRows(svc, rows.map((r) => ({ id: r.id, results: result })) as never);
    const em = { name: "exact_match", type: "exact_match", direction: "maximize", threshold: null, n: 30, skipped: 0, errors: 0, mean: 1, median: 1, p10: 1, p90: 1, min: 1, max: 1, pass_rate: 1, verdicts: 30 } as const;
    await recorder.finishRun(svc, { rows: 30, row_errors: 0, skipped_as_zero: false, evaluators: [em] });
    await recorder.close();
    expect(await run("baseline", "set", "svc", "--db", db)).toMatchObject({ code: 0, out: expect.stringContaining(`baseline: ${svc}`) });
    const data = file("d.jsonl", jsonl(rows));
    const r = await run("run", data, "--config", file("evals.json", evals([{ type: "exact_match" }])), "--db", db, "--baseline", "--fail-on-regression", "--report", join(dir, "r.html"));
    expect(r.code).toBe(0);
    expect(r.out).toContain("Against the baseline:");
    expect(r.out).toMatch(/exact_match\s+30\s+1\s+1\s/);
    expect(r.err).not.toContain("null");
  });

  it("trend shows an evaluator that scored no row in a run as such, not as the dash of a run without it", async () => {
    const db = join(dir, "db.sqlite");
    const data = file("t.jsonl", jsonl([{ output: "abc", expected: "abd" }]));
    await run("run", data, "--config", file("a.json", evals([{ type: "levenshtein" }, { type: "exact_match" }])), "--db", db, "--name", "a");
    await run("run", data, "--config", file("b.json", evals([{ type: "levenshtein", inputs: { expected: "$.nope" } }])), "--db", db, "--name", "b");
    const t = await run("trend", "--db", db, "--report", join(dir, "t.html"));
    expect(t.out).toMatch(/^#2\s+b\s.*\sno row scored\s+-$/m);
    expect(readFileSync(join(dir, "t.html"), "utf8")).toContain("no row scored in the latest run; last mean");
  });

  it("trend --report draws each evaluator's threshold as the latest run has it", async () => {
    const db = join(dir, "db.sqlite");
    const data = file("t.jsonl", jsonl([{ output: "abc", expected: "abd" }]));
    for (const threshold of [0.5, 0.9]) await run("run", data, "--config", file("e.json", evals([{ type: "levenshtein", config: { threshold } }])), "--db", db);
    expect((await run("trend", "--db", db, "--report", join(dir, "t.html"))).code).toBe(0);
    expect(readFileSync(join(dir, "t.html"), "utf8")).toContain('class="threshold" data-value="0.9"');
  });

  it("trend --dataset also keeps the runs on the same content at another path (a moved folder), marked as matched by content", async () => {
    const db = join(dir, "db.sqlite");
    const config = file("evals.json", evals([{ type: "levenshtein" }]));
    const text = jsonl([{ output: "abc", expected: "abd" }]);
    mkdirSync(join(dir, "old"));
    mkdirSync(join(dir, "new"));
    const old = join(dir, "old", "d.jsonl");
    const moved = join(dir, "new", "d.jsonl");
    writeFileSync(old, text);
    expect((await run("run", old, "--config", config, "--db", db, "--name", "before-move")).code).toBe(0);
    writeFileSync(moved, text);
    rmSync(join(dir, "old"), { recursive: true });
    expect((await run("run", moved, "--config", config, "--db", db, "--name", "after-move")).code).toBe(0);
    expect((await run("run", file("other.jsonl", jsonl([{ output: "x", expected: "y" }])), "--config", config, "--db", db, "--name", "other")).code).toBe(0);
    const t = await run("trend", "--db", db, "--dataset", moved, "--report", join(dir, "t.html"));
    expect(t.code).toBe(0);
    expect(t.out).toMatch(new RegExp(`before-move\\s+\\S+ \\S+\\s+${old.replace(/[.\\]/g, "\\$&")} \\(same content\\)`));
    expect(t.out).toMatch(new RegExp(`after-move\\s+\\S+ \\S+\\s+${moved.replace(/[.\\]/g, "\\$&")}\\s`));
    expect(t.out).not.toMatch(/^other\s/m);
    expect(t.out).toContain(`(same content): recorded at another path, matched by content: its dataset's sha256 is that of ${moved}`);
    expect(t.err).toBe("");
    expect(readFileSync(join(dir, "t.html"), "utf8")).toContain("matched by content");
    // The file at the old path is gone: its runs are matched by path, as before.
    const gone = await run("trend", "--db", db, "--dataset", old);
    expect(gone.out).toContain("before-move");
    expect(gone.out).not.toContain("after-move");
    expect(gone.out).not.toContain("matched by content");
    // A directory is no dataset file: a wrong argument (exit 2), as for `run`, not a filter that keeps no run.
    const folder = join(dir, "new");
    const bad = await run("trend", "--db", db, "--dataset", folder);
    expect(bad).toMatchObject({ code: 2, out: "" });
    expect(bad.err).toContain(`--dataset ${folder}: is a directory; expected a dataset file (.jsonl, .json or .csv)`);
    expect(await run("run", folder, "--config", config, "--db", db)).toMatchObject({ code: 2, err: expect.stringContaining(`${folder}: is a directory; expected a dataset file (.jsonl, .json or .csv)`) });
  });

  it("run and compare reports mark jaccard and tfidf rows by the words each text lacks, split and cased as the evaluator does", async () => {
    const db = join(dir, "db.sqlite");
    const expected = ["the cat sat down", "yes no", "مرحبا يا عالم", "我喜欢吃苹果"];
    const outputs = ["down sat cat the", "no no no yes", "مرحبا بالعالم", "我喜欢吃香蕉"];
    const config = file("evals.json", evals([{ type: "jaccard_similarity" }, { type: "tfidf_similarity", name: "grams", config: { tokenizer: "char_ngram", ngram_size: 2 } }]));
    await run("run", file("a.jsonl", jsonl(expected.map((e) => ({ output: e, expected: e })))), "--config", config, "--db", db, "--name", "A");
    const r = await run("run", file("b.jsonl", jsonl(expected.map((e, i) => ({ output: outputs[i], expected: e })))), "--config", config, "--db", db, "--name", "B", "--report", join(dir, "r.html"));
    expect(r.code).toBe(0);
    const c = await run("compare", "A", "B", "--db", db, "--report", join(dir, "c.html"));
    expect(c.code).toBe(0);
    const mark = (cls: string, text: string) => `<mark class="${cls}" title="${cls === "missing" ? "missing from the output" : "not in the expected text"}">${text}</mark>`;
    for (const html of [readFileSync(join(dir, "r.html"), "utf8"), readFileSync(join(dir, "c.html"), "utf8")]) {
      const section = (name: string) => {
        // A heading's name may wrap between its parts ("jaccard_<wbr>similarity").
        const start = html.search(new RegExp(`<h2>(<bdi>)?${name.replaceAll("_", "_(<wbr>)?")}`));
        expect(start).toBeGreaterThan(-1);
        return html.slice(start, html.indexOf("</section>", start));
      };
      const jaccard = section("jaccard_similarity");
      expect(jaccard).toContain("words of the expected text that the output does not have anywhere");
      expect(jaccard).toContain(`مرحبا ${mark("missing", "يا")} ${mark("missing", "عالم")}</pre>`);
      expect(jaccard).toContain(`مرحبا ${mark("extra", "بالعالم")}</pre>`);
      expect(jaccard).toContain(`${mark("missing", "我喜欢吃苹果")}</pre>`);
      expect(jaccard).not.toMatch(/<mark class="\w+" title="[^"]*">(the|cat|sat|down|yes|no)<\/mark>/);
      const grams = section("grams");
      expect(grams).toContain("characters of the expected text in no 2-character sequence the output also has");
      expect(grams).toContain(`我喜欢吃${mark("missing", "苹果")}</pre>`);
    }
    // The run report lists each worst row's missing and extra tokens, for tfidf as for jaccard.
    const runHtml = readFileSync(join(dir, "r.html"), "utf8");
    const grams = runHtml.slice(runHtml.search(/<h2>(<bdi>)?grams/));
    expect(grams.slice(0, grams.indexOf("</section>"))).toMatch(/<div class="tokens"><span><b>\d+<\/b> shared<\/span>/);
  });

  it("compare warns when the runs have different row counts, and leaves out a name given to different types", async () => {
    const db = join(dir, "db.sqlite");
    const rows = Array.from({ length: 30 }, (_, i) => ({ output: `answer ${i}`, expected: `answer ${i % 3 ? i : "x"}` }));
    await run("run", file("a.jsonl", jsonl(rows)), "--config", file("ea.json", evals([{ type: "levenshtein" }, { type: "exact_match" }])), "--db", db, "--name", "A");
    await run("run", file("b.jsonl", jsonl(rows.slice(0, 20))), "--config", file("eb.json", evals([{ type: "jaccard_similarity", name: "levenshtein" }, { type: "exact_match" }])), "--db", db, "--name", "B");
    const r = await run("compare", "A", "B", "--db", db, "--report", join(dir, "c.html"));
    expect(r.code).toBe(0);
    expect(r.out).toContain("warning: A has 30 rows and B 20: only the 20 row numbers in both are compared");
    // The HTML comparison says the same, and shows each dataset file rather than warning that they differ.
    const html = readFileSync(join(dir, "c.html"), "utf8");
    expect(html).toContain("⚠ A has 30 rows and B 20: only the 20 row numbers in both are compared");
    expect(html).toContain("<dt>Dataset B</dt>");
    expect(r.out).toContain("warning: levenshtein is levenshtein in A but jaccard_similarity in B: not compared");
    expect(r.out).toContain("20 rows in both runs (A 30, B 20)");
    const table = r.out.split("\n").filter((l) => /^(levenshtein|exact_match)\s/.test(l));
    expect(table.map((l) => l.split(/\s+/)[0])).toEqual(["exact_match"]);
  });

  it("compare --report shows no texts from a dataset file that is missing or changed since the run, and says so once", async () => {
    const db = join(dir, "db.sqlite");
    const config = file("ev.json", evals([{ type: "levenshtein", config: { threshold: 0.8 } }, { type: "exact_match" }]));
    const expected = ["hello world", "foo bar", "abc"];
    const rows = (outputs: string[]) => jsonl(outputs.map((output, i) => ({ id: "abc"[i], expected: expected[i], output })));
    const a = file("Am.jsonl", rows(["hello world", "foo baz", "xyz"]));
    const b = file("Bm.jsonl", rows(["hello wrld", "foo bar", "abd"]));
    await run("run", a, "--config", config, "--db", db, "--name", "am", "--out", join(dir, "a.out.jsonl"));
    await run("run", b, "--config", config, "--db", db, "--name", "bm", "--out", join(dir, "b.out.jsonl"));
    const intact = await run("compare", "am", "bm", "--db", db, "--report", join(dir, "ok.html"));
    expect(intact.err).not.toContain("texts unavailable");
    expect(readFileSync(join(dir, "ok.html"), "utf8")).toContain("hello wrld");

    rmSync(a);
    file("Bm.jsonl", jsonl([{ id: "zzz", expected: "CHANGED", output: "CHANGED" }]));
    const r = await run("compare", "am", "bm", "--db", db, "--report", join(dir, "mod.html"));
    expect(r.code).toBe(0);
    const note = `texts unavailable: the dataset of A (${a}) is missing; the dataset of B (${b}) has changed since the run`;
    expect(r.err).toContain(`simeval: warning: ${note}`);
    const html = readFileSync(join(dir, "mod.html"), "utf8");
    expect(html).not.toContain("CHANGED");
    expect(html).not.toContain("(empty)");
    expect(html).toContain(`⚠ ${note}`);
    expect(html).toContain("(text unavailable)");

    // results.jsonl files record no dataset: the same note rather than "(empty)" everywhere.
    const files = await run("compare", join(dir, "a.out.jsonl"), join(dir, "b.out.jsonl"), "--report", join(dir, "files.html"));
    expect(files.err).toContain("is a results.jsonl file, which records no dataset");
    expect(readFileSync(join(dir, "files.html"), "utf8")).not.toContain("(empty)");
  });

  it("compare warns when an evaluator's config differs between the runs, in the text and the HTML report", async () => {
    const db = join(dir, "db.sqlite");
    const data = file("cs.jsonl", jsonl([{ output: "hello", expected: "Hello" }, { output: "a ", expected: "a" }, { output: "b", expected: "B" }]));
    await run("run", data, "--config", file("e1.json", evals([{ type: "exact_match" }])), "--db", db, "--name", "loose");
    await run("run", data, "--config", file("e2.json", evals([{ type: "exact_match", config: { case_sensitive: true, trim: false } }])), "--db", db, "--name", "strict");
    const r = await run("compare", "loose", "strict", "--db", db, "--report", join(dir, "c.html"));
    const warning = "exact_match: config differs between the runs (case_sensitive: false vs true; trim: true vs false)";
    expect(r.out).toContain(`warning: ${warning}`);
    expect(readFileSync(join(dir, "c.html"), "utf8")).toContain(`⚠ ${warning}`);
    // The same config written in another key order, or with its defaults spelled out, is the same config.
    await run("run", data, "--config", file("e3.json", evals([{ type: "exact_match", config: { trim: false, case_sensitive: true, normalize_whitespace: false } }])), "--db", db, "--name", "again");
    expect((await run("compare", "strict", "again", "--db", db)).out).not.toContain("differs");
  });

  it("--fail-on-regression gives no verdict on runs whose ids disagree or without a baseline (exit 2), and needs --baseline on run", async () => {
    const db = join(dir, "db.sqlite");
    const config = file("evals.json", evals([{ type: "exact_match" }]));
    const a = file("a.jsonl", jsonl(Array.from({ length: 8 }, (_, i) => ({ id: `q${i}`, output: "x", expected: "x" }))));
    const b = file("b.jsonl", jsonl(Array.from({ length: 8 }, (_, i) => ({ id: `other${i}`, output: "y", expected: "x" }))));
    await run("run", a, "--config", config, "--db", db, "--name", "A");
    await run("run", b, "--config", config, "--db", db, "--name", "B");
    const warned = await run("compare", "A", "B", "--db", db);
    expect(warned.code).toBe(0);
    expect(warned.out).toContain("disagree on the id of 8 rows");
    const gated = await run("compare", "A", "B", "--db", db, "--fail-on-regression");
    expect(gated.code).toBe(2);
    expect(gated.err).toContain("the runs are not on the same dataset, so there is no verdict");
    const unset = await run("run", b, "--config", config, "--db", db, "--baseline", "--fail-on-regression");
    expect(unset.code).toBe(2);
    expect(unset.err).toContain("--fail-on-regression: no baseline is set");
    expect((await run("runs", "--db", db)).out.match(/complete/g)).toHaveLength(2);
    expect(await run("baseline", "set", "A", "--db", db)).toMatchObject({ code: 0 });
    const stepSummary = join(dir, "step.summary.json");
    const step = await run("run", b, "--config", config, "--db", db, "--baseline", "--fail-on-regression", "--summary", stepSummary);
    expect(step.code).toBe(2);
    expect(step.err).toContain("no verdict");
    expect(JSON.parse(readFileSync(stepSummary, "utf8")).summary.rows).toBeGreaterThan(0); // the run's own files are still written
    // ...and say that the regression gate had no verdict, rather than list no gate at all.
    expect(JSON.parse(readFileSync(stepSummary, "utf8")).gates).toEqual([
      { name: "--fail-on-regression", passed: false, message: expect.stringMatching(/^--fail-on-regression: failed, .*so there is no verdict/) },
    ]);
    const alone = await run("run", b, "--config", config, "--db", db, "--fail-on-regression");
    expect(alone.code).toBe(2);
    expect(alone.err).toContain("--fail-on-regression gates the comparison with the baseline; add --baseline");
  });

  it("run --baseline --fail-on-regression with no run database at --db (a fresh CI runner) says so, exit 2, and creates none", async () => {
    const db = join(dir, "fresh", "simeval.db");
    const data = file("fresh.jsonl", jsonl([{ output: "x", expected: "x" }]));
    const r = await run("run", data, "--config", file("fresh.json", evals([{ type: "exact_match" }])), "--db", db, "--baseline", "--fail-on-regression");
    expect(r.code).toBe(2);
    expect(r.err).toContain(`--fail-on-regression: there is no run database at ${db}, so no baseline to gate on (a CI runner starts without one unless the file is kept between jobs)`);
    expect(existsSync(join(dir, "fresh"))).toBe(false);
  });

  it("run --baseline without the gate, on a run database it creates, warns that no baseline is set and that this run created the database; not once it was there", async () => {
    const db = join(dir, "created", "simeval.db");
    const data = file("created.jsonl", jsonl([{ output: "x", expected: "x" }]));
    const args = ["run", data, "--config", file("created.json", evals([{ type: "exact_match" }])), "--db", db, "--baseline"];
    const first = await run(...args);
    expect(first.code).toBe(0);
    expect(first.err).toContain(`--baseline: no baseline is set yet (this run created the run database ${db}: a CI runner starts without one unless the file is kept between jobs); \`simeval baseline set RUN\` marks a known-good run`);
    const summary = join(dir, "created-summary.json");
    const report = join(dir, "created-report.html");
    const second = await run(...args, "--summary", summary, "--report", report);
    expect(second.code).toBe(0);
    // The report says it too, in a warning box.
    expect(readFileSync(report, "utf8")).toMatch(/class="warnbox">⚠ --baseline: no baseline is set yet;/);
    expect(second.err).toContain("--baseline: no baseline is set yet; `simeval baseline set RUN` marks a known-good run");
    expect(second.err).not.toContain("this run created");
    // A script reading summary.json is told why `baseline` is null, as the terminal was.
    const json = JSON.parse(readFileSync(summary, "utf8"));
    expect(json.baseline).toBeNull();
    expect(json.warnings).toEqual(["--baseline: no baseline is set yet; `simeval baseline set RUN` marks a known-good run"]);
  });

  it("compare refuses runs with no evaluator in common (exit 2, naming each side's), with or without --fail-on-regression", async () => {
    const db = join(dir, "db.sqlite");
    const data = file("d.jsonl", jsonl(Array.from({ length: 6 }, (_, i) => ({ id: i, output: `a ${i}`, expected: `a ${i}` }))));
    await run("run", data, "--config", file("ea.json", evals([{ type: "levenshtein" }])), "--db", db, "--name", "A", "--out", join(dir, "a.out.jsonl"));
    await run("run", data, "--config", file("eb.json", evals([{ type: "exact_match" }, { type: "jaccard_similarity" }])), "--db", db, "--name", "B", "--out", join(dir, "b.out.jsonl"));
    for (const gate of [[], ["--fail-on-regression"]]) {
      const r = await run("compare", "A", "B", "--db", db, ...gate);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/no evaluator in common: A \(\w+\) has levenshtein; B \(\w+\) has exact_match, jaccard_similarity; there is nothing to compare/);
      expect(r.out).not.toContain("only in A");
    }
    const files = await run("compare", join(dir, "a.out.jsonl"), join(dir, "b.out.jsonl"), "--fail-on-regression");
    expect(files).toMatchObject({ code: 2, err: expect.stringContaining("has exact_match, jaccard_similarity; there is nothing to compare") });
    // Against the baseline in the same step: the run stands (exit 0) unless the comparison is a gate (exit 2).
    expect((await run("baseline", "set", "A", "--db", db)).code).toBe(0);
    const eb = join(dir, "eb.json");
    const step = await run("run", data, "--config", eb, "--db", db, "--baseline");
    expect(step).toMatchObject({ code: 0, err: expect.stringContaining("simeval: warning: --baseline: no evaluator in common") });
    expect(step.out).not.toContain("Against the baseline");
    expect(await run("run", data, "--config", eb, "--db", db, "--baseline", "--fail-on-regression")).toMatchObject({ code: 2, err: expect.stringContaining("no evaluator in common") });
  });

  it("compare warns that a run is incomplete or still being recorded, in the text and the HTML report", async () => {
    const { db, recorder, stopped: cut, live } = await runsWithoutSummary(10, { name: "cut", rows: 7 }, 7);
    try {
      const r = await run("compare", "cut", "live", "--db", db, "--report", join(dir, "c.html"));
      expect(r.code).toBe(0);
      expect(r.out).toContain(`warning: A (cut, ${cut}) is incomplete: it covers only the rows recorded before it stopped`);
      expect(r.out).toContain(`warning: B (live, ${live}) is still being recorded: it covers only the rows recorded so far`);
      const html = readFileSync(join(dir, "c.html"), "utf8");
      expect(html).toContain(`is incomplete: it covers only the rows recorded before it stopped`);
      expect(html).toContain(`is still being recorded: it covers only the rows recorded so far`);
      expect((await run("compare", "done", "done", "--db", db)).out).not.toMatch(/incomplete|still being recorded/);
      // A gate gives no verdict on either, once the comparison is printed: on a shared database a name finds the
      // newest run of that name, which may be another CI job's still running.
      const gated = await run("compare", "done", "live", "--db", db, "--fail-on-regression");
      expect(gated.code).toBe(2);
      expect(gated.out).toContain("still being recorded");
      expect(gated.err).toContain(`--fail-on-regression: run B (live, ${live}) is still being recorded, so it covers only the rows recorded so far: there is no verdict`);
      expect(await run("compare", "cut", "done", "--db", db, "--fail-on-regression")).toMatchObject({ code: 2, err: expect.stringContaining(`run A (cut, ${cut}) is incomplete, so it covers only the rows recorded before it stopped`) });
      expect((await run("compare", "done", "done", "--db", db, "--fail-on-regression")).code).toBe(0);
      // compare --json, which a script reads the verdict from, says it is withheld: null when it is not.
      const json = JSON.parse((await run("compare", "done", "live", "--db", db, "--json")).out);
      expect(json.verdict.withheld).toBe(`run B (live, ${live}) is still being recorded, so it covers only the rows recorded so far: there is no verdict; compare a complete run (\`simeval runs\` lists them with their ids)`);
      expect(JSON.parse((await run("compare", "done", "done", "--db", db, "--json")).out).verdict.withheld).toBeNull();
    } finally {
      await recorder.close();
    }
  });

  it("show prints an incomplete run's stop reason with its control and bidi characters escaped; --json gives it as it was", async () => {
    const db = join(dir, "db.sqlite");
    const store = openSqliteStore(db);
    const id = await store.beginRun({ name: "odd", dataset_path: "d", dataset_hash: "h", evaluators: [{ type: "exact_match" }] });
    const reason = "stopped by an error: row \u001b[2J\u202eevil";
    await store.abortRun(id, null, reason);
    await store.close();
    const shown = (await run("show", "odd", "--db", db)).out;
    expect(shown).toContain("status   incomplete: stopped by an error: row \\u001b[2J\\u202eevil\n");
    expect(shown).not.toContain("\u001b");
    expect(JSON.parse((await run("show", "odd", "--json", "--db", db)).out).stop_reason).toBe(reason);
    expect(JSON.parse((await run("runs", "--json", "--db", db)).out)[0].stop_reason).toBe(reason);
  });

  it("prints a dataset or output path holding control, bidi or line-break characters escaped on stdout, in run, show, runs, trend and compare; --json gives it as it was", async () => {
    const name = "d\u001b[31m\u202e\nx\u2028.jsonl";
    const data = file(name, jsonl([{ id: 1, output: "a", expected: "a" }]));
    const config = file("evals.json", evals([{ type: "exact_match" }]));
    const db = join(dir, "db.sqlite");
    const report = join(dir, "r\u001b]0;t\u0007.html");
    const raw = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e\u2028]/;
    const outs = [
      await run("run", data, "--config", config, "--db", db, "--name", "n", "--report", report),
      await run("show", "n", "--db", db),
      await run("runs", "--db", db),
      await run("trend", "--db", db, "--report", report),
      await run("trend", "--db", db, "--dataset", join(dir, "other\u001b.jsonl")),
      await run("compare", "n", "n", "--db", db, "--report", report),
    ].map((r) => r.out);
    for (const out of outs) {
      expect(out).not.toMatch(raw);
      // Each line is its own: the path's line feed is written as \u000a.
      expect(out).not.toMatch(/^x\\u2028\.jsonl|^x\u2028/m);
    }
    expect(outs[0]).toContain(`${join(dir, "d")}\\u001b[31m\\u202e\\u000ax\\u2028.jsonl\n`);
    expect(outs[0]).toContain(`Report: ${join(dir, "r")}\\u001b]0;t\\u0007.html`);
    expect(outs[1]).toContain(`dataset  ${join(dir, "d")}\\u001b[31m\\u202e\\u000ax\\u2028.jsonl (sha256`);
    expect(JSON.parse((await run("show", "n", "--json", "--db", db)).out).dataset_path).toBe(data);
  });

  it("runs and show give the rows recorded by a run that has no summary (killed outright, or still running); trend names it as left out", async () => {
    const { db, recorder } = await runsWithoutSummary(1_234, { name: "killed", rows: 1_100 }, 40);
    try {
      const listed = (await run("runs", "--db", db)).out.split("\n");
      expect(listed.find((l) => l.includes(" killed "))).toMatch(/incomplete\s+1100\s/);
      expect(listed.find((l) => l.includes(" live "))).toMatch(/running\s+40\s/);
      expect(listed.find((l) => l.includes(" done "))).toMatch(/complete\s+1234\s/);
      const shown = (await run("show", "killed", "--db", db)).out;
      expect(shown).toContain("no summary (the run did not finish); 1,100 rows recorded");
      expect(shown).toContain(`status   incomplete: ${processGone(999999999)}\n`);
      // trend leaves them out, and says so.
      const trend = await run("trend", "--db", db);
      expect(trend.out).toMatch(/^#1\s+done\s/m);
      expect(trend.out).not.toMatch(/^#\d+\s+(killed|live)\s/m);
      expect(trend.out).toContain("left out: 1 incomplete run (killed) and 1 run still being recorded (live); trend shows complete runs only");
      expect((await run("trend", "--db", db, "-n", "killed")).out).toContain("left out: 1 incomplete run (killed)");
      expect((await run("trend", "--db", db, "-n", "done")).out).not.toContain("left out");
      expect((await run("show", "live", "--db", db)).out).toContain("no summary yet (the run is still being recorded); 40 rows recorded so far");
      // --json gives the same counts, for runs without a summary only.
      expect(JSON.parse((await run("show", "killed", "--json", "--db", db)).out)).toMatchObject({ summary: null, rows_recorded: 1_100 });
      const listedJson = JSON.parse((await run("runs", "--json", "--db", db)).out) as { name: string; rows_recorded?: number; stop_reason: string | null }[];
      expect(Object.fromEntries(listedJson.map((r) => [r.name, r.rows_recorded]))).toEqual({ done: undefined, killed: 1_100, live: 40 });
      expect(Object.fromEntries(listedJson.map((r) => [r.name, r.stop_reason]))).toEqual({ done: null, killed: processGone(999999999), live: null });
    } finally {
      await recorder.close();
    }
  });

  it("trend names the runs it leaves out oldest first, as its table lists runs, in the text and the HTML report", async () => {
    const { db, recorder } = await runsWithoutSummary(3, { name: "first", rows: 1 }, 1);
    try {
      const done = (await recorder.findRun("done"))!;
      for (const name of ["second", "third"]) await recorder.abortRun(await recorder.beginRun({ name, dataset_path: done.dataset_path, dataset_hash: "h", evaluators: done.evaluators }), null, "interrupted");
      const names = (await recorder.listRuns()).map((r) => r.name);
      expect(names).toEqual(["third", "second", "live", "first", "done"]); // newest first, as recorded
      const t = await run("trend", "--db", db, "--report", join(dir, "t.html"));
      expect(t.code).toBe(0);
      const note = "left out: 3 incomplete runs (first, second, third) and 1 run still being recorded (live)";
      expect(t.out).toContain(note);
      expect(readFileSync(join(dir, "t.html"), "utf8")).toContain(note);
    } finally {
      await recorder.close();
    }
  });

  it("RUN is an id, then a name, then an id prefix: a name that looks like an id prefix reaches its run, also for delete", async () => {
    const db = join(dir, "db.sqlite");
    const config = file("evals.json", evals([{ type: "exact_match" }]));
    const data = file("d.jsonl", jsonl([{ id: 1, output: "x", expected: "x" }]));
    expect((await run("run", data, "--config", config, "--db", db, "--name", "first")).code).toBe(0);
    const ids = async () => JSON.parse((await run("runs", "--json", "--db", db)).out) as { id: string; name: string }[];
    const first = (await ids())[0]!.id;
    // Named like the start of an id: 4 characters (every id of today starts so), and 3 (under delete's minimum prefix).
    for (const name of [first.slice(0, 4), first.slice(0, 3)]) {
      expect((await run("run", data, "--config", config, "--db", db, "--name", name)).code).toBe(0);
      expect((await run("show", name, "--db", db)).out).toMatch(new RegExp(`name\\s+${name}\n`));
    }
    const before = await ids();
    expect(await run("delete", first.slice(0, 3), "--db", db)).toMatchObject({ code: 0, out: expect.stringContaining(`(${first.slice(0, 3)}): 1 row\n`) });
    expect((await ids()).map((r) => r.name)).toEqual(before.map((r) => r.name).filter((n) => n !== first.slice(0, 3)));
    // No longer a name: the start of both remaining ids, which delete refuses like any ambiguous prefix.
    expect(await run("delete", first.slice(0, 3), "--db", db)).toMatchObject({ code: 2, err: expect.stringContaining("is the start of several run ids") });
    expect(await ids()).toHaveLength(2);
  });

  it("a --db that is a directory or not a SQLite database is a bad argument (exit 2), for run before any row is read", async () => {
    const notDb = file("notes.md", "# notes, not a database\n".repeat(100));
    for (const db of [notDb, dir]) {
      for (const argv of [["runs"], ["show", "x"], ["compare", "a", "b"], ["trend"]]) {
        const r = await run(...argv, "--db", db);
        expect(r.code).toBe(2);
        expect(r.err).toContain(`${db}: could not open the run store`);
        expect(r.err).toMatch(/not a SQLite database|the path is a directory/);
      }
    }
    const data = file("d.jsonl", jsonl([{ id: 1, output: "x", expected: "x" }]));
    const config = file("evals.json", evals([{ type: "exact_match" }]));
    const r = await run("run", data, "--config", config, "--db", notDb, "--out", join(dir, "o.jsonl"));
    expect(r).toMatchObject({ code: 2, err: expect.stringContaining("not a SQLite database") });
    expect(existsSync(join(dir, "o.jsonl"))).toBe(false);
    expect(readFileSync(notDb, "utf8")).toBe("# notes, not a database\n".repeat(100));
  });

  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)("%s leaves a database that opens, with the run marked incomplete and its rows kept", async (signal, exitCode) => {
    const rows = Array.from({ length: 200_000 }, (_, i) => ({ id: i, output: `output ${i} `.repeat(8), expected: `expected ${i} `.repeat(8) }));
    const data = file("big.jsonl", jsonl(rows));
    const config = file("evals.json", evals([{ type: "levenshtein" }, { type: "tfidf_similarity" }]));
    const db = join(dir, "db.sqlite");
    // A baseline whose ids disagree with this run's: its comparison has no verdict (exit 2 on a whole run), which
    // the interruption's exit code wins over.
    expect((await run("run", file("other.jsonl", jsonl([{ id: "q1", output: "a", expected: "a" }])), "--config", config, "--db", db, "--name", "base")).code).toBe(0);
    expect((await run("baseline", "set", "base", "--db", db)).code).toBe(0);
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/bin.ts", "run", data, "--config", config, "--db", db, "--name", "cut", "--workers", "1", "--summary", join(dir, "cut.json"), "--junit", join(dir, "cut.xml"), "--baseline", "--fail-on-regression"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    // Interrupt once rows are being recorded.
    await rowsRecorded(db, "cut");
    child.kill(signal);
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(stderr).toContain(`interrupted (${signal})`);
    expect(code).toBe(exitCode);
    expect(stderr).toMatch(/simeval: --fail-on-regression: runs .* disagree on the id of 1 row/);
    const store = openSqliteStore(db);
    const cut = await store.findRun("cut");
    expect(cut?.status).toBe("incomplete");
    expect(cut?.stop_reason).toBe(`interrupted (${signal})`);
    const kept = await collect(store.rows(cut!.id));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(200_000);
    expect(kept.map((r) => r.row)).toEqual(kept.map((_, i) => i + 1));
    expect(cut?.summary?.rows).toBe(kept.length);
    await store.close();
    // The summary file and JUnit say that the figures cover part of the dataset.
    const summary = JSON.parse(readFileSync(join(dir, "cut.json"), "utf8"));
    expect(summary).toMatchObject({ interrupted: true, summary: { rows: kept.length } });
    // The count is grouped by thousands, as every other count the CLI prints.
    const interrupted = `interrupted after ${kept.length.toLocaleString("en-US")} ${kept.length === 1 ? "row" : "rows"}: the figures cover those rows only`;
    expect(summary.gates[0]).toEqual({ name: "run completed", passed: false, message: interrupted });
    expect(stderr).toContain(interrupted);
    const junit = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(join(dir, "cut.xml"), "utf8"));
    const gates = [junit.testsuites.testsuite].flat().find((s: { "@_name": string }) => s["@_name"] === "simeval:gates");
    expect([gates.testcase].flat()[0]).toMatchObject({ "@_name": "run completed", failure: expect.anything() });
  });
});

describe("run interrupted, with an output that cannot be written", () => {
  it("exits as the failed write asks (2), not as the signal (130): the file asked for is missing", async () => {
    const rows = Array.from({ length: 200_000 }, (_, i) => ({ id: i, output: `output ${i} `.repeat(8), expected: `expected ${i} `.repeat(8) }));
    const data = file("big.jsonl", jsonl(rows));
    const config = file("evals.json", evals([{ type: "levenshtein" }]));
    const db = join(dir, "db.sqlite");
    const outputs = join(dir, "outputs");
    mkdirSync(outputs);
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/bin.ts", "run", data, "--config", config, "--db", db, "--name", "cut", "--workers", "1", "--summary", join(outputs, "s.json")], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    await rowsRecorded(db, "cut");
    // The folder of --summary is replaced by a file during the run: its write fails once the run stops.
    rmSync(outputs, { recursive: true });
    writeFileSync(outputs, "not a folder");
    child.kill("SIGINT");
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(stderr).toContain("interrupted (SIGINT)");
    expect(stderr).toContain(`--summary ${join(outputs, "s.json")}: cannot write`);
    expect(code).toBe(2);
  });
});

describe("run interrupted once every row is read", () => {
  it.each([
    ["SIGINT", "Ctrl-C"],
    ["SIGTERM", "SIGTERM"],
  ] as const)("%s before the run is recorded says that it is recorded complete, as it is, and exits 0", async (signal, again) => {
    const data = file("data.jsonl", jsonl(Array.from({ length: 40 }, (_, i) => ({ id: i, output: "a", expected: "a" }))));
    const config = file("evals.json", evals([{ type: "exact_match" }]));
    const db = join(dir, "db.sqlite");
    // The signal comes as the run is about to be recorded: every row is read and scored.
    const finishRun = SqliteRunStore.prototype.finishRun;
    vi.spyOn(SqliteRunStore.prototype, "finishRun").mockImplementation(function (this: SqliteRunStore, ...args) {
      process.emit(signal);
      return finishRun.apply(this, args);
    });
    try {
      const r = await run("run", data, "--config", config, "--db", db, "--name", "late", "--workers", "0");
      expect(r.err).toContain(`simeval: interrupted (${signal}) once every row was read; finishing the rows in flight and recording the run as complete… (${again} again to stop at once)`);
      expect(r.err).not.toContain("incomplete");
      expect(r.code).toBe(0);
      const store = openSqliteStore(db);
      expect(await store.findRun("late")).toMatchObject({ status: "complete", stop_reason: null, summary: { rows: 40 } });
      await store.close();
    } finally {
      vi.restoreAllMocks();
    }
  });
});

describe("delete --vacuum, interrupted as a real process", () => {
  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)("%s while the file is vacuumed abandons the vacuuming, says so, and leaves the file as it was", async (signal, exitCode) => {
    const db = join(dir, "db.sqlite");
    const store = openSqliteStore(db);
    for (const name of ["kept", "gone"]) {
      const id = await store.beginRun({ name, dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
      await store.addRows(id, Array.from({ length: 5_000 }, (_, i) => ({ row: i + 1, id: i, results: {} })));
      await store.finishRun(id, { rows: 5_000, row_errors: 0, skipped_as_zero: false, evaluators: [] } as never);
    }
    await store.deleteRun((await store.findRun("gone"))!.id);
    await store.close();
    const size = statSync(db).size;
    // Another process's write: the vacuum waits for it (up to its lock timeout), so the signal finds it still running.
    const writer = new Database(db);
    writer.exec("BEGIN IMMEDIATE");
    try {
      const child = spawn(process.execPath, ["--import", "tsx", "src/cli/bin.ts", "delete", "--vacuum", "--db", db], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
      let stderr = "";
      let stdout = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
      const said = new Promise<void>((resolve) =>
        child.stderr.on("data", (d: Buffer) => {
          stderr += d.toString();
          if (stderr.includes("vacuuming")) resolve();
        }),
      );
      await Promise.race([said, exited]);
      child.kill(signal);
      expect(await exited).toBe(exitCode);
      expect(stdout).toBe("");
      expect(stderr).toBe(
        `vacuuming ${db} (${(size / 1e6).toFixed(2)} MB): the whole file is rewritten; Ctrl-C abandons it, leaving the file as it was\n` +
          `simeval: interrupted (${signal}); vacuuming abandoned: ${db} is as it was before vacuuming\n`,
      );
    } finally {
      writer.exec("ROLLBACK");
      writer.close();
    }
    expect(statSync(db).size).toBe(size);
    const reopened = openSqliteStore(db);
    expect((await reopened.listRuns()).map((r) => r.name)).toEqual(["kept"]);
    expect(reopened.freeBytes()).toBeGreaterThan(0);
    await reopened.close();
  });
});

describe("a second Ctrl-C", () => {
  it("stops at once while embedding requests hang, and the run still shows as incomplete", async () => {
    const { startFakeOpenAI } = await import("./openai-server.js");
    const server = await startFakeOpenAI();
    server.delayMs = 120_000; // every request waits far longer than the test
    try {
      const data = file("hang.jsonl", jsonl(Array.from({ length: 20 }, (_, i) => ({ id: i, output: `answer ${i}`, expected: "reference" }))));
      const config = file("evals.json", evals([{ type: "semantic_similarity", config: { provider: "openai", base_url: server.url, api_key_env: "SIMEVAL_TEST_KEY", timeout_ms: 120_000 } }]));
      const db = join(dir, "db.sqlite");
      const child = spawn(process.execPath, ["--import", "tsx", "src/cli/bin.ts", "run", data, "--config", config, "--db", db, "--name", "hung", "--workers", "0"], {
        cwd: root,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, SIMEVAL_TEST_KEY: "sk-test" },
      });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
      const started = Date.now();
      while (server.requests.length === 0) {
        if (Date.now() - started > 60_000) throw new Error("the run never sent a request");
        await new Promise((r) => setTimeout(r, 100));
      }
      child.kill("SIGINT");
      while (!stderr.includes("Ctrl-C again")) await new Promise((r) => setTimeout(r, 50));
      const second = Date.now();
      child.kill("SIGINT");
      const { code, signal } = await exited;
      expect(Date.now() - second).toBeLessThan(10_000);
      expect(code === 130 || signal === "SIGINT").toBe(true);
      const store = openSqliteStore(db);
      // Stopped at once, it recorded nothing more: the next reader finds its process gone, and says so.
      expect(await store.findRun("hung")).toMatchObject({ status: "incomplete", stop_reason: signal === "SIGINT" ? processGone(child.pid!) : "interrupted (SIGINT)" });
      await store.close();
    } finally {
      await server.close();
    }
  });
});

/**
 * Runs `body` against a fake OpenAI embeddings server, with the key variable SIMEVAL_TEST_KEY set to
 * "sk-test-secret"; `openai(config)` is a semantic_similarity spec through it.
 */
async function withFakeOpenAI(body: (server: FakeOpenAI, openai: (config?: Record<string, unknown>) => Record<string, unknown>) => Promise<void>): Promise<void> {
  const { startFakeOpenAI } = await import("./openai-server.js");
  const server = await startFakeOpenAI();
  const openai = (config: Record<string, unknown> = {}) => ({ type: "semantic_similarity", config: { provider: "openai", base_url: server.url, api_key_env: "SIMEVAL_TEST_KEY", ...config } });
  process.env["SIMEVAL_TEST_KEY"] = "sk-test-secret";
  try {
    await body(server, openai);
  } finally {
    delete process.env["SIMEVAL_TEST_KEY"];
    await server.close();
  }
}

describe("semantic_similarity in a dataset run", () => {
  it("batches embedding calls across rows and embeds each text once, also across runs (the cache)", async () => {
    await withFakeOpenAI(async (server, openai) => {
      // 40 rows, one shared reference, 40 different outputs: 41 distinct texts.
      const rows = Array.from({ length: 40 }, (_, i) => ({ id: i, output: `answer number ${i}`, expected: "the reference answer" }));
      const data = file("sem.jsonl", jsonl(rows));
      const config = file("evals.json", evals([openai({ batch_size: 16, threshold: 0.1 })]));
      const db = join(dir, "db.sqlite");
      const first = await run("run", data, "--config", config, "--db", db, "--out", join(dir, "o.jsonl"), "--workers", "0");
      expect(first.code).toBe(0);
      const texts = server.requests.flatMap((r) => r.body.input);
      expect(new Set(texts).size).toBe(41);
      expect(texts).toHaveLength(41); // each distinct text embedded once
      expect(server.requests.length).toBe(Math.ceil(41 / 16));
      expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-test-secret");
      const line = JSON.parse(readFileSync(join(dir, "o.jsonl"), "utf8").split("\n")[0] as string);
      expect(line.results.semantic_similarity.details).toMatchObject({ provider: "openai", model: "text-embedding-3-small", embedded: true });
      expect(readFileSync(join(dir, "o.jsonl"), "utf8")).not.toContain("sk-test-secret");

      const before = server.requests.length;
      const again = await run("run", data, "--config", config, "--db", db, "--workers", "2");
      expect(again.code).toBe(0);
      expect(server.requests.length).toBe(before); // every text came from the run database's cache
    });
  });
});

describe("semantic_similarity through a service, on a dataset that would be split across threads", () => {
  it("scores on one thread by default, so that each distinct text is sent once", async () => {
    await withFakeOpenAI(async (server, openai) => {
      // Over 1 MiB (threads by default), 60 distinct texts repeated over 6,000 rows.
      const rows = Array.from({ length: 6000 }, (_, i) => ({ output: `answer ${i % 50}`, expected: `reference ${i % 10}`, metadata: { pad: "x".repeat(200) } }));
      const data = file("big-sem.jsonl", jsonl(rows));
      expect(statSync(data).size).toBeGreaterThan(1 << 20);
      const config = file("evals.json", evals([openai({ threshold: 0.1 }), { type: "levenshtein" }]));
      const r = await run("run", data, "--config", config, "--no-db");
      expect(r.code).toBe(0);
      const texts = server.requests.flatMap((q) => q.body.input);
      expect(texts).toHaveLength(60);
      expect(new Set(texts).size).toBe(60);
    });
  });
});

describe("a provider waiting before a retry", () => {
  it("says why on stderr, from the calling thread and from a scoring thread", { timeout: 30_000 }, async () => {
    await withFakeOpenAI(async (server, openai) => {
      const data = file("wait.jsonl", jsonl([{ output: "a b", expected: "a c" }]));
      const config = file("evals.json", evals([openai()]));
      for (const workers of ["0", "1"]) {
        server.faults.push({ kind: "status", status: 429, headers: { "retry-after": "5" }, message: "rate limited" });
        const r = await run("run", data, "--config", config, "--no-db", "--workers", workers);
        expect(r.code).toBe(0);
        expect(r.err).toContain("simeval: openai: HTTP 429: rate limited (server_error); retrying in 5 s as the server asks (retry 1 of 5)");
      }
    });
  });
});

describe("word_vectors in a dataset run", () => {
  it.each([["on the main thread", "0"], ["on scoring threads", "2"]])("a vectors file that cannot be loaded stops the run before its first row, naming the file (%s)", async (_, workers) => {
    const data = file("wv.jsonl", jsonl([{ output: "a cat", expected: "a dog" }]));
    const config = file("evals.json", evals([{ type: "semantic_similarity", config: { provider: "word_vectors", path: join(dir, "missing.vec"), cache_dir: join(dir, "vectors") } }]));
    const db = join(dir, `db-${workers}.sqlite`);
    const r = await run("run", data, "--config", config, "--db", db, "--out", join(dir, "o.jsonl"), "--workers", workers);
    expect(r.code).toBe(2);
    expect(r.err).toContain("missing.vec");
    expect(existsSync(join(dir, "o.jsonl"))).toBe(true);
    expect(readFileSync(join(dir, "o.jsonl"), "utf8")).toBe("");
    // No run was recorded.
    expect((await run("runs", "--db", db)).out).not.toMatch(/wv\.jsonl/);
  });

  it.each([["on the main thread", "0"], ["on scoring threads", "2"]])("a malformed vectors file is a config error (exit 2, as a missing one), naming the file and line (%s)", async (_, workers) => {
    const vectors = file("bad.vec", "cat 1 0 0\ndog 0 1\n");
    const data = file("wv.jsonl", jsonl([{ output: "a cat", expected: "a dog" }]));
    const config = file("evals.json", evals([{ type: "semantic_similarity", config: { provider: "word_vectors", path: vectors, cache_dir: join(dir, "vectors") } }]));
    const r = await run("run", data, "--config", config, "--no-db", "--out", join(dir, "o.jsonl"), "--workers", workers);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${vectors}:2: expected 4 fields (a word and 3 numbers, the dimension of the first line), found 3`);
    expect(r.err).not.toMatch(/\bat .*\.(js|ts):\d+/);
  });

  it.each([["on the main thread", "0"], ["on scoring threads", "2"]])("a vectors cache that cannot be written is a warning, as every warning is said (%s)", async (_, workers) => {
    const vectors = file(`nocache-${workers}.txt`, ["cat 1 0 0", "dog 0.9 0.1 0"].join("\n") + "\n");
    const blocker = file("blocker", "a file where the cache folder should be");
    const data = file("wv.jsonl", jsonl([{ output: "a cat", expected: "a dog" }]));
    const config = file("evals.json", evals([{ type: "semantic_similarity", config: { provider: "word_vectors", path: vectors, cache_dir: join(blocker, "vectors"), remove_components: 0 } }]));
    const summary = join(dir, `wv-${workers}.json`);
    const report = join(dir, `wv-${workers}.html`);
    const r = await run("run", data, "--config", config, "--no-db", "--workers", workers, "--summary", summary, "--report", report);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/^simeval: warning: word_vectors: could not write the vectors cache .*Set "cache_dir" to a writable folder\.$/m);
    // Said once, though each scoring thread loads the vectors and warns; in --summary and the report too.
    expect(r.err.match(/could not write the vectors cache/g)).toHaveLength(1);
    const warnings = JSON.parse(readFileSync(summary, "utf8")).warnings as string[];
    expect(warnings).toEqual([expect.stringMatching(/^word_vectors: could not write the vectors cache /)]);
    expect(readFileSync(report, "utf8")).toContain("word_vectors: could not write the vectors cache");
  });

  it("scores with a small GloVe file, through the binary cache", async () => {
    const vectors = file("tiny.txt", ["cat 1 0 0", "dog 0.9 0.1 0", "car 0 0 1", "a 0.1 0.1 0.1"].join("\n") + "\n");
    const data = file("wv2.jsonl", jsonl([{ output: "a cat", expected: "a dog" }, { output: "a cat", expected: "a car" }]));
    const config = file("evals.json", evals([{ type: "semantic_similarity", config: { provider: "word_vectors", path: vectors, cache_dir: join(dir, "vectors"), remove_components: 0 } }]));
    const r = await run("run", data, "--config", config, "--no-db", "--out", join(dir, "o.jsonl"));
    expect(r.code).toBe(0);
    const [near, far] = readFileSync(join(dir, "o.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l).results.semantic_similarity.score as number);
    expect(near).toBeGreaterThan(0.9);
    expect(far).toBeLessThan(near!);
  });

  it("shows the same worst rows with any number of threads: ties go to the lowest rows", async () => {
    // Rows wait for their embeddings, so they finish out of order, across batches and threads.
    const vectors = file("tiny.txt", ["cat 1 0 0", "car 0 0 1", "zzz 0 1 0"].join("\n") + "\n");
    // Every third row, and a few more, score 0 on both evaluators: far more ties than worst rows.
    const zero = (i: number) => i % 3 === 1 || i % 7 === 0;
    const rows = Array.from({ length: 3000 }, (_, i) => ({ output: zero(i + 1) ? "zzz" : "cat car", expected: "cat" }));
    const data = file("ties.jsonl", jsonl(rows));
    const config = file("evals.json", evals([{ type: "semantic_similarity", config: { provider: "word_vectors", path: vectors, cache_dir: join(dir, "vectors"), remove_components: 0 } }, { type: "jaccard_similarity" }]));
    const worstRows = async (workers: string) => {
      const report = join(dir, `r${workers}.html`);
      expect((await run("run", data, "--config", config, "--no-db", "--report", report, "--workers", workers)).code).toBe(0);
      const html = readFileSync(report, "utf8");
      return [...html.matchAll(/class="row worst-row" data-row="(\d+)"/g)].map((m) => Number(m[1]));
    };
    const lowest = rows.flatMap((_, i) => (zero(i + 1) ? [i + 1] : [])).slice(0, 10);
    const inline = await worstRows("0");
    expect(inline).toEqual([...lowest, ...lowest]); // both evaluators
    expect(await worstRows("2")).toEqual(inline);
  });
});
