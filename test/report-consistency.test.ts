/**
 * The HTML reports against the data they are made from: on generated datasets (random outputs, skipped
 * rows, unreadable rows, evaluator errors, five evaluator types with thresholds), every figure, bar, worst row and mark in
 * `run --report`, `compare --report` and `trend --report` is checked against summary.json, results.jsonl,
 * the comparison and the store, each rebuilt here without the report code.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { diffArrays } from "diff";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../src/cli/main.js";
import { compare } from "../src/cli/commands/compare.js";
import { loadRun } from "../src/cli/run-ref.js";
import { openRecordedRuns } from "../src/cli/commands/recorded-runs.js";
import type { Comparison } from "../src/compare/compare.js";
import { methodsNote } from "../src/compare/methods-note.js";
import { formatSignedFigure } from "../src/report/format.js";
import type { EvaluatorSummary, RunSummary } from "../src/run/types.js";
import { seededRandom } from "../src/stats/prng.js";
import { quantileSorted } from "../src/stats/quantiles.js";

interface Result {
  score: number | null;
  passed: boolean | null;
  skipped: boolean;
  details: Record<string, unknown>;
  reasoning: string;
}
interface Line {
  row: number;
  id?: unknown;
  results?: Record<string, Result | { error: unknown }>;
  error?: unknown;
}

/** A generated dataset and how it is run. */
interface Case {
  title: string;
  seed: number;
  /** Unicode, HTML-special characters, tabs and line breaks, numeric ids, long texts, rows whose output mapping fails. */
  rich: boolean;
  skippedAsZero: boolean;
  specs: { name?: string; type: string; config?: Record<string, unknown>; inputs?: Record<string, string> }[];
}

const name = (spec: Case["specs"][number]) => spec.name ?? spec.type;

const CASES: Case[] = [
  {
    title: "plain words",
    seed: 11,
    rich: false,
    skippedAsZero: false,
    specs: [
      { type: "exact_match" },
      { type: "levenshtein", config: { threshold: 0.72 } },
      { type: "levenshtein_distance", config: { threshold: 7 } },
      { type: "jaccard_similarity", config: { threshold: 0.6 } },
      { type: "tfidf_similarity", config: { threshold: 0.7 } },
      { name: "tfidf_char3", type: "tfidf_similarity", config: { tokenizer: "char_ngram", ngram_size: 3, threshold: 0.6 } },
    ],
  },
  {
    title: "unicode, markup and white space, evaluator errors, --count-skipped-as-zero",
    seed: 21,
    rich: true,
    skippedAsZero: true,
    specs: [
      { type: "exact_match", config: { normalize_whitespace: true, case_sensitive: true } },
      { type: "levenshtein", config: { threshold: 0.85 } },
      { type: "levenshtein_distance", config: { threshold: 4 } },
      { type: "jaccard_similarity", config: { threshold: 0.33, case_sensitive: true } },
      { type: "tfidf_similarity", config: { threshold: 0.5 } },
      { name: "tfidf_char4", type: "tfidf_similarity", config: { tokenizer: "char_ngram", ngram_size: 4, threshold: 0.45 } },
    ].map((spec) => ({ ...spec, inputs: { output: "$.answers[*]" } })),
  },
  {
    title: "thresholds at the ends of the scale",
    seed: 31,
    rich: false,
    skippedAsZero: false,
    specs: [
      { name: "lev_all", type: "levenshtein", config: { threshold: 1 } },
      { name: "lev_none", type: "levenshtein", config: { threshold: 0 } },
      { name: "lev_odd", type: "levenshtein", config: { threshold: 0.333 } },
      { type: "levenshtein_distance", config: { threshold: 0 } },
      { name: "dist_far", type: "levenshtein_distance", config: { threshold: 500 } },
      { type: "jaccard_similarity", config: { threshold: 0.999 } },
      { type: "tfidf_similarity", config: { threshold: 0.05 } },
    ],
  },
];

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(argv, { stdout: (s) => void (out += `${s}\n`), stderr: (s) => void (err += `${s}\n`) });
  return { code, out, err };
}

/** One row of a generated dataset, as written (null for an unreadable line). */
interface Row {
  id: unknown;
  output: string;
  expected?: string;
  /** Rich datasets map the output from `answers[*]`: two answers are that row's error. */
  answers?: string[];
}

/**
 * A dataset of `rows` rows: outputs mutated at random from the expected texts (drawn from `expectedSeed`,
 * so that two datasets can share them), some rows without an expected text, some unreadable.
 */
