import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { openSqliteStore } from "../../storage/sqlite.js";
import type { RowScores } from "../../run/row-scores.js";
import { runDataset } from "../../run/run-dataset.js";
import type { RowOutcome, RunInfo } from "../../run/types.js";
import { evalErrorOf, inTempDir } from "../../test-support.js";
import { renderComparisonReport } from "../../report/comparison-report.js";
import { loadRun, type LoadedRun } from "../run-ref.js";
import { cliOutput, expectReportWrittenWholeOnSignal, signalOnFirstRowRead } from "../test-support.js";
import { compare, compareCommand, comparisonJson, comparisonReportInput, jsonRowId, printComparison, refuseWithheldVerdict, withheldVerdict, refuseNoCommonEvaluator, regressionFailures, textsShown, type ComparisonJson } from "./compare.js";
import { formatFigure, formatSignedFigure } from "../format.js";
import { pDigits } from "../../report/format.js";

/** Rows 1..n, each scoring `score` on every named evaluator. */
function rows(names: readonly string[], n: number, score = 1): RowScores[] {
  return Array.from({ length: n }, (_, i) => ({ row: i + 1, id: `q${i + 1}`, scores: Object.fromEntries(names.map((name) => [name, score])) }));
}

/**
 * A loaded run with evaluators `types` (name → type): recorded with `status`, or a results.jsonl file
 * (no info) when `status` is null.
 */
function loaded(label: string, types: Record<string, string>, scored: RowScores[], status: RunInfo["status"] | null): LoadedRun {
  const info: RunInfo | null =
    status === null
      ? null
      : {
          id: `id-${label}`,
          name: label,
          started_at: "2025-01-01T00:00:00.000Z",
          finished_at: null,
          status,
          dataset_path: "data.jsonl",
          dataset_hash: "ab",
          evaluators: Object.entries(types).map(([name, type]) => ({ type, name })),
          summary: null,
          stop_reason: status === "incomplete" ? "interrupted" : null,
          owner: "process",
          process: { pid: 1, host: "test-host" },
        };
  const directions = Object.fromEntries(Object.keys(types).map((name) => [name, "maximize" as const]));
  return { label: info ? `${label} (${info.id})` : label, info, rows: () => scored, types, directions };
}