function dataset(c: Case, seed: number, rows: number): (Row | null)[] {
  const rnd = seededRandom(seed);
  const ref = seededRandom(c.seed);
  const plain = ["the", "cat", "sat", "on", "mat", "Paris", "is", "capital", "of", "France", "refund", "within", "30", "days", "order", "page", "a", "an", "and"];
  const rich = [...plain, "naïve", "café", "Straße", "東京", "👍🏽", "<b>", "a&b", '"q"', "it's", "İstanbul", "ÉCOLE", "שלום", "x_y"];
  const words = c.rich ? rich : plain;
  const gap = (r: () => number) => (!c.rich ? " " : r() < 0.9 ? " " : ["  ", "\t", "\n", " \n "][Math.floor(r() * 4)] as string);
  const sentence = (r: () => number) => {
    const long = c.rich && r() < 0.02;
    const n = long ? 400 : 3 + Math.floor(r() * 8);
    return Array.from({ length: n }, (_, i) => `${i ? gap(r) : ""}${words[Math.floor(r() * words.length)]}`).join("");
  };
  const mutate = (s: string): string => {
    const r = rnd();
    if (r < 0.15) return s;
    if (r < 0.22) return s.toUpperCase();
    if (r < 0.26) return "";
    if (r < 0.36) return sentence(rnd);
    if (r < 0.44) return `  ${s} `;
    const chars = [...s];
    for (let k = 1 + Math.floor(rnd() * 5); k > 0; k--) {
      const at = Math.floor(rnd() * (chars.length + 1));
      const op = rnd();
      if (op < 0.33) chars.splice(at, 1);
      else if (op < 0.66) chars.splice(at, 0, (c.rich ? "xyzé<&" : "xyz")[Math.floor(rnd() * (c.rich ? 6 : 3))] as string);
      else chars.splice(at, 1, "q");
    }
    return rnd() < 0.5 ? chars.join("") : chars.join("").split(" ").reverse().join(" ");
  };
  return Array.from({ length: rows }, (_, i) => {
    const bad = ref() < 0.03;
    const expected = sentence(ref);
    const skipped = ref() < 0.05;
    const failing = c.rich && ref() < 0.03;
    if (bad) return null;
    const output = mutate(expected);
    return {
      id: c.rich && i % 2 ? i : `q${i}`,
      output,
      ...(skipped ? {} : { expected }),
      ...(c.rich ? { answers: failing ? [output, "x"] : [output] } : {}),
    };
  });
}

function writeDataset(path: string, rows: readonly (Row | null)[]): void {
  writeFileSync(path, `${rows.map((r) => (r === null ? "{not json" : JSON.stringify(r))).join("\n")}\n`);
}

const readLines = (path: string): Line[] => readFileSync(path, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Line);

/** An evaluator's scored rows in results.jsonl (neither skipped nor an error). */
function scored(lines: readonly Line[], name: string): { row: number; id: unknown; r: Result }[] {
  return lines.flatMap((l) => {
    const r = l.results?.[name];
    return r && !("error" in r) && !r.skipped && r.score !== null ? [{ row: l.row, id: l.id, r }] : [];
  });
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };
/** Element HTML as the text a reader sees: tags dropped, entities decoded. */
const text = (html: string): string => html.replace(/<[^>]*>/g, "").replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);

/** A change as the reports show it: its figure with a ▲/▼ mark and the word, better or worse in `direction` (so not by colour alone); the bare figure for none. */
const moved = (figure: string, delta: number, direction: string): string =>
  delta === 0 ? figure : (direction === "maximize") === delta > 0 ? `▲${figure} (better)` : `▼${figure} (worse)`;