describe("compare", () => {
  it("warns, first, that a run is incomplete or still being recorded, in the text and the HTML report's input", async () => {
    const a = loaded("base", { em: "exact_match" }, rows(["em"], 10), "incomplete");
    const b = loaded("new", { em: "exact_match" }, rows(["em"], 8), "running");
    const c = await compare(a, b);
    expect(c.warnings.slice(0, 2)).toEqual([
      "A (base, id-base) is incomplete: it covers only the rows recorded before it stopped",
      "B (new, id-new) is still being recorded: it covers only the rows recorded so far",
    ]);
    expect(c.warnings[2]).toContain("A has 10 rows and B 8");
    expect(printComparison(c)).toContain("warning: A (base, id-base) is incomplete: it covers only the rows recorded before it stopped");
    expect((await comparisonReportInput(c, a, b)).warnings).toContain("B (new, id-new) is still being recorded: it covers only the rows recorded so far");
  });

  it("does not nest a run named after its side: a run named A is \"A (id-A)\", not \"A (A (id-A))\"", async () => {
    const c = await compare(loaded("A", { em: "exact_match" }, rows(["em"], 5), "incomplete"), loaded("B", { em: "exact_match" }, rows(["em"], 5), "running"));
    expect(c.warnings.slice(0, 2)).toEqual([
      "A (id-A) is incomplete: it covers only the rows recorded before it stopped",
      "B (id-B) is still being recorded: it covers only the rows recorded so far",
    ]);
  });

  it("goes on in further tables, each beginning with the evaluator, when the table is wider than the width", async () => {
    const types = { em: "exact_match", answer_matches_the_reference_answer_closely: "levenshtein" };
    const names = Object.keys(types);
    const c = await compare(loaded("a", types, rows(names, 30, 1), "complete"), loaded("b", types, rows(names, 30, 0), "complete"));
    const at80 = printComparison(c, 80).split("\n");
    const heads = at80.filter((l) => l.startsWith("evaluator "));
    expect(heads.length).toBeGreaterThan(1);
    expect(heads.flatMap((h) => h.split(/\s{2,}/).slice(1))).toEqual(["pairs", "mean A", "mean B", "B - A", "95% CI", "p", "closer to reference", "improved/regressed/same"]);
    for (const head of heads) expect(at80.slice(at80.indexOf(head) + 2, at80.indexOf(head) + 4).map((l) => l.split(/\s+/)[0])).toEqual(names);
    const table = at80.slice(at80.indexOf(heads[0] as string), at80.lastIndexOf(heads.at(-1) as string) + 4);
    for (const line of table) expect(line.length).toBeLessThanOrEqual(80);
    expect(printComparison(c).split("\n").filter((l) => l.startsWith("evaluator "))).toHaveLength(1);
  });

  it("wraps its sentences (warnings, methods, the closing In short) at spaces to the width, their words kept", async () => {
    const types = { em: "exact_match", lev: "levenshtein" };
    const c = await compare(loaded("a", types, rows(["em", "lev"], 30, 1), "incomplete"), loaded("b", types, rows(["em", "lev"], 30, 0), "complete"));
    const whole = printComparison(c).split("\n");
    const at60 = printComparison(c, Number.POSITIVE_INFINITY, 60).split("\n");
    expect(at60.filter((l) => l.length > 60 && !/^(evaluator|-+|em|lev) /.test(l))).toEqual([]);
    const words = (lines: string[]) => lines.join(" ").split(/\s+/).filter(Boolean);
    expect(words(at60)).toEqual(words(whole));
    expect(at60.length).toBeGreaterThan(whole.length + 3);
    expect(whole.some((l) => l.startsWith("p: two-sided") && l.length > 60)).toBe(true);
  });

  it("wraps the warnings, the evaluators only in one run and the notes on few pairs and few differing rows as it wraps the methods", async () => {
    const types = { em: "exact_match" };
    const c = await compare(loaded("a", { ...types, x: "exact_match" }, rows(["em", "x"], 5, 1), "incomplete"), loaded("b", types, rows(["em"], 3, 0), "complete"));
    const prose = /^(warning: |only in A|Fewer than 10 pairs|Too few rows differ)/;
    const whole = printComparison(c).split("\n");
    expect(whole.filter((l) => prose.test(l) && l.length > 24).map((l) => l.slice(0, 8))).toEqual(["warning:", "warning:", "only in ", "Fewer th", "Too few "]);
    const at24 = printComparison(c, Number.POSITIVE_INFINITY, 24).split("\n");
    expect(at24.filter((l) => prose.test(l) && l.length > 24)).toEqual([]);
    expect(at24.filter((l) => prose.test(l)).map((l) => l.slice(0, 8))).toEqual(["warning:", "warning:", "only in ", "Fewer th", "Too few "]);
  });

  it("says when an evaluator has too few pairs for its bootstrap interval to mean much", async () => {
    const run = (n: number, score: number) => loaded(`r${n}${score}`, { em: "exact_match" }, rows(["em"], n, score), "complete");
    const [a, b] = [run(3, 1), run(3, 0)];
    const c = await compare(a, b);
    expect(printComparison(c)).toContain("Fewer than 10 pairs (em): the bootstrap interval");
    expect((await comparisonReportInput(c, a, b)).warnings).toContainEqual(expect.stringContaining("Fewer than 10 pairs (em)"));
    expect(printComparison(await compare(run(10, 1), run(10, 0)))).not.toContain("Fewer than");
  });

  it("ends with the last column in one sentence: where B, or A, is significantly closer, where neither is, where nothing pairs", async () => {
    const types = { up: "exact_match", down: "exact_match", flat: "exact_match", few: "exact_match", none: "exact_match" };
    // B better on up, worse on down, alike on flat, better on 3 rows of few (no p below 0.05 can come of 3), unscored in A on none.
    const side = (b: boolean) =>
      Array.from({ length: 30 }, (_, i) => ({ row: i + 1, id: `q${i + 1}`, scores: { up: b ? 1 : 0, down: b ? 0 : 1, flat: 0.5, few: b && i < 3 ? 1 : 0, none: b ? 1 : null } }));
    const c = await compare(loaded("a", types, side(false), "complete"), loaded("b", types, side(true), "complete"));
    const last = printComparison(c).split("\n").at(-1);
    expect(last).toBe("In short: B is significantly closer to the reference on up; A is significantly closer to the reference on down; no significant difference on flat, few; no pairs to compare on none.");
    // Seen from the other side.
    const swapped = await compare(loaded("b", types, side(true), "complete"), loaded("a", types, side(false), "complete"));
    expect(printComparison(swapped).split("\n").at(-1)).toBe("In short: B is significantly closer to the reference on down; A is significantly closer to the reference on up; no significant difference on flat, few; no pairs to compare on none.");
    // Past five names, the others are counted (all of them: "all N evaluators").
    const many = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`ev${i}`, "exact_match"]));
    const all = await compare(loaded("a", many, rows(Object.keys(many), 30, 0), "complete"), loaded("b", many, rows(Object.keys(many), 30, 1), "complete"));
    expect(printComparison(all).split("\n").at(-1)).toBe("In short: B is significantly closer to the reference on all 7 evaluators.");
    // B has an eighth evaluator, not compared: "all 7" are those in both runs, not all of B's 8.
    const wider = { ...many, extra: "exact_match" };
    const onlyInB = await compare(loaded("a", many, rows(Object.keys(many), 30, 0), "complete"), loaded("b", wider, rows(Object.keys(wider), 30, 1), "complete"));
    expect(printComparison(onlyInB)).toContain("only in B (not compared): extra");
    expect(printComparison(onlyInB).split("\n").at(-1)).toBe("In short: B is significantly closer to the reference on all 7 evaluators in both runs.");
  });

  it("ends saying 'no significant difference', not 'significantly closer', where the interval favours B but p is not below 0.05", async () => {
    // 4 rows of 30 gained: the bootstrap interval excludes 0 (the column's "B (not significant)"), the sign-flip p is 2/16.
    const side = (b: boolean) => Array.from({ length: 30 }, (_, i) => ({ row: i + 1, id: `q${i + 1}`, scores: { gain4: b && i < 4 ? 1 : 0 } }));
    const c = await compare(loaded("a", { gain4: "exact_match" }, side(false), "complete"), loaded("b", { gain4: "exact_match" }, side(true), "complete"));
    expect([c.evaluators[0]!.better, c.evaluators[0]!.significant]).toEqual(["b", false]);
    expect(printComparison(c)).toMatch(/^gain4 .* B \(not significant\)/m);
    expect(printComparison(c).split("\n").at(-1)).toBe("In short: no significant difference on gain4.");
  });

  it("ends saying an evaluator with a single pair has no significant difference, not that it has no pairs", async () => {
    // `one` is scored in both runs on row 1 only: one pair, which can be no significant difference.
    const side = (b: boolean) => Array.from({ length: 10 }, (_, i) => ({ row: i + 1, id: `q${i + 1}`, scores: { one: i === 0 ? (b ? 1 : 0) : b ? null : 1 } }));
    const c = await compare(loaded("a", { one: "exact_match" }, side(false), "complete"), loaded("b", { one: "exact_match" }, side(true), "complete"));
    expect(c.evaluators[0]!.n_pairs).toBe(1);
    expect(printComparison(c).split("\n").at(-1)).toBe("In short: no significant difference on one.");
  });

  it("ends counting, past five names, those of some evaluators only as the first five and how many more, not as all of them", async () => {
    const seven = Array.from({ length: 7 }, (_, i) => `ev${i}`);
    const types = Object.fromEntries([...seven, "flat"].map((n) => [n, "exact_match"]));
    const side = (b: boolean) => Array.from({ length: 30 }, (_, i) => ({ row: i + 1, id: `q${i + 1}`, scores: { ...Object.fromEntries(seven.map((n) => [n, b ? 1 : 0])), flat: 0.5 } }));
    const c = await compare(loaded("a", types, side(false), "complete"), loaded("b", types, side(true), "complete"));
    const text = printComparison(c).split("\n");
    expect(text.at(-1)).toBe("In short: B is significantly closer to the reference on ev0, ev1, ev2, ev3, ev4 and 2 more evaluators; no significant difference on flat.");
    // A line of its own, after a blank one: the table or the rows that regressed most end above it.
    expect(text.at(-2)).toBe("");
  });

  it("ends saying neither run is closer, not 'no significant difference', where p is below 0.05 but the interval holds 0", async () => {
    // One large gain among many small losses: the sign-flip test finds p < 0.05, the percentile bootstrap an interval holding 0.
    const diffs = [-0.1909, -0.187, -0.1816, -0.1547, -0.1507, -0.143, -0.1396, -0.1256, -0.1137, -0.1134, -0.1077, -0.0963, -0.0906, -0.087, -0.0797, -0.0687, -0.0599, -0.0385, -0.0375, -0.0237, -0.0185, -0.0173, -0.0162, -0.0148, 0.0126, 0.0183, 0.0211, 0.0566, 0.0732, 0.5452];
    const side = (b: boolean) => diffs.map((d, i) => ({ row: i + 1, id: `q${i + 1}`, scores: { lev: b ? 0.4 + d : 0.4, em: b ? 1 : 0 } }));
    const types = { lev: "levenshtein", em: "exact_match" };
    const c = await compare(loaded("a", types, side(false), "complete"), loaded("b", types, side(true), "complete"));
    const lev = c.evaluators.find((e) => e.name === "lev")!;
    expect([lev.better, lev.significant, lev.p_value! < 0.05, lev.ci!.low < 0 && lev.ci!.high > 0]).toEqual(["same", true, true, true]);
    const text = printComparison(c);
    expect(text).toMatch(/^lev .* neither \(CI holds 0\)/m);
    expect(text.split("\n").at(-1)).toBe("In short: B is significantly closer to the reference on em; neither is closer to the reference (p is below 0.05, but the CI holds 0) on lev.");
    // The level is the comparison's own, as the p column's: a library's comparison at alpha 0.01 says so.
    expect(printComparison({ ...c, settings: { ...c.settings, alpha: 0.01 } }).split("\n").at(-1)).toContain("(p is below 0.01, but the CI holds 0) on lev.");
  });

  it("names at most five evaluators in its notes on few pairs and few differing rows, counting the others", async () => {
    const names = Array.from({ length: 8 }, (_, i) => `ev${i}`);
    const types = Object.fromEntries(names.map((n) => [n, "exact_match"]));
    const c = await compare(loaded("a", types, rows(names, 3, 1), "complete"), loaded("b", types, rows(names, 3, 0), "complete"));
    const text = printComparison(c);
    expect(text).toContain("Fewer than 10 pairs (all 8 evaluators): ");
    expect(text).toContain("(ev0: 3 rows, smallest p 0.25; ev1: 3 rows, smallest p 0.25; ev2: 3 rows, smallest p 0.25; ev3: 3 rows, smallest p 0.25; ev4: 3 rows, smallest p 0.25; and 3 more evaluators)");
    // A has a ninth evaluator, not compared: the eight are all of those in both runs.
    const wider = { ...types, extra: "exact_match" };
    const onlyInA = await compare(loaded("a", wider, rows(Object.keys(wider), 3, 1), "complete"), loaded("b", types, rows(names, 3, 0), "complete"));
    expect(printComparison(onlyInA)).toContain("Fewer than 10 pairs (all 8 evaluators in both runs): ");
  });

  it("says when too few rows differ for any p-value below alpha: every row worse on 5 rows is not significant, and the gate cannot fire", async () => {
    const run = (n: number, score: number) => loaded(`r${n}${score}`, { em: "exact_match" }, rows(["em"], n, score), "complete");
    // 5 rows, all worse: the exact p is 2 / 2^5 = 0.0625, above 0.05.
    const [a, b] = [run(5, 1), run(5, 0)];
    const c = await compare(a, b);
    expect(c.evaluators[0]).toMatchObject({ p_value: 0.0625, significant: false, regressed: false, rows: { improved: 0, regressed: 5, unchanged: 0 } });
    const note = "Too few rows differ between the runs for a p-value below 0.05 (em: 5 rows, smallest p 0.0625): no difference on these can be significant, and --fail-on-regression cannot fire on them; compare on more rows.";
    expect(printComparison(c)).toContain(note);
    expect((await comparisonReportInput(c, a, b)).warnings).toContain(note);
    // 6 rows that differ can reach p = 0.03125: no such note, and the regression is found.
    const six = await compare(run(6, 1), run(6, 0));
    expect(six.evaluators[0]?.regressed).toBe(true);
    expect(printComparison(six)).not.toContain("Too few rows differ");
    // Rows that do not differ do not count: 20 pairs, 3 of them worse.
    const mostlySame = await compare(loaded("x", { em: "exact_match" }, rows(["em"], 20, 1), "complete"), loaded("y", { em: "exact_match" }, rows(["em"], 20, 1).map((r, i) => (i < 3 ? { ...r, scores: { em: 0 } } : r)), "complete"));
    expect(printComparison(mostlySame)).toContain("(em: 3 rows, smallest p 0.25)");
    const oneDiffers = await compare(loaded("x", { em: "exact_match" }, rows(["em"], 20, 1), "complete"), loaded("y", { em: "exact_match" }, rows(["em"], 20, 1).map((r, i) => (i === 0 ? { ...r, scores: { em: 0 } } : r)), "complete"));
    expect(printComparison(oneDiffers)).toContain("(em: 1 row, smallest p 1)");
  });

  it("has no verdict on an evaluator without a pair, which fails --fail-on-regression rather than passing it as no regression", async () => {
    const skipped = rows(["em", "lev"], 12, 1).map((r) => ({ ...r, scores: { ...r.scores, lev: null } }));
    const a = loaded("base", { em: "exact_match", lev: "levenshtein" }, rows(["em", "lev"], 12, 1), "complete");
    const b = loaded("new", { em: "exact_match", lev: "levenshtein" }, skipped, "complete");
    const c = await compare(a, b);
    expect(c.evaluators.find((e) => e.name === "lev")).toMatchObject({ n_pairs: 0, regressed: false });
    expect(c.warnings).toEqual([expect.stringMatching(/^lev: no row has a score in both runs .* no verdict on it$/)]);
    expect(printComparison(c)).toMatch(/lev +0 .*- \(no pairs\)/);
    expect(printComparison(c)).not.toMatch(/lev .*neither \(CI holds 0\)/);
    expect(regressionFailures(c, "new", "base")).toEqual(["no verdict on lev: no row has a score in both runs, so --fail-on-regression fails"]);
    // compare --json's verdict names it as what the gate has no verdict on.
    expect(comparisonJson(c, a, b).verdict).toEqual({ regressed_on: [], no_verdict_on: ["lev"], withheld: null });
    // em has 12 equal pairs: no regression, and no failure once lev has pairs too.
    expect(regressionFailures(await compare(a, a), "base", "base")).toEqual([]);
  });

  it("gives the confidence level alike in the table's header, the methods note and the HTML report, from the comparison's alpha", async () => {
    const a = loaded("base", { em: "exact_match" }, rows(["em"], 12, 1), "complete");
    const b = loaded("new", { em: "exact_match" }, rows(["em"], 12, 0), "complete");
    const c = await compare(a, b);
    const strict = { ...c, settings: { ...c.settings, alpha: 0.001 } };
    for (const [comparison, level] of [[c, "95%"], [strict, "99.9%"]] as const) {
      expect(printComparison(comparison)).toMatch(new RegExp(`B - A +${level.replace(".", "\\.")} CI +p`));
      expect(printComparison(comparison)).toContain(`CI: ${level} paired percentile bootstrap`);
      const html = renderComparisonReport(await comparisonReportInput(comparison, a, b));
      expect(html).toContain(`B − A · ${level} CI`);
      expect(html).toContain(`CI: ${level} paired percentile bootstrap`);
    }
  });

  it("names at most five evaluators in the regression gate's failures, where a wide config would list them all", async () => {
    const names = Array.from({ length: 8 }, (_, i) => `em${i}`);
    const types = Object.fromEntries(names.map((n) => [n, "exact_match"]));
    // Six regress (all their rows fall from 1 to 0); em6 and em7 are the same in both runs.
    const worse = rows(names, 12, 1).map((r) => ({ ...r, scores: Object.fromEntries(names.map((n, i) => [n, i < 6 ? 0 : 1])) }));
    const c = await compare(loaded("base", types, rows(names, 12, 1), "complete"), loaded("new", types, worse, "complete"));
    expect(regressionFailures(c, "new", "base")).toEqual(["new is significantly worse than base on em0, em1, em2, em3, em4 and 1 more evaluator"]);
    const all = await compare(loaded("base", types, rows(names, 12, 1), "complete"), loaded("new", types, rows(names, 12, 0), "complete"));
    expect(regressionFailures(all, "new", "base")).toEqual(["new is significantly worse than base on all 8 evaluators"]);
    const narrower = Object.fromEntries(names.slice(0, 7).map((n) => [n, "exact_match"]));
    const onlyInA = await compare(loaded("base", types, rows(names, 12, 1), "complete"), loaded("new", narrower, rows(names.slice(0, 7), 12, 0), "complete"));
    expect(regressionFailures(onlyInA, "new", "base")).toEqual(["new is significantly worse than base on all 7 evaluators in both runs"]);
  });

  it("warns when some rows are in one run only, even when both runs have as many rows", async () => {
    const shifted = rows(["em"], 6).map((r) => ({ ...r, row: r.row + 1, id: `q${r.row + 1}` })); // rows 2–7
    const c = await compare(loaded("base", { em: "exact_match" }, rows(["em"], 6), "complete"), loaded("new", { em: "exact_match" }, shifted, "complete"));
    expect(c.warnings).toEqual(["A has 6 rows and B 6: only the 5 row numbers in both are compared (1 in A only, 1 in B only)"]);
    // None in both (a file renumbered): said as none, not as "only the 0 row numbers".
    const apart = rows(["em"], 3).map((r) => ({ ...r, row: r.row + 10 }));
    const none = await compare(loaded("base", { em: "exact_match" }, rows(["em"], 3), "complete"), loaded("new", { em: "exact_match" }, apart, "complete"));
    expect(none.warnings[0]).toBe("A has 3 rows and B 3: no row number is in both, so nothing is compared (3 in A only, 3 in B only)");
  });

  it("writes the row counts of one-run-only rows and of the text's header with thousands separators, and one row as such", async () => {
    const shifted = rows(["em"], 1500).map((r) => ({ ...r, row: r.row + 1, id: `q${r.row + 1}` })); // rows 2–1501
    const big = await compare(loaded("base", { em: "exact_match" }, rows(["em"], 1200), "complete"), loaded("new", { em: "exact_match" }, shifted, "complete"));
    expect(big.warnings).toEqual(["A has 1,200 rows and B 1,500: only the 1,199 row numbers in both are compared (1 in A only, 301 in B only)"]);
    expect(printComparison(big)).toContain("\n1,199 rows in both runs (A 1,200, B 1,500)\n");
    const one = await compare(loaded("base", { em: "exact_match" }, rows(["em"], 1), "complete"), loaded("new", { em: "exact_match" }, rows(["em"], 2), "complete"));
    expect(one.warnings).toEqual(["A has 1 row and B 2: only the 1 row number in both is compared (1 in B only)"]);
    expect(printComparison(one)).toContain("\n1 row in both runs (A 1, B 2)\n");
  });

  it("says nothing of status for complete runs and results.jsonl files", async () => {
    const c = await compare(loaded("base", { em: "exact_match" }, rows(["em"], 5), "complete"), loaded("b.jsonl", { em: "exact_match" }, rows(["em"], 5), null));
    expect(c.warnings).toEqual([]);
  });
});

describe("comparisonReportInput's texts of the regressed rows", () => {
  /** A dataset of 6 rows whose `a` is the reference and `b` is not, each text starting with `tag`. */
  const dataset = (path: string, tag: string) =>
    writeFileSync(path, Array.from({ length: 6 }, (_, i) => JSON.stringify({ id: `q${i + 1}`, ref: `${tag} ${i + 1}`, a: `${tag} ${i + 1}`, b: `${tag} other ${i + 1}` })).join("\n") + "\n");
  /** Records a run of exact_match on `path`, its output the field `field`: A on `a` scores 1 on each row, B on `b` 0. */
  const record = async (db: string, name: string, path: string, field: "a" | "b") => {
    const store = openSqliteStore(db);
    try {
      await runDataset({ dataset: path, name, store, workers: 0, evaluators: [{ type: "exact_match", inputs: { output: `$.${field}`, expected: "$.ref" } }] });
    } finally {
      await store.close();
    }
  };
  /** Compares runs "a" and "b" in `db`: each regressed row's output in A and in B, and why some texts are missing. */
  const reported = async (db: string) => {
    const store = openSqliteStore(db);
    try {
      const [a, b] = [await loadRun("a", store), await loadRun("b", store)];
      const input = await comparisonReportInput(await compare(a, b), a, b);
      const worst = input.evaluators[0]?.worst ?? [];
      expect(worst.map((w) => w.row)).toEqual([1, 2, 3, 4, 5, 6]);
      return { outputs: worst.map((w) => [w.output_a, w.output_b]), unavailable: input.texts_unavailable };
    } finally {
      await store.close();
    }
  };
  const rowsOf = (f: (i: number) => [string | null, string | null]) => Array.from({ length: 6 }, (_, i) => f(i + 1));

  it.each([
    // One file, one reader: each run's own mapping picks its output.
    ["one dataset file, each run's output from its own field", "shared"],
    // Two files: each run's texts from its own file.
    ["two dataset files of different texts", "two"],
    // One path whose content changed between the runs: A's texts are gone, B's are the file's; one reader for the path would lose B's too.
    ["one path rewritten between the runs", "rewritten"],
    // Two files of the same bytes, A's deleted since: B's texts are still there; one reader for the hash would lose them.
    ["two files of the same bytes, A's deleted since", "copied"],
  ] as const)("shows each run's own output: %s", async (_, how) => {
    await inTempDir("simeval-compare-texts-", async (dir) => {
      const db = join(dir, "simeval.db");
      const [first, second] = [join(dir, "first.jsonl"), join(dir, "second.jsonl")];
      if (how === "shared") {
        dataset(first, "t");
        await record(db, "a", first, "a");
        await record(db, "b", first, "b");
        expect(await reported(db)).toEqual({ outputs: rowsOf((i) => [`t ${i}`, `t other ${i}`]), unavailable: undefined });
      } else if (how === "two") {
        dataset(first, "first");
        dataset(second, "second");
        await record(db, "a", first, "a");
        await record(db, "b", second, "b");
        expect(await reported(db)).toEqual({ outputs: rowsOf((i) => [`first ${i}`, `second other ${i}`]), unavailable: undefined });
      } else if (how === "rewritten") {
        dataset(first, "old");
        await record(db, "a", first, "a");
        dataset(first, "new");
        await record(db, "b", first, "b");
        expect(await reported(db)).toEqual({ outputs: rowsOf((i) => [null, `new other ${i}`]), unavailable: [`the dataset of A (${first}) has changed since the run`] });
      } else {
        dataset(first, "same");
        copyFileSync(first, second);
        await record(db, "a", first, "a");
        await record(db, "b", second, "b");
        rmSync(first);
        expect(await reported(db)).toEqual({ outputs: rowsOf((i) => [null, `same other ${i}`]), unavailable: [`the dataset of A (${first}) is missing`] });
      }
    });
  });

  it("shows each evaluator's texts through each run's own mapping when two runs of two evaluators share one dataset file", async () => {
    await inTempDir("simeval-compare-texts-", async (dir) => {
      const db = join(dir, "simeval.db");
      const path = join(dir, "shared.jsonl");
      // Row i: x compares `ref` with A's `a` (equal) or B's `b`; y compares `ref2` with A's `c` (equal) or B's `d`.
      const texts = (i: number) => ({ id: `q${i}`, ref: `ref ${i}`, a: `ref ${i}`, b: `b ${i}`, ref2: `ref2 ${i}`, c: `ref2 ${i}`, d: `d ${i}` });
      writeFileSync(path, Array.from({ length: 4 }, (_, i) => JSON.stringify(texts(i + 1))).join("\n") + "\n");
      const evaluators = (x: string, y: string) => [
        { name: "x", type: "exact_match", inputs: { output: `$.${x}`, expected: "$.ref" } },
        { name: "y", type: "exact_match", inputs: { output: `$.${y}`, expected: "$.ref2" } },
      ];
      for (const [name, x, y] of [["a", "a", "c"], ["b", "b", "d"]] as const) {
        const store = openSqliteStore(db);
        try {
          await runDataset({ dataset: path, name, store, workers: 0, evaluators: evaluators(x, y) });
        } finally {
          await store.close();
        }
      }
      const store = openSqliteStore(db);
      try {
        const [a, b] = [await loadRun("a", store), await loadRun("b", store)];
        const input = await comparisonReportInput(await compare(a, b), a, b);
        const shown = (name: string) => input.evaluators.find((e) => e.name === name)?.worst.map((w) => [w.row, w.expected, w.output_a, w.output_b]);
        const rows = (f: (i: number) => unknown[]) => Array.from({ length: 4 }, (_, i) => f(i + 1));
        expect(shown("x")).toEqual(rows((i) => [i, `ref ${i}`, `ref ${i}`, `b ${i}`]));
        expect(shown("y")).toEqual(rows((i) => [i, `ref2 ${i}`, `ref2 ${i}`, `d ${i}`]));
        expect(input.texts_unavailable).toBeUndefined();
      } finally {
        await store.close();
      }
    });
  });
});

describe("textsShown", () => {
  it("says which run's texts the report shows when the other's could not be read back, and none when neither's could", () => {
    const input = (output_a: string | null, output_b: string | null) =>
      ({ evaluators: [{ worst: [{ row: 1, output_a, output_b }] }] }) as unknown as Parameters<typeof textsShown>[0];
    expect(textsShown(input("a", null))).toBe("the report shows A's outputs and the expected text, and B's scores without its outputs");
    expect(textsShown(input(null, "b"))).toBe("the report shows B's outputs and the expected text, and A's scores without its outputs");
    expect(textsShown(input(null, null))).toBe("the report shows the rows' scores without their texts");
  });
});

describe("runs whose rows hold their records (a service's, not read from a dataset file)", () => {
  it("compare and its JSON are what they are for the same rows without records: no record is copied into them", async () => {
    await inTempDir("simeval-compare-records-", async (dir) => {
      const store = openSqliteStore(join(dir, "simeval.db"));
      try {
        const evaluators = [{ type: "exact_match", name: "em" }];
        const em = (passed: boolean): RowOutcome["results"] => ({ em: { type: "exact_match", score: passed ? 1 : 0, passed, label: passed ? "pass" : "fail", reasoning: "r", skipped: false, details: {} } });
        /** Records run `name` of 6 traces, A passing each and B none, with their records when `records`. */
        const recordRun = async (name: string, passed: boolean, records: boolean) => {
          const id = await store.beginRun({ name, dataset_path: null, dataset_hash: null, evaluators }, { owner: "none" });
          const record = (i: number) => ({ output: `RECORDED-TEXT ${name} ${i}`, expected: `RECORDED-TEXT ${i}` });
          await store.appendRows(id, Array.from({ length: 6 }, (_, i) => {
            const row = { id: `q${i + 1}`, key: `k${i + 1}`, results: em(passed) };
            return records ? { ...row, record: record(i + 1) } : row;
          }));
          return id;
        };
        /** compare A B as JSON, each run's id and name made "A"/"B". */
        const compared = async (refA: string, refB: string) => {
          const [a, b] = [await loadRun(refA, store), await loadRun(refB, store)];
          const c = await compare(a, b);
          const named = (text: string) => ([[a, "A"], [b, "B"]] as const).reduce((t, [r, side]) => [r.info!.id, r.info!.name!].reduce((u, v) => u.replaceAll(v, side), t), text);
          return named(JSON.stringify({ json: comparisonJson(c, a, b), c: { ...c, a: "", b: "" } }));
        };
        await recordRun("with-a", true, true);
        await recordRun("with-b", false, true);
        await recordRun("bare-a", true, false);
        await recordRun("bare-b", false, false);
        const withRecords = await compared("with-a", "with-b");
        expect(withRecords).not.toContain("RECORDED-TEXT");
        expect(withRecords).toBe(await compared("bare-a", "bare-b"));
      } finally {
        await store.close();
      }
    });
  });
});

describe("refuseNoCommonEvaluator", () => {
  it("refuses recorded runs without an evaluator in common before reading a row, naming each side's evaluators", async () => {
    const a = loaded("a", { lev: "levenshtein", em: "exact_match" }, [], "complete");
    const b = loaded("b", { jac: "jaccard_similarity" }, [], "complete");
    const e = await evalErrorOf(Promise.resolve().then(() => refuseNoCommonEvaluator(a, b)));
    expect(e.code).toBe("USAGE");
    expect(e.message).toBe("no evaluator in common: A (a, id-a) has lev, em; B (b, id-b) has jac; there is nothing to compare");
  });

  it("counts a name given to different types as no evaluator in common, and says so", async () => {
    const a = loaded("a", { sim: "levenshtein" }, [], "complete");
    const b = loaded("b", { sim: "jaccard_similarity" }, [], "complete");
    const e = await evalErrorOf(Promise.resolve().then(() => refuseNoCommonEvaluator(a, b)));
    expect(e.message).toContain("A (a, id-a) has sim; B (b, id-b) has sim; sim is levenshtein in A but jaccard_similarity in B");
  });

  it("lets runs with one evaluator in common through, and recorded runs that have no rows yet", async () => {
    refuseNoCommonEvaluator(loaded("a", { em: "exact_match", lev: "levenshtein" }, [], "complete"), loaded("b", { em: "exact_match" }, [], "running"));
    const empty = loaded("a", { em: "exact_match" }, [], "incomplete");
    refuseNoCommonEvaluator(empty, empty, await compare(empty, empty));
  });

  it("refuses a run with evaluators beside one with none (a file whose rows scored nothing), naming \"no evaluator\"", async () => {
    const a = loaded("a", { em: "exact_match" }, rows(["em"], 3), "complete");
    const none = loaded("b.jsonl", {}, rows([], 3), null);
    const e = await evalErrorOf(compare(a, none).then((c) => refuseNoCommonEvaluator(a, none, c)));
    expect(e.code).toBe("USAGE");
    expect(e.message).toBe("no evaluator in common: A (a, id-a) has em; B (b.jsonl) has no evaluator; there is nothing to compare");
  });

  it("refuses two files whose rows scored no evaluator, where --fail-on-regression would pass having compared nothing", async () => {
    const a = loaded("a.jsonl", {}, rows([], 3), null);
    const b = loaded("b.jsonl", {}, rows([], 3), null);
    const e = await evalErrorOf(compare(a, b).then((c) => refuseNoCommonEvaluator(a, b, c)));
    expect(e.code).toBe("USAGE");
    expect(e.message).toBe("no evaluator in common: A (a.jsonl) has no evaluator; B (b.jsonl) has no evaluator; there is nothing to compare");
  });

  it("checks results.jsonl files once the comparison has read their rows", async () => {
    const a = loaded("a.jsonl", { em: "exact_match" }, rows(["em"], 4), null);
    const b = loaded("b.jsonl", { lev: "levenshtein" }, rows(["lev"], 4), null);
    refuseNoCommonEvaluator(a, b); // before the comparison, a file's evaluators are not known for sure
    const e = await evalErrorOf(compare(a, b).then((c) => refuseNoCommonEvaluator(a, b, c)));
    expect(e.code).toBe("USAGE");
    expect(e.message).toContain("no evaluator in common: A (a.jsonl) has em; B (b.jsonl) has lev");
    // A file's evaluator that gave no result on its first rows (not in its types) still counts once its rows show it.
    const late = loaded("c.jsonl", {}, rows(["em"], 4), null);
    refuseNoCommonEvaluator(a, late, await compare(a, late));
  });
});