/** The evaluator sections of a report, in order, by their `id`. */
function sections(html: string): string[] {
  return [...html.matchAll(/<section class="card evaluator" id="[^"]*">([\s\S]*?)<\/section>/g)].map((m) => m[1] as string);
}

const svgParser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", parseTagValue: false, htmlEntities: true, isArray: (n) => ["g", "rect", "line", "text", "circle"].includes(n) });
type Svg = { g?: { rect?: Record<string, string>[]; circle?: Record<string, string>[] }[]; line?: Record<string, string>[]; text?: unknown[] };
function svgs(html: string, cls: string): Svg[] {
  return [...html.matchAll(/<svg[\s\S]*?<\/svg>/g)]
    .map((m) => m[0])
    .filter((s) => s.includes(`class="${cls}"`))
    .map((s) => {
      expect(XMLValidator.validate(s)).toBe(true);
      return (svgParser.parse(s) as { svg: Svg }).svg;
    });
}

/** A pane's `<pre>` as runs of text, marked or not. */
function paneRuns(pre: string): { text: string; marked: boolean }[] {
  const runs: { text: string; marked: boolean }[] = [];
  let at = 0;
  for (const m of pre.matchAll(/<mark class="(?:missing|extra)"[^>]*>([\s\S]*?)<\/mark>/g)) {
    if (m.index > at) runs.push({ text: text(pre.slice(at, m.index)), marked: false });
    runs.push({ text: text(m[1] as string), marked: true });
    at = m.index + m[0].length;
  }
  if (at < pre.length) runs.push({ text: text(pre.slice(at)), marked: false });
  return runs.filter((r) => r.text !== "");
}

/** The `<pre class="text">` panes of a row card, in order. */
function panes(card: string): string[] {
  return [...card.matchAll(/<pre class="text[^"]*"[^>]*>([\s\S]*?)<\/pre>/g)].map((m) => (m[0].includes('class="text empty"') ? "" : (m[1] as string)));
}

const graphemes = (t: string): string[] => Array.from(new Intl.Segmenter("en", { granularity: "grapheme" }).segment(t), (g) => g.segment);

/**
 * A character diff made again with jsdiff (Myers, on grapheme clusters), with the cleanup the report
 * documents: a shared run of fewer than 3 characters between two edits counts as an edit on both sides.
 * Per side, each character with whether it is marked.
 */
function referenceCharMarks(expected: string, output: string, ignoreCase: boolean): [boolean[], boolean[]] {
  const changes = diffArrays(graphemes(expected), graphemes(output), ignoreCase ? { comparator: (a: string, b: string) => a.toLowerCase().replace(/ς/g, "σ") === b.toLowerCase().replace(/ς/g, "σ") } : {});
  const e: boolean[] = [];
  const o: boolean[] = [];
  changes.forEach((c, i) => {
    const edited = (x: (typeof changes)[number] | undefined) => x !== undefined && (x.added || x.removed);
    const absorbed = !c.added && !c.removed && c.count < 3 && edited(changes[i - 1]) && edited(changes[i + 1]);
    if (!c.added) e.push(...Array<boolean>(c.count).fill(c.removed || absorbed));
    if (!c.removed) o.push(...Array<boolean>(c.count).fill(c.added || absorbed));
  });
  return [e, o];
}

/** Per UTF-16 unit of `t`: marked when it is in a word (letters, marks, numbers; lower-cased unless `caseSensitive`) that `other` lacks. */
function referenceWordMarks(t: string, other: string, caseSensitive: boolean): boolean[] {
  const fold = (x: string) => (caseSensitive ? x : x.toLowerCase().replace(/ς/g, "σ"));
  const others = new Set(fold(other).match(/[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu) ?? []);
  const marks = Array<boolean>(t.length).fill(false);
  for (const m of t.matchAll(/[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu)) if (!others.has(fold(m[0]))) marks.fill(true, m.index, m.index + m[0].length);
  return wholeClusters(t, marks);
}

/** Code points of `t` as tfidf's n-grams see it (lower-cased unless `caseSensitive`, white space runs as one space, ends trimmed), each with the span of `t` it stands for. */
function ngramPoints(t: string, caseSensitive: boolean): { cp: string; start: number; end: number }[] {
  const out: { cp: string; start: number; end: number }[] = [];
  for (const m of t.matchAll(/\s+|[^\s]/gu)) {
    const start = m.index;
    const end = start + m[0].length;
    if (/^\s/u.test(m[0])) out.push({ cp: " ", start, end });
    else for (const cp of caseSensitive ? m[0] : m[0].toLowerCase().replace(/ς/g, "σ")) out.push({ cp, start, end });
  }
  while (out[0]?.cp === " ") out.shift();
  while (out[out.length - 1]?.cp === " ") out.pop();
  return out;
}

/**
 * Per UTF-16 unit of `t`: marked when some character n-gram of `t` covers it and none that covers it is
 * one `other` has. A text of at most n characters is one n-gram.
 */
function referenceNgramMarks(t: string, other: string, n: number, caseSensitive: boolean): boolean[] {
  const grams = (points: ReturnType<typeof ngramPoints>) => {
    if (points.length === 0) return [];
    const k = Math.min(n, points.length);
    return Array.from({ length: points.length - k + 1 }, (_, i) => ({
      token: points.slice(i, i + k).map((p) => p.cp).join(""),
      start: (points[i] as (typeof points)[number]).start,
      end: (points[i + k - 1] as (typeof points)[number]).end,
    }));
  };
  const others = new Set(grams(ngramPoints(other, caseSensitive)).map((g) => g.token));
  const mine = grams(ngramPoints(t, caseSensitive));
  const units = Array.from({ length: t.length }, (_, i) => {
    const covering = mine.filter((g) => i >= g.start && i < g.end);
    return covering.length > 0 && covering.every((g) => !others.has(g.token));
  });
  return wholeClusters(t, units);
}

/** Marks per UTF-16 unit, with every grapheme cluster that has a marked unit marked whole (as the report documents). */
function wholeClusters(t: string, marks: boolean[]): boolean[] {
  const out = [...marks];
  for (const g of new Intl.Segmenter("en", { granularity: "grapheme" }).segment(t)) {
    const span = out.slice(g.index, g.index + g.segment.length);
    if (span.includes(true)) out.fill(true, g.index, g.index + g.segment.length);
  }
  return out;
}

/**
 * The reference marks of a row for an evaluator, per UTF-16 unit of each text as shown: [expected, output];
 * undefined past the shown cap, where the report diffs a window of the texts rather than what it shows.
 */
function referenceMarks(spec: Case["specs"][number], expected: string, output: string): [boolean[], boolean[]] | undefined {
  if ([...expected].length > SHOWN || [...output].length > SHOWN) return undefined;
  const caseSensitive = spec.config?.["case_sensitive"] === true || (spec.type === "levenshtein_distance" && spec.config?.["case_sensitive"] !== false);
  if (spec.type === "jaccard_similarity" || (spec.type === "tfidf_similarity" && spec.config?.["tokenizer"] !== "char_ngram")) {
    return [referenceWordMarks(expected, output, caseSensitive), referenceWordMarks(output, expected, caseSensitive)];
  }
  if (spec.type === "tfidf_similarity") {
    const n = spec.config?.["ngram_size"] as number;
    return [referenceNgramMarks(expected, output, n, caseSensitive), referenceNgramMarks(output, expected, n, caseSensitive)];
  }
  const shown = shownAs(spec);
  const [e, o] = [shown(expected), shown(output)];
  const perUnit = (t: string, marks: boolean[]) => graphemes(t).flatMap((g, i) => Array<boolean>(g.length).fill(marks[i] as boolean));
  const [re, ro] = referenceCharMarks(e, o, !caseSensitive);
  return [perUnit(e, re), perUnit(o, ro)];
}

/** Whether a card says its texts differ too much to mark (the one case the report marks nothing, and says so). */
const gaveUp = (card: string) => card.includes('<div class="note">The texts differ too much to highlight.</div>');

/** Per UTF-16 unit of a pane: whether it is marked. */
function unitMarks(pre: string): boolean[] {
  return paneRuns(pre).flatMap((r) => Array<boolean>(r.text.length).fill(r.marked));
}

/** The texts an evaluator compared, as the report shows them: exact_match's trimmed (and white space collapsed when it says so). */
function shownAs(spec: Case["specs"][number]): (t: string) => string {
  if (spec.type !== "exact_match") return (t) => t;
  return (t) => (spec.config?.["normalize_whitespace"] === true ? t.replace(/\s+/gu, " ") : t).trim();
}

/** Each text is shown up to this many code points. */
const SHOWN = 2000;
const capped = (t: string) => [...t].slice(0, SHOWN).join("");

describe.each(CASES)("reports say what the data says: $title", (c) => {
  let dir: string;
  const db = () => join(dir, "db.sqlite");
  const names = c.specs.map(name);
  let rowsA: (Row | null)[];
  let lines: Line[];
  let summaryJson: { summary: RunSummary };
  let runHtml: string;
  let runOut: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "simeval-report-"));
    writeFileSync(join(dir, "evals.json"), JSON.stringify({ evaluators: c.specs }));
    rowsA = dataset(c, c.seed, 320);
    writeDataset(join(dir, "a.jsonl"), rowsA);
    const zero = c.skippedAsZero ? ["--count-skipped-as-zero"] : [];
    const r = await cli("run", join(dir, "a.jsonl"), "--config", join(dir, "evals.json"), "--db", db(), "--name", "A", ...zero, "--out", join(dir, "a.out.jsonl"), "--summary", join(dir, "a.summary.json"), "--report", join(dir, "a.html"));
    expect(r.code).toBe(0);
    runOut = r.out;
    lines = readLines(join(dir, "a.out.jsonl"));
    summaryJson = JSON.parse(readFileSync(join(dir, "a.summary.json"), "utf8"));
    runHtml = readFileSync(join(dir, "a.html"), "utf8");
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The scores behind an evaluator's figures: its scored rows', and with --count-skipped-as-zero a 0 per skipped row where higher is better. */
  const figureScores = (s: EvaluatorSummary): number[] => [
    ...scored(lines, s.name).map((x) => x.r.score as number),
    ...(c.skippedAsZero && s.direction === "maximize" ? Array<number>(s.skipped).fill(0) : []),
  ];

  it("the generated run has skipped rows and unreadable rows on every evaluator (and errors, in a rich dataset)", () => {
    expect(summaryJson.summary.row_errors).toBeGreaterThan(0);
    expect(summaryJson.summary.skipped_as_zero).toBe(c.skippedAsZero);
    for (const s of summaryJson.summary.evaluators) {
      expect(s.skipped).toBeGreaterThan(0);
      if (c.rich) expect(s.errors).toBeGreaterThan(0);
    }
  });

  it("summary.json's figures are those of results.jsonl", () => {
    for (const s of summaryJson.summary.evaluators) {
      const rows = scored(lines, s.name);
      const scores = figureScores(s).sort((a, b) => a - b);
      expect(s.n).toBe(scores.length);
      expect(s.skipped).toBe(lines.filter((l) => (l.results?.[s.name] as Result | undefined)?.skipped).length);
      expect(s.errors).toBe(lines.filter((l) => l.results?.[s.name] && "error" in (l.results[s.name] as object)).length);
      expect(s.mean).toBeCloseTo(scores.reduce((a, b) => a + b, 0) / scores.length, 12);
      expect([s.median, s.p10, s.p90, s.min, s.max]).toEqual([0.5, 0.1, 0.9, 0, 1].map((p) => quantileSorted(scores, p)));
      const skippedVerdicts = c.skippedAsZero ? s.skipped : 0;
      expect(s.verdicts).toBe(rows.filter((x) => x.r.passed !== null).length + skippedVerdicts);
      expect(s.pass_rate).toBe(rows.filter((x) => x.r.passed).length / s.verdicts);
    }
  });

  it("the run report's summary table prints summary.json's figures as the terminal's table does", () => {
    const table = runHtml.slice(runHtml.indexOf('<table class="stack">'), runHtml.indexOf("</table>"));
    const rows = [...table.matchAll(/<tr><th scope="row" class="name">([\s\S]*?)<\/tr>/g)].map((m) => m[1] as string);
    const terminal = runOut.split("\n").filter((l) => summaryJson.summary.evaluators.some((s) => l.startsWith(`${s.name} `)));
    expect(rows).toHaveLength(summaryJson.summary.evaluators.length);
    summaryJson.summary.evaluators.forEach((s, i) => {
      const row = rows[i] as string;
      expect(text(row.match(/<a href="#[^"]*">([\s\S]*?)<\/a>/)?.[1] ?? "")).toBe(s.name);
      const cells = [...row.matchAll(/<td data-label="([^"]*)">([\s\S]*?)<\/td>/g)].map((m) => text(m[2] as string));
      // The terminal's row, split into its columns: the same text in the same order.
      expect([s.name, ...cells]).toEqual((terminal[i] as string).trim().split(/\s{2,}/));
      const passed = scored(lines, s.name).filter((x) => x.r.passed).length;
      expect(row).toContain(`title="${passed} of ${s.verdicts} rows with a verdict passed"`);
      expect(Number(row.match(/style="width:([\d.]+)%"/)?.[1])).toBe(Number(cells[9]?.replace("%", "")));
    });
  });

  it("each histogram's bars count the scores in their bins, and the threshold line sits at the threshold", () => {
    const secs = sections(runHtml);
    expect(secs).toHaveLength(c.specs.length);
    summaryJson.summary.evaluators.forEach((s, i) => {
      const scores = figureScores(s);
      const charts = svgs(secs[i] as string, "chart histogram");
      expect(charts).toHaveLength(2); // wide and narrow
      for (const chart of charts) {
        const bins = (chart.g ?? []).filter((g) => (g as { class?: string }).class === "bin");
        const hits = bins.map((g) => (g.rect ?? []).find((r) => r["class"] === "hit") as Record<string, string>);
        const bars = bins.map((g) => (g.rect ?? []).find((r) => r["class"]?.startsWith("bar ")) as Record<string, string>);
        expect(bars.reduce((a, b) => a + Number(b["data-count"]), 0)).toBe(s.n);
        const last = bars.length - 1;
        const passes = (v: number) => (s.direction === "maximize" ? v >= (s.threshold as number) : v <= (s.threshold as number));
        bars.forEach((bar, k) => {
          const lo = Number(bar["data-lo"]);
          const hi = Number(bar["data-hi"]);
          if (k > 0) expect(lo).toBe(Number(bars[k - 1]?.["data-hi"]));
          const inBin = scores.filter((v) => v >= lo && (v < hi || (k === last && v === hi)));
          expect(Number(bar["data-count"]), `${s.name} bin [${lo}, ${hi})`).toBe(inBin.length);
          // A bar drawn passing holds only passing scores, one drawn failing only failing ones.
          const state = bar["class"]?.split(" ")[1];
          if (state === "pass") expect(inBin.every(passes), `${s.name} bin [${lo}, ${hi}) drawn passing`).toBe(true);
          if (state === "fail") expect(inBin.some(passes), `${s.name} bin [${lo}, ${hi}) drawn failing`).toBe(false);
        });
        // The x scale, from the bins' hit areas: their left edges at data-lo, the last one's right edge at data-hi.
        const x0 = Number(hits[0]?.["x"]);
        const x1 = Number(hits[last]?.["x"]) + Number(hits[last]?.["width"]);
        const lo = Number(bars[0]?.["data-lo"]);
        const hi = Number(bars[last]?.["data-hi"]);
        const x = (v: number) => x0 + ((v - lo) / (hi - lo)) * (x1 - x0);
        const threshold = (chart.line ?? []).find((l) => l["class"] === "threshold") as Record<string, string>;
        expect(Number(threshold["data-value"])).toBe(s.threshold);
        // Between the last passing and the first failing score: for integer distances, half-way between the two integers.
        const at = s.type === "levenshtein_distance" ? Math.floor(s.threshold as number) + 0.5 : (s.threshold as number);
        expect(Math.abs(Number(threshold["x1"]) - x(at)), `${s.name}'s threshold line`).toBeLessThanOrEqual(0.2);
      }
    });
  });

  it("the header and each evaluator's section give summary.json's counts and figures, and the mean marker its mean", () => {
    const header = text(runHtml.slice(runHtml.indexOf("<header"), runHtml.indexOf("</header>")));
    expect(header).toContain(`Rows${summaryJson.summary.rows}`);
    expect(header).toContain(`Row errors⚠ ${summaryJson.summary.row_errors}`);
    // The unreadable rows listed under it are results.jsonl's, in order.
    const listed = [...runHtml.matchAll(/<li>row (\d+) \(line \d+\): /g)].map((m) => Number(m[1]));
    expect(listed).toEqual(lines.filter((l) => l.error).map((l) => l.row));
    const secs = sections(runHtml);
    summaryJson.summary.evaluators.forEach((s, i) => {
      const stats = [...((secs[i] as string).match(/<div class="stats">([\s\S]*?)<\/div>/)?.[1] ?? "").matchAll(/<span>([^<]*) <b>([^<]*)<\/b><\/span>/g)].map((m) => [m[1], text(m[2] as string)]);
      const fig = (v: number | null) => (v === null ? "—" : Number.isInteger(v) ? String(v) : v.toFixed(4));
      // The pass rate as the summary table prints it (the terminal's, see above).
      const row = [...runHtml.matchAll(/<tr><th scope="row" class="name">([\s\S]*?)<\/tr>/g)][i]?.[1] as string;
      const rate = text(row.match(/<td data-label="pass rate">([\s\S]*?)<\/td>/)?.[1] ?? "");
      expect(Object.fromEntries(stats)).toEqual({
        // The rows scored, apart from the zeros --count-skipped-as-zero adds to the figures.
        scored: String(scored(lines, s.name).length),
        mean: fig(s.mean),
        median: fig(s.median),
        p10: fig(s.p10),
        p90: fig(s.p90),
        "pass rate": rate,
        ...(s.skipped ? { [c.skippedAsZero && s.direction === "maximize" ? "skipped, counted as 0" : "skipped"]: String(s.skipped) } : {}),
        ...(s.errors ? { errors: String(s.errors) } : {}),
      });
      for (const chart of svgs(secs[i] as string, "chart histogram")) {
        const mean = (chart.g ?? []).find((g) => (g as { class?: string }).class === "mean") as unknown as { path: Record<string, string>; title: string };
        expect(Number(mean.path["data-value"])).toBe(s.mean);
        expect(mean.title).toBe(`mean ${fig(s.mean)}`);
      }
    });
  });

  /** An evaluator's worst-row cards in the run report: row number and HTML. */
  const worstCards = (i: number) =>
    [...(sections(runHtml)[i] as string).matchAll(/<div class="row worst-row" data-row="(\d+)">([\s\S]*?)(?=<div class="row worst-row"|$)/g)].map((m) => ({ row: Number(m[1]), html: m[2] as string }));
  const record = (row: number) => rowsA[row - 1] as Row;

  it("the worst rows are the 10 worst scored rows of results.jsonl, ties to the lower row, with their scores, verdicts and texts", () => {
    summaryJson.summary.evaluators.forEach((s, i) => {
      const sign = s.direction === "maximize" ? 1 : -1;
      const want = scored(lines, s.name)
        .sort((x, y) => sign * ((x.r.score as number) - (y.r.score as number)) || x.row - y.row)
        .slice(0, 10);
      const cards = worstCards(i);
      expect(cards.map((w) => w.row), s.name).toEqual(want.map((w) => w.row));
      cards.forEach((card, k) => {
        const w = want[k] as (typeof want)[number];
        const head = text(card.html.slice(0, card.html.indexOf('<div class="panes"')));
        expect(head).toContain(`Row ${w.row}`);
        expect(head).toContain(`id ${String(w.id)}`);
        const score = w.r.score as number;
        const printed = head.match(/score ([\d.,]+)/)?.[1] as string;
        if (s.direction === "minimize") expect(printed).toBe(score.toLocaleString("en-US"));
        else {
          // 3 decimals, or more where 3 would carry the score across its threshold.
          const decimals = printed.split(".")[1]?.length ?? 0;
          expect(decimals).toBeGreaterThanOrEqual(3);
          expect(printed).toBe(score.toFixed(decimals));
          expect(Number(printed) >= (s.threshold as number)).toBe(score >= (s.threshold as number));
        }
        expect(head).toContain(w.r.passed ? "✓ pass" : "✗ fail");
        const shown = shownAs(c.specs[i] as Case["specs"][number]);
        const [expected, output] = panes(card.html).map((p) => paneRuns(p).map((r) => r.text).join(""));
        expect(expected).toBe(capped(shown(record(w.row).expected as string)));
        expect(output).toBe(capped(shown(record(w.row).output)));
      });
    });
  });

  it("each worst row marks exactly what a plain diff of its texts (or the evaluator's token sets) says differs", () => {
    let checked = 0;
    c.specs.forEach((spec, i) => {
      for (const card of worstCards(i)) {
        const { expected, output } = record(card.row) as Required<Row>;
        const want = referenceMarks(spec, expected, output);
        if (!want) continue;
        const got = panes(card.html).map(unitMarks);
        const what = `${name(spec)} row ${card.row}`;
        if (gaveUp(card.html)) expect(got.flat().includes(true), what).toBe(false);
        else expect(got, what).toEqual(want);
        checked++;
      }
    });
    expect(checked).toBeGreaterThan(8 * c.specs.length);
  });

  describe("compare --report", () => {
    let comparison: Comparison;
    let cmpHtml: string;
    let cmpOut: string;
    let rowsB: (Row | null)[];
    let linesB: Line[];

    beforeAll(async () => {
      rowsB = dataset(c, c.seed + 1, 320);
      writeDataset(join(dir, "b.jsonl"), rowsB);
      const r = await cli("run", join(dir, "b.jsonl"), "--config", join(dir, "evals.json"), "--db", db(), "--name", "B", "--out", join(dir, "b.out.jsonl"));
      expect(r.code).toBe(0);
      linesB = readLines(join(dir, "b.out.jsonl"));
      const cmp = await cli("compare", "A", "B", "--db", db(), "--report", join(dir, "c.html"));
      expect(cmp.code).toBe(0);
      cmpOut = cmp.out;
      cmpHtml = readFileSync(join(dir, "c.html"), "utf8");
      const store = openRecordedRuns(db());
      try {
        comparison = await compare(await loadRun("A", store), await loadRun("B", store));
      } finally {
        await store.close();
      }
    });

    it("the comparison's means, pairs, row counts and most-regressed rows are those of the two results.jsonl files", () => {
      expect(comparison.evaluators.map((e) => e.name)).toEqual(names);
      for (const e of comparison.evaluators) {
        const a = new Map(scored(lines, e.name).map((x) => [x.row, x.r.score as number]));
        const pairs = scored(linesB, e.name).flatMap((x) => (a.has(x.row) ? [{ row: x.row, id: x.id, a: a.get(x.row) as number, b: x.r.score as number }] : []));
        expect(e.n_pairs).toBe(pairs.length);
        const mean = (v: number[]) => v.reduce((sum, x) => sum + x, 0) / v.length;
        expect(e.mean_a).toBeCloseTo(mean(pairs.map((p) => p.a)), 12);
        expect(e.mean_b).toBeCloseTo(mean(pairs.map((p) => p.b)), 12);
        const better = (p: { a: number; b: number }) => (e.direction === "maximize" ? p.b > p.a : p.b < p.a);
        expect(e.rows).toEqual({
          improved: pairs.filter((p) => p.a !== p.b && better(p)).length,
          regressed: pairs.filter((p) => p.a !== p.b && !better(p)).length,
          unchanged: pairs.filter((p) => p.a === p.b).length,
        });
        const badness = (p: { a: number; b: number }) => (e.direction === "maximize" ? p.a - p.b : p.b - p.a);
        const worst = pairs.filter((p) => badness(p) > 0).sort((x, y) => badness(y) - badness(x) || x.row - y.row).slice(0, 10);
        expect(e.worst).toEqual(worst.map((p) => ({ row: p.row, id: p.id, score_a: p.a, score_b: p.b, delta: p.b - p.a })));
      }
    });

    it("the report's table shows the comparison's figures as the terminal prints them", () => {
      const rows = [...cmpHtml.matchAll(/<tr class="cmp" data-evaluator="([^"]*)">([\s\S]*?)<\/tr>/g)];
      expect(rows.map((r) => r[1])).toEqual(names);
      const terminal = cmpOut.split("\n");
      comparison.evaluators.forEach((e, i) => {
        const row = rows[i]?.[2] as string;
        const cell = (label: string) => text(row.match(new RegExp(`<td(?: class="[^"]*")? data-label="${label}">([\\s\\S]*?)</td>(?=<td|$)`))?.[1] ?? "");
        // The terminal's row: evaluator, pairs, mean A, mean B, B - A, CI, p, verdict, improved/regressed/same.
        const t = (terminal.find((l) => l.startsWith(`${e.name} `)) as string).trim().split(/\s{2,}/);
        expect(cell("pairs")).toBe(t[1]);
        expect(cell("mean A → B")).toBe(`${t[2]} → ${t[3]}`);
        const minus = (x: string) => x.replace(/^-/, "\u2212");
        const [lo, hi] = (t[5] as string).slice(1, -1).split(", ") as [string, string];
        const sign = (x: string) => (x.startsWith("-") ? minus(x) : `+${x}`);
        expect(cell("B − A · 95% CI")).toBe(`${moved(minus(t[4] as string), e.diff as number, e.direction)}${sign(lo)} … ${sign(hi)}`);
        expect(cell("p\u2011value")).toBe((t[6] as string).replace("<0.0001", "< 0.0001"));
        expect(row).toContain(`data-improved="${e.rows.improved}"`);
        expect(row).toContain(`data-regressed="${e.rows.regressed}"`);
        expect(row).toContain(`data-unchanged="${e.rows.unchanged}"`);
        expect(t[8]).toBe(`${e.rows.improved}/${e.rows.regressed}/${e.rows.unchanged}`);
        const verdict = cell("verdict");
        if (e.significant && e.better === "b") expect(verdict).toBe("▲ B better");
        else if (e.significant && e.better === "a") expect(verdict).toBe("▼ B worse");
        else expect(verdict.startsWith("=")).toBe(true);
      });
    });

    it("the terminal and the report name the same tests, saying which evaluators' p counted every sign pattern", () => {
      const note = methodsNote(comparison);
      const exact = comparison.evaluators.filter((e) => e.p_method === "exact").map((e) => e.name);
      const sampled = comparison.evaluators.some((e) => e.p_method === "monte_carlo");
      if (sampled) expect(note).toContain(" random sign patterns (seed 1)");
      if (exact.length) expect(note).toContain(`, exact (every sign pattern counted)${sampled ? ` for ${exact.join(", ")};` : ";"}`);
      expect(cmpOut.split("\n")).toContain(note);
      expect(text(cmpHtml.match(/<p class="sub methods">([\s\S]*?)<\/p>/)?.[1] ?? "")).toBe(note);
    });

    it("the terminal's most-regressed rows are the comparison's, each difference with its sign", () => {
      const terminal = cmpOut.split("\n");
      for (const e of comparison.evaluators.filter((x) => x.rows.regressed > 0)) {
        const start = terminal.indexOf(`Rows that regressed most on ${e.name}:`);
        expect(start, e.name).toBeGreaterThan(0);
        const shown = terminal.slice(start + 3, start + 3 + Math.min(5, e.worst.length)).map((l) => l.trim().split(/\s{2,}/));
        expect(shown.map((cells) => [Number(cells[0]), cells.at(-1)])).toEqual(e.worst.slice(0, 5).map((w) => [w.row, formatSignedFigure(w.delta)]));
      }
    });

    it("the report lists the comparison's most-regressed rows with their scores and both runs' texts", () => {
      const secs = sections(cmpHtml);
      const withRows = comparison.evaluators.filter((e) => e.worst.length);
      expect(secs).toHaveLength(withRows.length);
      withRows.forEach((e, i) => {
        const cards = [...(secs[i] as string).matchAll(/<div class="row regressed-row" data-row="(\d+)">([\s\S]*?)(?=<div class="row regressed-row"|$)/g)];
        expect(cards.map((m) => Number(m[1])), e.name).toEqual(e.worst.map((w) => w.row));
        const shown = shownAs(c.specs.find((x) => name(x) === e.name) as Case["specs"][number]);
        cards.forEach((m, k) => {
          const w = e.worst[k] as Comparison["evaluators"][number]["worst"][number];
          const html = m[2] as string;
          const head = text(html.slice(0, html.indexOf('<div class="panes"')));
          const fig = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(4));
          expect(head).toContain(`A ${fig(w.score_a)} → B ${fig(w.score_b)}`);
          expect(head).toContain(fig(w.delta).replace("-", "\u2212"));
          const a = rowsA[w.row - 1] as Required<Row>;
          const b = rowsB[w.row - 1] as Required<Row>;
          expect(panes(html).map((p) => paneRuns(p).map((r) => r.text).join(""))).toEqual([a.expected, a.output, b.output].map((t) => capped(shown(t))));
          // The expected text is marked against B's output; each output against the expected text.
          const spec = c.specs.find((x) => name(x) === e.name) as Case["specs"][number];
          const vsA = referenceMarks(spec, a.expected, a.output);
          const vsB = referenceMarks(spec, a.expected, b.output);
          if (!vsA || !vsB || gaveUp(html)) return;
          expect(panes(html).map(unitMarks), `${e.name} row ${w.row}`).toEqual([vsB[0], vsA[1], vsB[1]]);
        });
      });
    });

    it("trend --report's points, latest means, changes and table are each run's means as recorded", async () => {
      // A third run without the last evaluator: its line ends a run early.
      writeFileSync(join(dir, "fewer.json"), JSON.stringify({ evaluators: c.specs.slice(0, -1) }));
      expect((await cli("run", join(dir, "a.jsonl"), "--config", join(dir, "fewer.json"), "--db", db(), "--name", "C")).code).toBe(0);
      const t = await cli("trend", "--db", db(), "--report", join(dir, "t.html"));
      expect(t.code).toBe(0);
      const html = readFileSync(join(dir, "t.html"), "utf8");
      const store = openRecordedRuns(db());
      const runs = (await store.listRuns()).reverse();
      await store.close();
      const secs = sections(html);
      expect(secs).toHaveLength(names.length);
      names.forEach((evaluator, i) => {
        const means = runs.map((r) => r.summary?.evaluators.find((e) => e.name === evaluator)?.mean ?? null);
        const has = runs.flatMap((r) => r.summary?.evaluators.find((e) => e.name === evaluator) ?? []);
        const latest = has[has.length - 1];
        const fig = (v: number | null) => (v === null ? "—" : Number.isInteger(v) ? String(v) : v.toFixed(4));
        for (const chart of svgs(secs[i] as string, "chart line-chart")) {
          const points = (chart.g ?? []).flatMap((g) => g.circle ?? []);
          expect(points.map((p) => Number(p["data-value"])), evaluator).toEqual(means.filter((m) => m !== null));
          // Each point's hover prints its mean as the table does.
          const titles = (chart.g ?? []).flatMap((g) => (g.circle ? [String((g as { title?: unknown }).title).split(": mean ")[1]] : []));
          expect(titles).toEqual(means.filter((m) => m !== null).map((m) => fig(m)));
          expect(Number((chart.line ?? []).find((l) => l["class"] === "threshold")?.["data-value"])).toBe(latest?.threshold);
          // Higher means are drawn higher.
          points.forEach((p, k) => points.forEach((q, j) => {
            if ((means[k] as number) > (means[j] as number)) expect(Number(p["cy"])).toBeLessThanOrEqual(Number(q["cy"]));
          }));
        }
        // No change (0) has no sign: "+0" read as a rise.
        const signed = (v: number) => (v === 0 ? "0" : v < 0 ? `\u2212${fig(-v)}` : `+${fig(v)}`);
        const [previous, last] = has.slice(-2).map((e) => e.mean as number) as [number, number];
        const stats = text((secs[i] as string).match(/<div class="stats">([\s\S]*?)<\/div>/)?.[1] ?? "");
        const change = moved(signed(last - previous), last - previous, latest?.direction as string);
        if (means[means.length - 1] !== null) expect(stats).toBe(`latest mean ${fig(last)}since the previous run ${change}`);
        else expect(stats).toBe(`not in the latest run; last mean ${fig(last)} in B (${stats.match(/\(([^)]*)\)/)?.[1]})since A ${change}`);
      });
      // The table of runs: one row per run, a cell per evaluator, as the terminal's table.
      // Stacked in print (print-stack) past six evaluators.
      const table = html.slice(html.lastIndexOf('<table class="stack'));
      const rows = [...table.matchAll(/<tr>(<td data-label="#">[\s\S]*?)<\/tr>/g)].map((m) => m[1] as string);
      // The terminal's rows: "#1  NAME  …", numbered as the report's.
      const terminal = t.out.split("\n").filter((l) => /^#\d+\s/.test(l) && runs.some((r) => l.split(/\s{2,}/)[1] === r.name));
      expect(rows).toHaveLength(runs.length);
      rows.forEach((row, k) => {
        const cells = names.map((n) => text(row.match(new RegExp(`data-label="${n}">([\\s\\S]*?)</td>`))?.[1] ?? ""));
        // The terminal's "-" for a run without the evaluator is the report's "—".
        expect(cells).toEqual((terminal[k] as string).trim().split(/\s{2,}/).slice(-names.length).map((x) => (x === "-" ? "—" : x)));
      });
    });
  });
});