describe("printComparison", () => {
  it("says a significant verdict plainly and a non-significant one as such, lists at most 5 regressed rows, and says \"1 row\"", async () => {
    // 30 rows each 1 in A and 0 in B: p = 2 / 2^30, significant; 5 such rows: smallest p 2 / 32 = 0.0625, not.
    const thirty = printComparison(await compare(loaded("a", { em: "exact_match" }, rows(["em"], 30, 1), "complete"), loaded("b", { em: "exact_match" }, rows(["em"], 30, 0), "complete")));
    expect(thirty).toContain("30 rows in both runs (A 30, B 30)");
    expect(thirty).toMatch(/^em +30 +1 +0 +-1 +\[-1, -1\] +<0\.0001 +A +0\/30\/0$/m);
    const regressedRows = thirty.slice(thirty.indexOf("Rows that regressed most on em:")).split("\n").filter((l) => /^ +\d+ +q\d+ /.test(l));
    expect(regressedRows.map((l) => l.trim().split(/ +/)[1])).toEqual(["q1", "q2", "q3", "q4", "q5"]);
    const five = printComparison(await compare(loaded("a", { em: "exact_match" }, rows(["em"], 5, 1), "complete"), loaded("b", { em: "exact_match" }, rows(["em"], 5, 0), "complete")));
    expect(five).toMatch(/^em +5 .* A \(not significant\) +0\/5\/0$/m);
    const one = printComparison(await compare(loaded("a", { em: "exact_match" }, rows(["em"], 1, 1), "complete"), loaded("b", { em: "exact_match" }, rows(["em"], 1, 0), "complete")));
    expect(one).toContain("1 row in both runs (A 1, B 1)");
  });

  it("prints an exact p-value to 4 decimals down to 0.0001, and \"<0.0001\" only below it", async () => {
    // Every row worse: the exact sign-flip p is 2 / 2^n; n = 13 gives 0.000244, n = 15 gives 0.000061.
    const p = async (n: number) => {
      const text = printComparison(await compare(loaded("a", { em: "exact_match" }, rows(["em"], n, 1), "complete"), loaded("b", { em: "exact_match" }, rows(["em"], n, 0), "complete")));
      return /^em +\d+ +1 +0 +-1 +\[-1, -1\] +(\S+)/m.exec(text)?.[1];
    };
    expect(await p(13)).toBe("0.0002");
    expect(await p(15)).toBe("<0.0001");
  });
});

/** Writes a results.jsonl file at `path`: `count` lines, line i numbered i + 1, with id `${idPrefix}${i + 1}` and `results(i)`. */
function writeResults(path: string, count: number, results: (i: number) => Record<string, unknown>, idPrefix = "q"): string {
  const lines = Array.from({ length: count }, (_, i) => JSON.stringify({ row: i + 1, id: `${idPrefix}${i + 1}`, results: results(i) }));
  writeFileSync(path, lines.join("\n") + "\n");
  return path;
}

describe("compareCommand", () => {
  it("takes seed 1 without --seed (as README says and run --baseline does), --seed N otherwise, and gives no verdict under the gate on rows whose ids disagree", async () => {
    await inTempDir("simeval-compare-", async (dir) => {
      const file = (name: string, score: number) => writeResults(join(dir, name), 12, (i) => ({ ld: { type: "levenshtein_distance", score: score + (i % 3), skipped: false } }));
      const [a, b] = [file("a.jsonl", 0), file("b.jsonl", 1)];
      const printed = async (seed?: string) => {
        const out: string[] = [];
        const io = { stdout: (line: string) => void out.push(line), stderr: () => undefined };
        expect(await compareCommand(a, b, { db: join(dir, "none.db"), ...(seed === undefined ? {} : { seed }) }, io)).toBe(0);
        return out.join("\n");
      };
      expect(await printed()).toContain("10,000 resamples (seed 1)");
      // On a terminal (io.columns), its sentences are wrapped to its width; in a log (no columns), one line each.
      const methods = async (columns?: number) => {
        const out: string[] = [];
        const io = { stdout: (line: string) => void out.push(line), stderr: () => undefined, ...(columns === undefined ? {} : { columns }) };
        expect(await compareCommand(a, b, { db: join(dir, "none.db") }, io)).toBe(0);
        return out.join("\n").split("\n").filter((l) => l.startsWith("p: two-sided"));
      };
      expect((await methods()).some((l) => l.length > 60)).toBe(true);
      expect(await methods(60)).toHaveLength(1);
      expect((await methods(60)).every((l) => l.length <= 60)).toBe(true);
      expect(await printed("7")).toContain("10,000 resamples (seed 7)");
      // Rows whose ids disagree are no dataset in common: under the gate, no verdict (USAGE) rather than a pass or a fail.
      const other = writeResults(join(dir, "other.jsonl"), 12, () => ({ ld: { type: "levenshtein_distance", score: 5, skipped: false } }), "x");
      const io = { stdout: () => undefined, stderr: () => undefined };
      const e = await evalErrorOf(compareCommand(a, other, { db: join(dir, "none.db"), failOnRegression: true }, io));
      expect(e.code).toBe("USAGE");
      expect(e.message).toMatch(/^--fail-on-regression: .*; the runs are not on the same dataset, so there is no verdict$/);
      // Without the gate, the figures are printed, and their one sentence says over what rows.
      const out: string[] = [];
      expect(await compareCommand(a, other, { db: join(dir, "none.db") }, { stdout: (line: string) => void out.push(line), stderr: () => undefined })).toBe(0);
      expect(out.join("\n").split("\n").at(-1)).toBe(
        "In short, over rows paired although their ids disagree (see the warning above; --fail-on-regression gives no verdict): A is significantly closer to the reference on ld.",
      );
    });
  });
});

describe("compareCommand with no run database", () => {
  it("names a RUN that is no file beside the missing database, so that a mistyped results.jsonl path is not taken for a run", async () => {
    await inTempDir("simeval-compare-", async (dir) => {
      const good = writeResults(join(dir, "good.jsonl"), 3, () => ({ ld: { type: "levenshtein_distance", score: 1, skipped: false } }));
      const db = join(dir, "none.db");
      const io = { stdout: () => undefined, stderr: () => undefined };
      const typo = join(dir, "god.jsonl");
      const e = await evalErrorOf(compareCommand(good, typo, { db, failOnRegression: true }, io));
      expect(e.code).toBe("USAGE");
      expect(e.message).toBe(`no run database at ${db}: \`simeval run\` records runs there (--db reads another); nor is there a file at ${JSON.stringify(typo)}`);
      expect((await evalErrorOf(compareCommand("good", "worse", { db }, io))).message).toMatch(/; nor is there a file at "good" or "worse"$/);
      // One name given twice is one missing file, named once.
      expect((await evalErrorOf(compareCommand("typo", "typo", { db }, io))).message).toMatch(/\(--db reads another\); nor is there a file at "typo"$/);
      // A folder is named as one, not also as a missing file.
      const noDb = `no run database at ${db}: \`simeval run\` records runs there (--db reads another)`;
      expect((await evalErrorOf(compareCommand(dir, good, { db }, io))).message).toBe(`${noDb}; ${JSON.stringify(dir)} is a folder, not a results.jsonl file`);
      expect((await evalErrorOf(compareCommand(dir, typo, { db }, io))).message).toBe(`${noDb}; nor is there a file at ${JSON.stringify(typo)}; ${JSON.stringify(dir)} is a folder, not a results.jsonl file`);
      expect(existsSync(db)).toBe(false);
    });
  });
});

describe("compare --report on an input", () => {
  it("refuses a --report path that is RUN_A, RUN_B or the database (exit 2), writing nothing over it", async () => {
    await inTempDir("simeval-compare-", async (dir) => {
      const scores = (i: number) => ({ ld: { type: "levenshtein_distance", score: i, skipped: false } });
      const [a, b] = [writeResults(join(dir, "a.jsonl"), 3, scores), writeResults(join(dir, "b.jsonl"), 3, scores)];
      const db = join(dir, "simeval.db");
      writeFileSync(db, "not a database, but the path --db names");
      const before = [a, b, db].map((f) => readFileSync(f, "utf8"));
      for (const [report, flag] of [[a, "RUN_A"], [b, "RUN_B"], [db, "--db"]] as const) {
        const refused = await cliOutput(["compare", a, b, "--db", db, "--report", report]);
        expect(refused).toMatchObject({ code: 2, out: "", err: `simeval: --report ${report} is the same file as ${flag} (an input, which writing would destroy); give each output a file of its own` });
      }
      expect([a, b, db].map((f) => readFileSync(f, "utf8"))).toEqual(before);
    });
  });
});

describe("compare of results.jsonl files", () => {
  it("compares the other evaluators when one has only errors in both files (no type, so no direction, in either)", async () => {
    await inTempDir("simeval-compare-", async (dir) => {
      const file = (name: string, shift: number) =>
        writeResults(join(dir, name), 6, (i) => ({
          ld: { type: "levenshtein_distance", score: i + shift, skipped: false },
          sem: { error: { code: "PROVIDER_FAILED", message: "openai: network error" } },
        }));
      const a = await loadRun(file("a.jsonl", 0), undefined);
      const b = await loadRun(file("b.jsonl", 1), undefined);
      const c = await compare(a, b);
      const ld = c.evaluators.find((e) => e.name === "ld");
      expect(ld).toMatchObject({ direction: "minimize", n_pairs: 6, diff: 1, p_value: 2 / 64, better: "a", regressed: true });
      expect(c.evaluators.find((e) => e.name === "sem")).toMatchObject({ n_pairs: 0, p_value: null, better: "same", regressed: false });
      // A file's stand-in direction gives way to the other run's, which comes from a type.
      const typed = { ...b, types: { ...b.types, sem: "levenshtein_distance" }, directions: { ...b.directions, sem: "minimize" as const } };
      expect((await compare(a, typed)).evaluators.find((e) => e.name === "sem")?.direction).toBe("minimize");
      // Whichever side the typed run is on.
      const typedA = { ...a, types: { ...a.types, sem: "levenshtein_distance" }, directions: { ...a.directions, sem: "minimize" as const } };
      expect((await compare(typedA, b)).evaluators.find((e) => e.name === "sem")?.direction).toBe("minimize");
    });
  });

  it("compares evaluators named as an object's own methods (constructor, toString) in results.jsonl files, and a file with one beside a run without it", async () => {
    await inTempDir("simeval-compare-", async (dir) => {
      const file = (name: string, shift: number) =>
        writeResults(join(dir, name), 6, (i) => ({
          constructor: { type: "levenshtein_distance", score: i + shift, skipped: false },
          toString: { type: "exact_match", score: 1, skipped: false },
        }));
      const [a, b] = [file("a.jsonl", 0), file("b.jsonl", 1)];
      const both = await cliOutput(["compare", a, b, "--json"]);
      expect(both.code, both.err).toBe(0);
      const json = JSON.parse(both.out) as ComparisonJson;
      expect(json.evaluators.map((e) => [e.name, e.type, e.direction])).toEqual([
        ["constructor", "levenshtein_distance", "minimize"],
        ["toString", "exact_match", "maximize"],
      ]);
      // A file without them has none of another type: it is no clash, only an evaluator in one run.
      const other = writeResults(join(dir, "c.jsonl"), 6, () => ({ em: { type: "exact_match", score: 1, skipped: false }, toString: { type: "exact_match", score: 1, skipped: false } }));
      const one = await cliOutput(["compare", a, other, "--json"]);
      expect(one.code, one.err).toBe(0);
      expect(JSON.parse(one.out)).toMatchObject({ only_in_a: ["constructor"], only_in_b: ["em"], warnings: [] });
    });
  });

  it("compares a file whose last line was cut short (a run killed while writing it) without that line, and says so", async () => {
    await inTempDir("simeval-compare-", async (dir) => {
      const lines = Array.from({ length: 8 }, (_, i) => JSON.stringify({ row: i + 1, id: `q${i + 1}`, results: { ld: { type: "levenshtein_distance", score: i, skipped: false } } }));
      const whole = join(dir, "whole.jsonl");
      const cut = join(dir, "cut.jsonl");
      writeFileSync(whole, lines.join("\n") + "\n");
      writeFileSync(cut, lines.slice(0, 7).join("\n") + "\n" + (lines[7] as string).slice(0, 20));
      const c = await compare(await loadRun(whole, undefined), await loadRun(cut, undefined));
      expect(c.rows).toEqual({ a: 8, b: 7, matched: 7, a_only: 1, b_only: 0 });
      expect(c.warnings).toContain(`B (${cut}) ends in a line cut short (line 8, not valid JSON, with no line break after it: a run killed while writing it), left out`);
      expect(c.warnings.filter((w) => w.includes("cut short"))).toHaveLength(1);
      // Said of the rows compared: a file whose line was cut short when it was loaded and is whole when compared (a run still writing it) is not.
      const rowsWithErrors = lines.map((l) => l.replace(/"ld":\{[^}]*\}/, '"ld":{"error":{"code":"PROVIDER_FAILED","message":"down"}}'));
      writeFileSync(cut, rowsWithErrors.slice(0, 7).join("\n") + "\n" + (rowsWithErrors[7] as string).slice(0, 20));
      const loaded = await loadRun(cut, undefined);
      writeFileSync(cut, rowsWithErrors.join("\n") + "\n");
      const later = await compare(await loadRun(whole, undefined), loaded);
      expect(later.rows).toEqual({ a: 8, b: 8, matched: 8, a_only: 0, b_only: 0 });
      expect(later.warnings.filter((w) => w.includes("cut short"))).toEqual([]);
    });
  });

  it("names a results.jsonl's row left out (a repeated or bad row number) by the file and its line, not its count among the rows, in the text and --json", async () => {
    await inTempDir("simeval-compare-", async (dir) => {
      const line = (row: number, score: number) => JSON.stringify({ row, id: `q${row}`, results: { lev: { type: "levenshtein", score, skipped: false } } });
      const a = join(dir, "a.jsonl");
      const b = join(dir, "b.jsonl");
      writeFileSync(a, [line(1, 0.5), line(2, 0.7), line(3, 0.9)].join("\n") + "\n");
      // A blank line, as files joined by hand have: the repeated row is the file's line 4, its third row.
      writeFileSync(b, [line(1, 0.6), "", line(2, 0.7), line(2, 0.1), line(0, 0.2), line(3, 0.8)].join("\n") + "\n");
      const warnings = [`${b}:4: row 2 appears more than once; the first was kept and this one left out.`, `${b}:5: the row number must be an integer from 1 to 268435456 but is number 0; this outcome was left out.`];
      const text = await cliOutput(["compare", a, b]);
      expect(text.code, text.err).toBe(0);
      // Among the text's lines, as every warning of the comparison is (see printComparison).
      for (const w of warnings) expect(text.out.split("\n")).toContain(`warning: ${w}`);
      expect(text.out).not.toContain("outcome #");
      const json = await cliOutput(["compare", a, b, "--json"]);
      expect(json.code, json.err).toBe(0);
      expect((JSON.parse(json.out) as ComparisonJson).warnings).toEqual(warnings);
      expect(json.err).toBe(warnings.map((w) => `simeval: warning: ${w}`).join("\n"));
    });
  });

  it("gives no verdict on a file cut short (its run killed while writing it): --fail-on-regression exits 2, --json's verdict.withheld says why", async () => {
    await inTempDir("simeval-compare-", async (dir) => {
      const lines = Array.from({ length: 8 }, (_, i) => JSON.stringify({ row: i + 1, id: `q${i + 1}`, results: { lev: { type: "levenshtein", score: 1, skipped: false } } }));
      const whole = join(dir, "whole.jsonl");
      const cut = join(dir, "cut.jsonl");
      writeFileSync(whole, lines.join("\n") + "\n");
      writeFileSync(cut, lines.slice(0, 3).join("\n") + "\n" + (lines[3] as string).slice(0, 20));
      const why = `B (${cut}) ends in a line cut short (line 4: a run killed while writing it), so it holds only the rows written before it stopped: there is no verdict; compare a whole results file`;
      const gated = await cliOutput(["compare", whole, cut, "--fail-on-regression"]);
      expect(gated.code).toBe(2);
      expect(gated.err).toBe(`simeval: --fail-on-regression: ${why}`);
      const json = await cliOutput(["compare", whole, cut, "--json"]);
      expect(json.code).toBe(0);
      expect(JSON.parse(json.out).verdict).toEqual({ regressed_on: [], no_verdict_on: [], withheld: why });
      // A whole file that lacks rows (a dataset that grew) is judged, as before.
      writeFileSync(cut, lines.slice(0, 3).join("\n") + "\n");
      expect((await cliOutput(["compare", whole, cut, "--fail-on-regression"])).code).toBe(0);
    });
  });
});

describe("printComparison", () => {
  it("never prints a significant p-value as 0.0500: 500 / 10,001 reads 0.049995", () => {
    const e = {
      name: "em", direction: "maximize" as const, n_pairs: 400, mean_a: 0.5, mean_b: 0.4575, diff: -0.0425,
      ci: { low: -0.0825, high: -0.0025, level: 0.95 }, p_value: 500 / 10_001, p_method: "monte_carlo" as const,
      better: "a" as const, significant: true, regressed: true, rows: { improved: 25, regressed: 42, unchanged: 333 }, worst: [],
    };
    const text = printComparison({
      a: "A", b: "B", rows: { a: 400, b: 400, matched: 400, a_only: 0, b_only: 0 }, dataset_mismatch: null, verdict: { regressed_on: ["lev"], no_verdict_on: [] },
      evaluators: [e], only_in_a: [], only_in_b: [], warnings: [], settings: { seed: 1, resamples: 10_000, alpha: 0.05, worst: 10, pair_by: "row" },
    });
    expect(text).toMatch(/em\s+400\s+0\.5000\s+0\.4575\s+-0\.0425\s+\[-0\.0825, -0\.0025\]\s+0\.049995\s+A\s/);
  });

  it("names neither run when the interval holds 0, rather than claiming \"no difference\" for a mean difference of 0.5", async () => {
    // B − A per row: +1 on 8 rows, −3 on 1, 0 on 1: a mean of 0.5, and bootstrap resamples with two −3s fall below 0.
    const scores = [1, 1, 1, 1, 1, 1, 1, 1, -3, 0];
    const a = loaded("a", { d: "levenshtein_distance" }, rows(["d"], scores.length, 5), "complete");
    const b = loaded("b", { d: "levenshtein_distance" }, rows(["d"], scores.length, 5).map((r, i) => ({ ...r, scores: { d: 5 + scores[i]! } })), "complete");
    const c = await compare(a, b);
    const e = c.evaluators[0]!;
    expect(e.better).toBe("same");
    expect(printComparison(c)).toMatch(/neither \(CI holds 0\)/);
    expect(printComparison(c)).not.toContain("no difference");
  });

  it("prints a difference of zero without a sign, where \"+0\" read as a rise", async () => {
    const same = () => loaded("a", { em: "exact_match" }, rows(["em"], 12, 1), "complete");
    const text = printComparison(await compare(same(), same()));
    expect(text).toMatch(/^em +12 +1 +1 +0 +\[0, 0\] +1\.0000 +neither \(CI holds 0\)/m);
    expect(text).not.toContain("+0");
  });

  it("prints the regressed rows' ids (data, on stdout) with control and bidi characters escaped, and a non-string id as JSON", async () => {
    const ids: unknown[] = ["\u001b[31mred\u202e", { k: 1 }, 7];
    const withIds = (score: number): RowScores[] => ids.map((id, i) => ({ row: i + 1, id, scores: { em: score } }));
    const c = await compare(loaded("a", { em: "exact_match" }, withIds(1), "complete"), loaded("b", { em: "exact_match" }, withIds(0), "complete"));
    const text = printComparison(c);
    expect(text).not.toMatch(/[\u001b\u202e]/);
    expect(text).toMatch(/^ *1 +\\u001b\[31mred\\u202e +1 +0 +-1$/m);
    expect(text).toMatch(/^ *2 +\{"k":1\} +1 +0 +-1$/m);
    expect(text).toMatch(/^ *3 +7 +1 +0 +-1$/m);
  });
});
describe("compare --json paired by key", () => {
  it("gives each id mismatch example its row in B and its key", async () => {
    const a = loaded("A", { em: "exact_match" }, [{ row: 1, id: "t1", key: "k1", scores: { em: 1 } }, { row: 2, id: "t2", key: "k2", scores: { em: 1 } }], "complete");
    const b = loaded("B", { em: "exact_match" }, [{ row: 1, id: "other", key: "k2", scores: { em: 1 } }, { row: 2, id: "t1", key: "k1", scores: { em: 1 } }], "complete");
    const keyed = await compare(a, b, 1, undefined, undefined, "key");
    const json = comparisonJson(keyed, a, b);
    expect(json.dataset_mismatch?.examples).toEqual([{ row: 2, row_b: 1, key: "k2", id_a: "t2", id_b: "other" }]);
    expect(() => refuseWithheldVerdict(withheldVerdict(keyed, a, b))).toThrow(/; one key names different items in the two runs, so there is no verdict$/);
    // A script reading the JSON's verdict sees it withheld too.
    expect(json.verdict.withheld).toMatch(/; one key names different items in the two runs, so there is no verdict$/);
    // Paired by row number, the examples are as before.
    expect(comparisonJson(await compare(a, b), a, b).dataset_mismatch?.examples[0]).toEqual({ row: 1, id_a: "t1", id_b: "other" });
  });
});

describe("compare with a run not read from a dataset file (null dataset_path and dataset_hash: a service's)", () => {
  const spec = { type: "exact_match", inputs: { output: "$.a", expected: "$.ref" } };
  const result = (score: number) => ({ exact_match: { type: "exact_match", score, passed: score === 1, reasoning: null, details: null, skipped: false, label: score === 1 ? "pass" : "fail" } });
  /**
   * Records in `db` a run `name` of 6 rows (ids q1..q6) from traces, as a service would: no dataset file, each row
   * scoring `score`, stored with the record `record(i)` of row i when given.
   */
  const recordTraces = async (db: string, name: string, score = 0, record?: (i: number) => Record<string, unknown>) => {
    const store = openSqliteStore(db);
    try {
      const id = await store.beginRun({ name, dataset_path: null, dataset_hash: null, evaluators: [spec] }, { owner: "none" });
      await store.appendRows(id, Array.from({ length: 6 }, (_, i) => ({ id: `q${i + 1}`, results: result(score), ...(record ? { record: record(i + 1) } : {}) }) as never));
      await store.finishRun(id, { rows: 6, row_errors: 0, skipped_as_zero: false, evaluators: [] });
    } finally {
      await store.close();
    }
  };
  const inDir = (body: (dir: string, db: string) => Promise<void>) => inTempDir("simeval-compare-traces-", (dir) => body(dir, join(dir, "simeval.db")));
  const reason = (who: string) => `the rows of ${who} were not read from a dataset file, and those shown without texts were stored without their records (by a service that kept none, or a simeval before schema version 5), so nothing holds their texts`;

  it("says that two runs from traces whose ids disagree are paired by the order their rows arrived, not that their datasets differ", async () => {
    await inDir(async (_, db) => {
      await recordTraces(db, "a");
      const store = openSqliteStore(db);
      const id = await store.beginRun({ name: "b", dataset_path: null, dataset_hash: null, evaluators: [spec] }, { owner: "none" });
      // The same traces, arrived in the opposite order.
      await store.appendRows(id, Array.from({ length: 6 }, (_, i) => ({ id: `q${6 - i}`, results: result(0) }) as never));
      await store.close();
      const out = await cliOutput(["compare", "a", "b", "--db", db]);
      expect(out.out).toContain(`both runs were recorded from traces (no dataset file), whose rows are numbered in the order they arrived, and rows are paired by number: runs over the same traces in another order disagree so too; if their rows were stored with keys, compare them with --pair-by key.`);
      expect(out.out).not.toContain("probably made on different datasets");
    });
  });

  it("keeps \"probably made on different datasets\" where one run is of a dataset file, and says nothing of arrival order where the rows were paired by key", async () => {
    await inDir(async (dir, db) => {
      // Run a from traces (q1..q6), run b of a file holding them in the opposite order.
      await recordTraces(db, "a");
      const file = join(dir, "data.jsonl");
      writeFileSync(file, Array.from({ length: 6 }, (_, i) => JSON.stringify({ id: `q${6 - i}`, ref: "x", a: "x" })).join("\n") + "\n");
      const store = openSqliteStore(db);
      await runDataset({ dataset: file, name: "b", store, workers: 0, evaluators: [spec] });
      // Run c from traces whose keys are run d's, but not their ids: paired by key, the order they arrived in is not the cause.
      for (const [name, prefix] of [["c", "q"], ["d", "other-"]] as const) {
        const id = await store.beginRun({ name, dataset_path: null, dataset_hash: null, evaluators: [spec] }, { owner: "none" });
        await store.appendRows(id, [1, 2, 3].map((k) => ({ id: `${prefix}${k}`, key: `trace-${k}`, results: result(1) })) as never);
        await store.finishRun(id, { rows: 3, row_errors: 0, skipped_as_zero: false, evaluators: [] });
      }
      await store.close();
      for (const argv of [["a", "b"], ["b", "a"], ["c", "d", "--pair-by", "key"]]) {
        const out = await cliOutput(["compare", ...argv, "--db", db]);
        // Paired by key, ids that disagree say that one key names different items.
        expect(out.out).toContain(argv.includes("key") ? "one key was probably given to different items (traces)" : "probably made on different datasets");
        expect(out.out).not.toContain("recorded from traces");
      }
    });
  });

  it("a recorded run without an evaluator named \"constructor\" has none of another type beside one that has it", async () => {
    await inDir(async (_, db) => {
      const store = openSqliteStore(db);
      const em = { type: "exact_match", score: 1, passed: true, reasoning: null, details: null, skipped: false, label: "pass" };
      for (const names of [["constructor", "em"], ["em"]]) {
        const id = await store.beginRun({ name: names.join("-"), dataset_path: null, dataset_hash: null, evaluators: names.map((name) => ({ ...spec, name })) }, { owner: "none" });
        await store.appendRows(id, [{ id: "q1", results: Object.fromEntries(names.map((n) => [n, em])) }] as never);
        await store.finishRun(id, { rows: 1, row_errors: 0, skipped_as_zero: false, evaluators: [] });
      }
      await store.close();
      const out = await cliOutput(["compare", "constructor-em", "em", "--db", db, "--json"]);
      expect(out.code, out.err).toBe(0);
      expect(JSON.parse(out.out)).toMatchObject({ only_in_a: ["constructor"], only_in_b: [], warnings: [] });
    });
  });

  it("--pair-by key reads each run's texts of its own row numbers when only some rows regressed", async () => {
    await inDir(async (dir, db) => {
      const store = openSqliteStore(db);
      const record = (k: number, run: string) => ({ a: `${run} says ${k}`, ref: `${k}` });
      // Only trace 1 regresses: row 1 of A, row 6 of B.
      for (const [name, order] of [["a", [1, 2, 3, 4, 5, 6]], ["b", [6, 5, 4, 3, 2, 1]]] as const) {
        const id = await store.beginRun({ name, dataset_path: null, dataset_hash: null, evaluators: [spec] }, { owner: "none" });
        await store.appendRows(id, order.map((k) => ({ id: `q${k}`, key: `trace-${k}`, record: record(k, name), results: result(name === "b" && k === 1 ? 0 : 1) })) as never);
        await store.finishRun(id, { rows: 6, row_errors: 0, skipped_as_zero: false, evaluators: [] });
      }
      await store.close();
      const report = join(dir, "c.html");
      expect((await cliOutput(["compare", "a", "b", "--db", db, "--pair-by", "key", "--report", report])).code).toBe(0);
      const cards = readFileSync(report, "utf8").split('<div class="row regressed-row"').slice(1);
      expect(cards).toHaveLength(1);
      expect(cards[0]).toContain("a says </mark>1</pre>");
      expect(cards[0]).toContain("b says </mark>1</pre>");
    });
  });

  it("--pair-by key pairs two runs from traces by their rows' keys, whatever order they arrived in, the report showing each row's own texts", async () => {
    await inDir(async (dir, db) => {
      const store = openSqliteStore(db);
      const record = (k: number, run: string) => ({ a: `${run} says ${k}`, ref: `${k}` });
      for (const [name, order, score] of [["a", [1, 2, 3, 4, 5, 6], 1], ["b", [6, 5, 4, 3, 2, 1], 0]] as const) {
        const id = await store.beginRun({ name, dataset_path: null, dataset_hash: null, evaluators: [spec] }, { owner: "none" });
        await store.appendRows(id, order.map((k) => ({ id: `q${k}`, key: `trace-${k}`, record: record(k, name), results: result(score) })) as never);
        await store.finishRun(id, { rows: 6, row_errors: 0, skipped_as_zero: false, evaluators: [] });
      }
      await store.close();
      const report = join(dir, "c.html");
      const json = await cliOutput(["compare", "a", "b", "--db", db, "--pair-by", "key", "--json", "--report", report]);
      expect(json.code).toBe(0);
      const c = JSON.parse(json.out) as ComparisonJson;
      expect(c).toMatchObject({ rows: { a: 6, b: 6, matched: 6 }, dataset_mismatch: null, settings: { pair_by: "key" } });
      expect(c.evaluators[0]).toMatchObject({ n_pairs: 6, mean_a: 1, mean_b: 0, rows: { regressed: 6 } });
      // q1 is row 1 of A and row 6 of B; the report shows B's output of that trace.
      expect(c.evaluators[0]?.worst[0]).toMatchObject({ row: 1, row_b: 6, id: "q1" });
      // Each regressed row's card shows both runs' outputs of its own trace.
      const cards = readFileSync(report, "utf8").split('<div class="row regressed-row"').slice(1);
      expect(cards).toHaveLength(6);
      // Each card names the row's number in both runs: q1 is row 1 of A and row 6 of B.
      expect(cards.map((card) => /<b>Row ([^<]*)<\/b>/.exec(card)?.[1]).sort()).toEqual(["1 in A, 6 in B", "2 in A, 5 in B", "3 in A, 4 in B", "4 in A, 3 in B", "5 in A, 2 in B", "6 in A, 1 in B"]);
      for (const card of cards) {
        const k = /id <code>q(\d)<\/code>/.exec(card)?.[1];
        expect(card).toContain(`a says </mark>${k}</pre>`);
        expect(card).toContain(`b says </mark>${k}</pre>`);
      }
      // The text names each worst row's number in both runs.
      expect((await cliOutput(["compare", "a", "b", "--db", db, "--pair-by", "key"])).out).toMatch(/row A\/B\s+id\s+A\s+B\s+B - A\n[- ]+\n\s*1\/6\s+q1\s/);
      // By row number, the same runs' ids disagree; results.jsonl files keep no keys.
      expect(JSON.parse((await cliOutput(["compare", "a", "b", "--db", db, "--json"])).out).dataset_mismatch).not.toBeNull();
      const file = join(dir, "r.results.jsonl");
      writeFileSync(file, JSON.stringify({ row: 1, id: "q1", results: result(1) }) + "\n");
      expect(await cliOutput(["compare", file, "b", "--db", db, "--pair-by", "key"])).toMatchObject({ code: 2, err: expect.stringContaining(`--pair-by key pairs rows by the keys a run was recorded with, and A (${file}) is a results.jsonl file, which keeps none`) });
      expect((await cliOutput(["compare", "a", "b", "--db", db, "--pair-by", "id"])).err).toContain('simeval: --pair-by "id" is not one of its choices; expected row or key\n');
    });
  });

  it("--pair-by key says that only the keys in both runs are compared, not row numbers, when some key is in one run only", async () => {
    await inDir(async (_, db) => {
      const store = openSqliteStore(db);
      for (const [name, keys] of [["a", [1, 2, 3]], ["b", [3, 2, 4]]] as const) {
        const id = await store.beginRun({ name, dataset_path: null, dataset_hash: null, evaluators: [spec] }, { owner: "none" });
        await store.appendRows(id, keys.map((k) => ({ id: `q${k}`, key: `trace-${k}`, results: result(1) })) as never);
        await store.finishRun(id, { rows: 3, row_errors: 0, skipped_as_zero: false, evaluators: [] });
      }
      await store.close();
      const out = await cliOutput(["compare", "a", "b", "--db", db, "--pair-by", "key"]);
      expect(out.out).toContain("warning: A has 3 rows and B 3: only the 2 keys in both are compared");
      expect(out.out).not.toContain("row numbers in both");
      // By row number, the same runs have every row number in both.
      expect((await cliOutput(["compare", "a", "b", "--db", db])).out).not.toContain("in both are compared");
    });
  });

  it("shows the texts of the run on a file and says why the other's are unavailable, in the report's input, the warning and the HTML", async () => {
    await inDir(async (dir, db) => {
      const file = join(dir, "data.jsonl");
      writeFileSync(file, Array.from({ length: 6 }, (_, i) => JSON.stringify({ id: `q${i + 1}`, ref: `t ${i + 1}`, a: `t ${i + 1}` })).join("\n") + "\n");
      const store = openSqliteStore(db);
      await runDataset({ dataset: file, name: "a", store, workers: 0, evaluators: [spec] });
      await store.close();
      await recordTraces(db, "b");
      const reading = openSqliteStore(db);
      try {
        const [a, b] = [await loadRun("a", reading), await loadRun("b", reading)];
        const input = await comparisonReportInput(await compare(a, b), a, b);
        expect(input.evaluators[0]?.worst.map((w) => [w.row, w.output_a, w.output_b])).toEqual(Array.from({ length: 6 }, (_, i) => [i + 1, `t ${i + 1}`, null]));
        expect(input.texts_unavailable).toEqual([reason("B")]);
        expect([input.b.dataset_path, input.b.dataset_hash]).toEqual([null, null]);
      } finally {
        await reading.close();
      }
      const text = await cliOutput(["compare", "a", "b", "--db", db]);
      expect(text).toMatchObject({ code: 0, err: "" });
      expect(text.out).toMatch(/^exact_match +6 +1 +0 /m);
      const report = join(dir, "compare.html");
      const reported = await cliOutput(["compare", "a", "b", "--db", db, "--report", report]);
      expect(reported.code).toBe(0);
      // A's texts are in the report: the warning says so, where it said "the rows' scores without their texts".
      expect(reported.err).toContain(`simeval: warning: texts unavailable: ${reason("B")}; the report shows A's outputs and the expected text, and B's scores without its outputs`);
      const html = readFileSync(report, "utf8");
      expect(html).toContain(`<dt>Dataset B</dt><dd><span class="muted">none (not read from a dataset file)</span></dd>`);
      expect(html).toContain(`<dt>Dataset A</dt><dd><code>${file}</code>`);
      expect(html).not.toContain("sha256 null");
    });
  });

  it("says of each of two such runs stored without records that it has no texts, and shows their one dataset as none", async () => {
    await inDir(async (_dir, db) => {
      await recordTraces(db, "a", 1);
      await recordTraces(db, "b");
      const store = openSqliteStore(db);
      try {
        const [a, b] = [await loadRun("a", store), await loadRun("b", store)];
        const input = await comparisonReportInput(await compare(a, b), a, b);
        expect(input.texts_unavailable).toEqual([reason("A"), reason("B")]);
        const html = renderComparisonReport(input);
        expect(html).toContain(`<dt>Dataset</dt><dd><span class="muted">none (not read from a dataset file)</span></dd>`);
      } finally {
        await store.close();
      }
    });
  });
  it("shows each run's own texts from the records its rows were stored with (schema version 5), in the report's input and the HTML, with no warning", async () => {
    await inDir(async (dir, db) => {
      await recordTraces(db, "a", 1, (i) => ({ ref: `ref ${i}`, a: `ref ${i}` }));
      await recordTraces(db, "b", 0, (i) => ({ ref: `ref ${i}`, a: `trace <b> ${i}` }));
      await recordTraces(db, "c", 0); // no records
      const store = openSqliteStore(db);
      try {
        const [a, b, c] = [await loadRun("a", store), await loadRun("b", store), await loadRun("c", store)];
        const input = await comparisonReportInput(await compare(a, b), a, b);
        expect(input.evaluators[0]?.worst.map((w) => [w.row, w.expected, w.output_a, w.output_b])).toEqual(Array.from({ length: 6 }, (_, i) => [i + 1, `ref ${i + 1}`, `ref ${i + 1}`, `trace <b> ${i + 1}`]));
        expect(input.texts_unavailable).toBeUndefined();
        // Beside a run stored without records: its own side's texts, and why the other's are missing.
        const mixed = await comparisonReportInput(await compare(a, c), a, c);
        expect(mixed.evaluators[0]?.worst.map((w) => [w.expected, w.output_a, w.output_b])).toEqual(Array.from({ length: 6 }, (_, i) => [`ref ${i + 1}`, `ref ${i + 1}`, null]));
        expect(mixed.texts_unavailable).toEqual([reason("B")]);
      } finally {
        await store.close();
      }
      const report = join(dir, "compare.html");
      const reported = await cliOutput(["compare", "a", "b", "--db", db, "--report", report]);
      expect(reported).toMatchObject({ code: 0, err: "" });
      const html = readFileSync(report, "utf8");
      expect(html).toContain("&lt;b&gt;"); // B's output, from its records (a diff against A's, so in pieces)
      expect(html).not.toContain("texts unavailable");
    });
  });
});

describe("compareCommand interrupted", () => {
  it.each([
    ["SIGINT", 130, undefined],
    ["SIGTERM", 143, "report.html"],
  ] as const)("%s while the runs are read stops the comparison, says that nothing was compared or written, and exits %i", async (name, exit, report) => {
    await inTempDir("simeval-compare-stop-", async (dir) => {
      const db = join(dir, "simeval.db");
      try {
        const store = openSqliteStore(db);
        for (const run of ["a", "b"]) {
          const id = await store.beginRun({ name: run, dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
          await store.addRows(id, Array.from({ length: 25_000 }, (_, i) => ({ row: i + 1, id: i + 1, results: { exact_match: { type: "exact_match", score: 1, passed: true, reasoning: null, details: null, skipped: false, label: null } } }) as never));
          await store.finishRun(id, { rows: 25_000, row_errors: 0, skipped_as_zero: false, evaluators: [] } as never);
        }
        await store.close();
        // The signal comes with the first row read: the rest of the rows are not.
        const read = signalOnFirstRowRead("scores", name);
        const out: string[] = [];
        const err: string[] = [];
        const io = { stdout: (line: string) => void out.push(line), stderr: (line: string) => void err.push(line) };
        const at = report && join(dir, report);
        expect(await compareCommand("a", "b", { db, ...(at ? { report: at } : {}) }, io)).toBe(exit);
        expect(out).toEqual([]);
        expect(err).toEqual([`simeval: interrupted (${name}); the runs were not compared${at ? `, ${at} not written` : ""}`]);
        expect(read.rows).toBeLessThan(25_000);
        if (at) expect(existsSync(at)).toBe(false);
        expect(process.listenerCount(name)).toBe(0);
      } finally {
        vi.restoreAllMocks();
      }
    });
  });
});

describe("compareCommand interrupted while the report is written", () => {
  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)("%s lets the report be finished, says so, and exits %i, where it exited 0 unsaid", async (signal, exit) => {
    await inTempDir("simeval-compare-write-stop-", async (dir) => {
      const db = join(dir, "simeval.db");
      const report = join(dir, "compare.html");
      const store = openSqliteStore(db);
      for (const run of ["a", "b"]) {
        const id = await store.beginRun({ name: run, dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
        await store.addRows(id, Array.from({ length: 20 }, (_, i) => ({ row: i + 1, id: i + 1, results: { exact_match: { type: "exact_match", score: run === "a" ? 1 : i % 2, passed: true, reasoning: null, details: null, skipped: false, label: null } } }) as never));
        await store.finishRun(id, { rows: 20, row_errors: 0, skipped_as_zero: false, evaluators: [] } as never);
      }
      await store.close();
      expectReportWrittenWholeOnSignal({
        signal,
        exit,
        moduleUrl: new URL("./compare.ts", import.meta.url),
        command: "compareCommand",
        call: `compareCommand("a", "b", { db: process.argv[1], report: process.argv[2] }, io)`,
        db,
        report,
        ignored: "texts unavailable",
      });
    });
  });
});

describe("compare --json", () => {
  /** A dataset of `n` rows whose output misses the expected text on every third row when `worse`, and the runs A and B recorded on it. */
  async function recordedRuns(dir: string, n = 40): Promise<string> {
    const db = join(dir, "simeval.db");
    writeFileSync(join(dir, "evals.json"), JSON.stringify({ evaluators: [{ type: "exact_match" }, { type: "levenshtein", config: { threshold: 0.8 } }] }));
    for (const [name, worse] of [["A", false], ["B", true]] as const) {
      const lines = Array.from({ length: n }, (_, i) => JSON.stringify({ id: `q${i}`, output: worse && i % 3 === 0 ? `answr ${i} x${"y".repeat(i % 7)}` : `answer ${i}`, expected: `answer ${i}` }));
      writeFileSync(join(dir, `${name}.jsonl`), lines.join("\n") + "\n");
      const r = await cliOutput(["run", join(dir, `${name}.jsonl`), "--config", join(dir, "evals.json"), "--db", db, "--name", name, "--workers", "0", "--out", join(dir, `${name}.results.jsonl`)]);
      expect(r.code).toBe(0);
    }
    return db;
  }

  /** The text's table line of evaluator `name`, split into its cells. */
  const tableLine = (text: string, name: string) => (text.split("\n").find((l) => l.startsWith(`${name} `)) as string).trim().split(/\s{2,}/);

  it("says a run's state once when A and B are that one run, still being recorded", async () => {
    const run = loaded("live", { em: "exact_match" }, rows(["em"], 10), "running");
    const c = await compare(run, run);
    expect(c.warnings.slice(0, 2)).toEqual([
      "A and B are the same run: no row can differ, so nothing is significant and --fail-on-regression finds no regression; give two runs",
      "A (live, id-live) is still being recorded: it covers only the rows recorded so far",
    ]);
    expect(c.warnings.join("\n")).not.toContain("B (live");
  });

  it("warns that A and B are the same run, or the same file spelt two ways, where a CI step comparing them could never fail", async () => {
    await inTempDir("simeval-compare-same-", async (dir) => {
      const db = await recordedRuns(dir, 12);
      const same = "A and B are the same run: no row can differ, so nothing is significant and --fail-on-regression finds no regression; give two runs";
      const byName = await cliOutput(["compare", "B", "B", "--db", db, "--fail-on-regression"]);
      expect(byName.code).toBe(0);
      expect(byName.out).toContain(`warning: ${same}`);
      // The name and the id of one run.
      const id = JSON.parse((await cliOutput(["show", "B", "--db", db, "--json"])).out).id as string;
      expect((await cliOutput(["compare", "B", id, "--db", db])).out).toContain(`warning: ${same}`);
      const file = join(dir, "A.results.jsonl");
      const files = await cliOutput(["compare", file, `${dir}/./A.results.jsonl`, "--json"]);
      expect(files.err).toContain("simeval: warning: A and B are the same file: no row can differ");
      // Two runs, and two files: no such warning.
      expect((await cliOutput(["compare", "A", "B", "--db", db])).out).not.toContain("the same run");
      expect((await cliOutput(["compare", file, join(dir, "B.results.jsonl")])).out).not.toContain("the same file");
    });
  });

  it("gives the figures the text prints, at full precision, and the same exit code and stderr under --fail-on-regression", async () => {
    await inTempDir("simeval-compare-json-", async (dir) => {
      const db = await recordedRuns(dir);
      const text = await cliOutput(["compare", "A", "B", "--db", db, "--fail-on-regression"]);
      const json = await cliOutput(["compare", "A", "B", "--db", db, "--fail-on-regression", "--json"]);
      expect(text.code).toBe(1);
      expect(json.code).toBe(1);
      expect(json.err).toBe(text.err);
      // Said as run's gates are, not as an error.
      expect(json.err).toMatch(/^--fail-on-regression: failed, B \(\w+\) is significantly worse than A \(\w+\) on \w+/);
      const c = JSON.parse(json.out) as ComparisonJson;
      expect(Object.keys(c)).toEqual(["a", "b", "rows", "dataset_mismatch", "evaluators", "only_in_a", "only_in_b", "verdict", "warnings", "notes", "settings"]);
      const lines = text.out.split("\n");
      expect(lines.slice(0, 3)).toEqual([`A: ${c.a.label}`, `B: ${c.b.label}`, `${c.rows.matched} rows in both runs (A ${c.rows.a}, B ${c.rows.b})`]);
      expect(c.a).toMatchObject({ name: "A", file: null, label: `A (${c.a.id})` });
      expect(c.rows).toEqual({ a: 40, b: 40, matched: 40, a_only: 0, b_only: 0 });
      expect(c.dataset_mismatch).toBeNull();
      for (const e of c.evaluators) {
        const p = e.p_value === null ? "-" : e.p_value < 0.0001 ? "<0.0001" : pDigits(e.p_value, c.settings.alpha);
        expect(tableLine(text.out, e.name)).toEqual([
          e.name,
          String(e.n_pairs),
          formatFigure(e.mean_a),
          formatFigure(e.mean_b),
          formatSignedFigure(e.diff),
          `[${formatFigure(e.ci!.low)}, ${formatFigure(e.ci!.high)}]`,
          p,
          e.better.toUpperCase(),
          `${e.rows.improved}/${e.rows.regressed}/${e.rows.unchanged}`,
        ]);
        expect(e).toMatchObject({ regressed: true, significant: true, ci: { level: 0.95 } });
        // 14 rows regressed: the JSON lists settings.worst (10) of them, as the HTML report does, where the text shows 5.
        expect(e.worst).toHaveLength(c.settings.worst);
        // The text's regressed rows are the first 5 of the JSON's.
        const shown = lines.slice(lines.indexOf(`Rows that regressed most on ${e.name}:`) + 3).slice(0, 5).map((l) => l.trim().split(/\s+/));
        expect(shown).toEqual(e.worst.slice(0, 5).map((w) => [String(w.row), w.id, formatFigure(w.score_a), formatFigure(w.score_b), formatSignedFigure(w.delta)]));
      }
      // Full precision: the mean of levenshtein's similarities is no 4-decimal figure.
      const lev = c.evaluators.find((e) => e.name === "levenshtein")!;
      expect(lev.diff).toBe(lev.mean_b! - lev.mean_a!);
      expect(String(lev.mean_b).length).toBeGreaterThan(6);
      expect(c.verdict).toEqual({ regressed_on: ["exact_match", "levenshtein"], no_verdict_on: [], withheld: null });
      expect(text.out).toContain(c.notes[0]!);
      expect(c.notes[0]).toContain(`(seed ${c.settings.seed})`);
      expect(c.evaluators.map((e) => e.p_method)).toEqual(["exact", "exact"]);
      // Without the gate: exit 0, the same document.
      const plain = await cliOutput(["compare", "A", "B", "--db", db, "--json"]);
      expect(plain.code).toBe(0);
      expect(JSON.parse(plain.out)).toEqual(c);
      // --report is written beside it.
      const report = join(dir, "compare.html");
      const both = await cliOutput(["compare", "A", "B", "--db", db, "--json", "--report", report]);
      expect(JSON.parse(both.out)).toEqual(c);
      expect(both.err).toBe(`Report: ${report}`);
      expect(readFileSync(report, "utf8")).toMatch(/<\/html>\s*$/);
    });
  });

  it("names results.jsonl files as files, gives their warnings as the text prints them, and ids as the text shows them (cut past 100 characters, null for none)", async () => {
    await inTempDir("simeval-compare-json-", async (dir) => {
      const ids: unknown[] = ["x".repeat(300), 7, null, { k: [1, 2] }];
      const file = (name: string, count: number, score: number) =>
        writeFileSync(
          join(dir, name),
          Array.from({ length: count }, (_, i) => JSON.stringify({ row: i + 1, ...(ids[i % 4] === null ? {} : { id: ids[i % 4] }), results: { ld: { type: "levenshtein_distance", score: score + i, skipped: false } } })).join("\n") + "\n",
        );
      file("a.jsonl", 12, 0);
      file("b.jsonl", 10, 3);
      const [a, b] = [join(dir, "a.jsonl"), join(dir, "b.jsonl")];
      const text = await cliOutput(["compare", a, b, "--db", join(dir, "none.db")]);
      const json = await cliOutput(["compare", a, b, "--db", join(dir, "none.db"), "--json"]);
      expect(json.code).toBe(text.code);
      const c = JSON.parse(json.out) as ComparisonJson;
      expect(c.a).toEqual({ label: a, id: null, name: null, file: a });
      expect(c.b).toEqual({ label: b, id: null, name: null, file: b });
      expect(c.rows).toEqual({ a: 12, b: 10, matched: 10, a_only: 2, b_only: 0 });
      expect(c.warnings.length).toBeGreaterThan(0);
      expect(text.out.split("\n").filter((l) => l.startsWith("warning: "))).toEqual(c.warnings.map((w) => `warning: ${w}`));
      // stdout holds the JSON alone, so a CI log still sees the warnings the text prints among its lines: on stderr.
      expect(json.err.split("\n").filter((l) => l.startsWith("simeval: warning: "))).toEqual(c.warnings.map((w) => `simeval: warning: ${w}`));
      expect(text.err).not.toContain("warning");
      const worst = c.evaluators[0]!.worst;
      expect(worst.slice(0, 4).map((w) => w.id)).toEqual([`${"x".repeat(100)}…`, "7", null, '{"k":[1,2]}']);
      const shownIds = text.out.split("\n").slice(text.out.split("\n").indexOf("Rows that regressed most on ld:") + 3).slice(0, 4).map((l) => l.trim().split(/\s{2,}/));
      expect(shownIds.map((cells) => (cells.length === 5 ? cells[1] : null))).toEqual(worst.slice(0, 4).map((w) => w.id));
    });
  });

  it("says a warning on stderr with control and bidi characters escaped, as the text prints it on stdout", async () => {
    await inTempDir("simeval-compare-json-", async (dir) => {
      const scores = (i: number) => ({ ld: { type: "levenshtein_distance", score: i, skipped: false } });
      const a = writeResults(join(dir, "a.jsonl"), 3, scores);
      const other = writeResults(join(dir, "other.jsonl"), 3, scores, "\u202e\u009b31m");
      const err: string[] = [];
      const out: string[] = [];
      expect(await compareCommand(a, other, { db: join(dir, "none.db"), json: true }, { stdout: (t) => out.push(t), stderr: (t) => err.push(t) })).toBe(0);
      const c = JSON.parse(out.join("\n")) as ComparisonJson;
      // A warning quotes the id escaped (describeValue), in the JSON too: a bidi override would reorder the message after it.
      expect(c.warnings[0]).toContain('string "\\u202e\\u009b31m1" in');
      expect(c.warnings[0]).not.toMatch(/[\u202e\u009b]/);
      expect(err.join("\n")).not.toMatch(/[\u202e\u009b]/);
      expect(err[0]).toMatch(/^simeval: warning: Runs ".*" and ".*" disagree on the id of 3 rows, first at row 1: string "q1" in ".*", string "\\u202e\\u009b31m1" in/);
    });
  });

  it("gives each field from its own side: B's better is no regression, the evaluators in one run only, a type that only B records, the few-pairs notes", async () => {
    const names = (n: number, score: number, extra: string): RowScores[] => rows(["em", extra], n, score);
    // B better on 20 rows: significant, and not regressed.
    const a = loaded("a", { em: "exact_match", onlyA: "exact_match" }, names(20, 0, "onlyA"), "complete");
    const b = loaded("b", { em: "exact_match", onlyB: "exact_match" }, names(20, 1, "onlyB"), "complete");
    const c = await compare(a, b);
    const j = comparisonJson(c, a, b);
    expect(j.evaluators.map((e) => [e.name, e.better, e.significant, e.regressed])).toEqual([["em", "b", true, false]]);
    expect(j.verdict).toEqual({ regressed_on: [], no_verdict_on: [], withheld: null });
    expect([j.only_in_a, j.only_in_b]).toEqual([["onlyA"], ["onlyB"]]);
    expect(j.settings).toEqual({ ...c.settings, worst: 10 });
    expect(j.notes).toEqual([expect.stringContaining("(seed 1)")]);
    // Fewer than 10 pairs: the text's note under its table is in notes too.
    const [few_a, few_b] = [loaded("fa", { em: "exact_match" }, rows(["em"], 3, 1), "complete"), loaded("fb", { em: "exact_match" }, rows(["em"], 3, 0), "complete")];
    const few = comparisonJson(await compare(few_a, few_b), few_a, few_b);
    expect(few.notes).toHaveLength(3);
    expect(few.notes[1]).toMatch(/^Fewer than 10 pairs \(em\)/);
    for (const note of few.notes) expect(printComparison(await compare(few_a, few_b))).toContain(note);
    // An evaluator whose type A does not record (only errors in a results.jsonl) takes B's.
    const untyped = { ...a, types: { onlyA: "exact_match" } };
    expect(comparisonJson(c, untyped, b).evaluators[0]?.type).toBe("exact_match");
    expect(comparisonJson(c, untyped, { ...b, types: {} }).evaluators[0]?.type).toBeNull();
  });

  it("gives a row id of null as null, as it gives a row without one, and any other id as the text shows it", () => {
    expect([jsonRowId(null), jsonRowId(undefined), jsonRowId(0), jsonRowId("q"), jsonRowId([1])]).toEqual([null, null, "0", "q", "[1]"]);
  });

  it("gives the ids that disagree in dataset_mismatch, and no verdict under the gate (exit 2) as the text does", async () => {
    await inTempDir("simeval-compare-json-", async (dir) => {
      // A has a 13th row that B lacks: a warning of its own, which the ids' disagreement comes before.
      const a = writeResults(join(dir, "a.jsonl"), 13, (i) => ({ ld: { type: "levenshtein_distance", score: i, skipped: false } }));
      const other = writeResults(join(dir, "other.jsonl"), 12, (i) => ({ ld: { type: "levenshtein_distance", score: i, skipped: false } }), "x");
      const text = await cliOutput(["compare", a, other, "--db", join(dir, "none.db"), "--fail-on-regression"]);
      const json = await cliOutput(["compare", a, other, "--db", join(dir, "none.db"), "--fail-on-regression", "--json"]);
      expect([text.code, json.code]).toEqual([2, 2]);
      const c = JSON.parse(json.out) as ComparisonJson;
      expect(json.err).toBe([...c.warnings.map((w) => `simeval: warning: ${w}`), text.err].join("\n"));
      // The refusal follows the flag, so the sentence it quotes does not start with a capital there.
      expect(text.err).toMatch(/^simeval: --fail-on-regression: runs ".*" and ".*" disagree on the id of 12 rows/);
      expect(c.dataset_mismatch).toMatchObject({ rows: 12 });
      expect(c.dataset_mismatch!.examples[0]).toEqual({ row: 1, id_a: "q1", id_b: "x1" });
      expect(c.warnings).toEqual([c.dataset_mismatch!.message, expect.stringMatching(/^A has 13 rows and B 12: only the 12 row numbers in both are compared \(1 in A only\)$/)]);
      expect(text.out).toContain(`warning: ${c.dataset_mismatch!.message}`);
    });
  });
});
