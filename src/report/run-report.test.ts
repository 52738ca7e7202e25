import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import type { EvaluatorSummary } from "../run/types.js";
import { renderRunReport } from "./run-report.js";
import { sampleRunReportInput } from "./sample.js";
import type { RunReportInput } from "./types.js";

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", parseTagValue: false, htmlEntities: true, isArray: (n) => ["g", "rect", "line"].includes(n) });

/** Every inline SVG of a class, parsed (each must be well-formed XML on its own). */
function svgs(html: string, cls: string): { g?: { rect: Record<string, string>[] }[]; line?: Record<string, string>[] }[] {
  return [...html.matchAll(/<svg[\s\S]*?<\/svg>/g)]
    .map((m) => m[0])
    .filter((s) => s.includes(`class="${cls}"`))
    .map((s) => {
      expect(XMLValidator.validate(s)).toBe(true);
      return (parser.parse(s) as { svg: ReturnType<typeof svgs>[number] }).svg;
    });
}

function barCounts(svg: ReturnType<typeof svgs>[number]): number[] {
  return (svg.g ?? []).flatMap((g) => (g.rect ?? []).filter((r) => r["class"]?.startsWith("bar")).map((r) => Number(r["data-count"])));
}

function summary(over: Partial<EvaluatorSummary> = {}): EvaluatorSummary {
  return {
    name: "lev",
    type: "levenshtein",
    direction: "maximize",
    threshold: 0.7,
    n: 3,
    skipped: 1,
    errors: 0,
    mean: 0.5,
    median: 0.5,
    p10: 0.1,
    p90: 0.9,
    min: 0.1,
    max: 0.9,
    pass_rate: 1 / 3,
    verdicts: 3,
    ...over,
  };
}

function input(over: Partial<RunReportInput> = {}): RunReportInput {
  return {
    run: {
      id: "run-1",
      name: "nightly",
      started_at: "2024-06-03T14:22:05Z",
      finished_at: "2024-06-03T14:23:00Z",
      status: "complete",
      dataset_path: "data/qa.jsonl",
      dataset_hash: "abc123",
    },
    summary: { rows: 4, row_errors: 0, skipped_as_zero: false },
    evaluators: [
      {
        summary: summary(),
        histogram: { edges: [0, 0.5, 1], counts: [1, 2] },
        worst: [{ row: 2, id: "q2", score: 0.1, passed: false, reasoning: "too different", expected: "The cat sat on the mat", output: "The dog sat on the mat" }],
      },
    ],
    ...over,
  };
}

describe("renderRunReport", () => {
  it("labels a histogram bin that starts below 0 (shifted to the threshold) by the scores it can hold", () => {
    const html = renderRunReport(input({ evaluators: [{ summary: summary({ threshold: 0.75 }), histogram: { edges: [-0.25, 0.25, 0.75, 1.25], counts: [1, 0, 2] }, worst: [] }] }));
    expect(html).toContain("<title>0–0.2500: 1 row (fail)</title>");
    expect(html).toContain("<title>0.7500–1: 2 rows (pass)</title>");
    expect(html).not.toMatch(/<title>[^<]*(-0\.2|1\.25)/);
  });

  it("is one complete HTML document that loads nothing and runs no script", () => {
    const html = renderRunReport(sampleRunReportInput());
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html.trimEnd().endsWith("</html>")).toBe(true);
    expect(html).toContain(`http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\ssrc=|@import/i);
    // The only URL is the SVG namespace name, which is never fetched.
    for (const url of html.match(/https?:\/\/[^\s"')]+/g) ?? []) expect(url).toBe("http://www.w3.org/2000/svg");
    expect(html.length).toBeLessThan(100_000);
  });

  it("escapes model output: a <script> in an output is shown as text", () => {
    const html = renderRunReport(sampleRunReportInput());
    expect(html).toContain("&lt;script&gt;");
    expect(html).toContain("alert(&#39;bold&#39;)");
    expect(html).not.toMatch(/<script/i);
  });

  it("escapes every field that comes from the run", () => {
    const evil = `<img src=x onerror="alert(1)">`;
    const html = renderRunReport(
      input({
        run: { id: evil, name: evil, started_at: evil, finished_at: null, status: "incomplete", dataset_path: evil, dataset_hash: evil },
        summary: { rows: 1, row_errors: 1, skipped_as_zero: true },
        row_errors: [{ row: 1, line: 1, message: evil }],
        evaluators: [
          {
            summary: summary({ name: evil, type: evil }),
            histogram: { edges: [0, 1], counts: [1] },
            worst: [{ row: 1, id: evil, score: 0, passed: false, reasoning: evil, expected: evil, output: `${evil}!`, tokens: { missing: [evil], extra: [evil], shared_count: 1, missing_count: 1, extra_count: 1 } }],
          },
        ],
      }),
    );
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toContain(`onerror="`);
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  });

  it("says how skipped rows were counted: apart, or as failed with --count-skipped-as-zero, never both", () => {
    const apart = renderRunReport(input());
    expect(apart).toContain("Skipped rows and errors are counted apart and never averaged in.");
    expect(apart).not.toContain("--count-skipped-as-zero");
    const zero = renderRunReport(input({ summary: { rows: 4, row_errors: 0, skipped_as_zero: true } }));
    expect(zero).toContain("Skipped rows (no expected output) were counted as failed, and as score 0 where higher is better (<code>--count-skipped-as-zero</code>)");
    expect(zero).not.toMatch(/Skipped rows[^<]*counted apart/);
  });

  it("shows the header: name, id, times, dataset path and hash, rows and row errors", () => {
    const html = renderRunReport(sampleRunReportInput());
    for (const text of [
      "support-bot v2.3 · nightly",
      "2024-06-03T14-22-05-7f3a",
      "2024-06-03 14:22:05 UTC",
      "2024-06-03 14:22:41 UTC",
      "datasets/support-answers.jsonl",
      "9c1185a5c5e9fc54612808977ee8f548b2258d31a0b1f7e2c2bcd3d1e4f6a0b7",
      "<dt>Rows</dt><dd>240</dd>",
      "⚠ 2",
      "row 57 (line 57): Unexpected token } in JSON at position 112",
    ]) {
      expect(html).toContain(text);
    }
  });

  it("says of a run not read from a dataset file (null dataset_path and dataset_hash: a service's) that it read none, with no sha256", () => {
    const html = renderRunReport(input({ run: { ...input().run, dataset_path: null, dataset_hash: null } }));
    expect(html).toMatch(/<dt>Dataset<\/dt><dd>[^]*none \(not read from a dataset file\)/);
    expect(html).not.toContain("sha256");
    expect(html).not.toContain("null");
  });

  it("says how many unreadable rows are not listed, and nothing more when all are", () => {
    const listed = [
      { row: 2, line: 2, message: "not valid JSON" },
      { row: 5, line: 5, message: "line 5: not valid JSON" },
    ];
    const some = renderRunReport(input({ summary: { rows: 9, row_errors: 5, skipped_as_zero: false }, row_errors: listed }));
    expect(some).toContain(`<p class="sub">and 3 more</p>`);
    const all = renderRunReport(input({ summary: { rows: 9, row_errors: 2, skipped_as_zero: false }, row_errors: listed }));
    // The line, which the reader's message starts with, is said once.
    expect(all).toContain("row 5 (line 5): not valid JSON<");
    expect(all).not.toContain("more</p>");
  });

  it("shows the gates the run was held to, failed first, with a count in the header, and nothing without gates", () => {
    const gates = [
      { name: "--fail-under levenshtein=0.8", passed: true, message: "--fail-under levenshtein=0.8: passed, mean 0.9100" },
      { name: "--min-pass-rate exact_match=0.95", passed: false, message: "--min-pass-rate exact_match=0.95: failed, pass rate 71.3% <b>" },
      { name: "run completed", passed: false, message: "interrupted after 3 rows: the figures cover those rows only" },
    ];
    const html = renderRunReport({ ...sampleRunReportInput(), gates });
    // The badge says the outcome; the message, where it says it too, is not made to say it again.
    expect(html).toContain(`<span class="badge fail">✗ failed</span> --min-pass-rate exact_match=0.95: pass rate 71.3% &lt;b&gt;</li>`);
    expect(html).toContain(`<span class="badge pass">✓ passed</span> --fail-under levenshtein=0.8: mean 0.9100</li>`);
    expect(html).toContain(`<span class="badge fail">✗ failed</span> interrupted after 3 rows: the figures cover those rows only</li>`);
    expect(html).toContain(`<dt>Gates</dt><dd><span class="badge fail">✗ 2 of 3 failed</span></dd>`);
    const list = html.slice(html.indexOf("<h2>Gates</h2>"));
    expect(list.indexOf("71.3% &lt;b&gt;")).toBeGreaterThan(-1);
    expect(list.indexOf("✗ failed")).toBeLessThan(list.indexOf("✓ passed"));
    expect(renderRunReport({ ...sampleRunReportInput(), gates: [gates[0]!] })).toContain(`<span class="badge pass">✓ passed</span></dd>`);
    expect(renderRunReport(sampleRunReportInput())).not.toContain("Gates");
  });

  it("shows the run's warnings at the top, escaped, and no box without them", () => {
    const html = renderRunReport({ ...sampleRunReportInput(), warnings: ['"exact_match": 2 rows failed <b>'] });
    expect(html).toContain(`<div class="warnbox">⚠ &quot;exact_match&quot;: 2 rows failed &lt;b&gt;</div>`);
    expect(renderRunReport(sampleRunReportInput())).not.toContain(`class="warnbox"`);
  });

  it("counts as scored only the rows an evaluator scored, not the zeros --count-skipped-as-zero gave its skipped rows", () => {
    const stats = (html: string) => [...(html.match(/<div class="stats">([\s\S]*?)<\/div>/)?.[1] ?? "").matchAll(/<span>([^<]*) <b>([^<]*)<\/b><\/span>/g)].map((m) => `${m[1]}=${m[2]}`);
    // 3 rows scored and 2 skipped, counted as 0: the figures are over 5 values.
    const zero = input({ summary: { rows: 5, row_errors: 0, skipped_as_zero: true }, evaluators: [{ summary: summary({ n: 5, skipped: 2 }), histogram: null, worst: [] }] });
    expect(stats(renderRunReport(zero))).toEqual(expect.arrayContaining(["scored=3", "skipped, counted as 0=2"]));
    // Lower is better: a skipped row has no score, so none was added.
    const distance = input({ summary: { rows: 5, row_errors: 0, skipped_as_zero: true }, evaluators: [{ summary: summary({ n: 3, skipped: 2, type: "levenshtein_distance", direction: "minimize", threshold: 5 }), histogram: null, worst: [] }] });
    expect(stats(renderRunReport(distance))).toEqual(expect.arrayContaining(["scored=3", "skipped=2"]));
    expect(stats(renderRunReport(input()))).toEqual(expect.arrayContaining(["scored=3", "skipped=1"]));
  });

  it("prints the threshold as the evaluator holds it, and no worst row's score on the wrong side of it", () => {
    const html = renderRunReport(
      input({
        evaluators: [
          {
            summary: summary({ threshold: 0.3334 }),
            histogram: { edges: [0, 0.3334, 1], counts: [1, 2] },
            worst: [{ row: 2, id: "q2", score: 1 / 3, passed: false, reasoning: "", expected: "a", output: "b" }],
          },
          {
            summary: summary({ name: "tfidf", type: "tfidf_similarity", threshold: 0.7 }),
            histogram: null,
            worst: [{ row: 3, id: "q3", score: 0.69996, passed: false, reasoning: "", expected: "a b", output: "a c" }],
          },
        ],
      }),
    );
    // 0.3334 printed "0.333" read as met by the row's 0.333; 0.69996 printed "0.700" read as meeting 0.7, badged failed.
    expect(html).toContain("levenshtein · ↑ higher is better · threshold 0.3334<");
    expect(html).toContain(">threshold 0.3334 · pass ≥ →</text>");
    expect(html).toContain(`<span class="score">score 0.333</span><span class="badge fail">`);
    expect(html).toContain(`<span class="score">score 0.69996</span><span class="badge fail">`);
  });

  it("has one summary row per evaluator with its figures", () => {
    const html = renderRunReport(input());
    const table = html.slice(html.indexOf(`<table class="stack">`), html.indexOf("</table>"));
    expect(table.match(/<tr><th scope="row" class="name">/g)).toHaveLength(1);
    const cells = [...table.matchAll(/<td data-label="([^"]*)">(.*?)<\/td>/g)].map((m) => `${m[1]}=${m[2]}`);
    expect(cells.slice(0, 9)).toEqual(["n=3", "skipped=1", "errors=0", "mean=<b>0.5000</b>", "median=0.5000", "p10=0.1000", "p90=0.9000", "min=0.1000", "max=0.9000"]);
    expect(table).toContain("33.3%");
    expect(table).toContain(`style="width:33.3%"`);
  });

  it("starts every row's pass-rate bar at the same place, its figure in a box as wide as the widest usual one", () => {
    const rates = [1, 2 / 3, 0, 1999 / 2000];
    const html = renderRunReport(input({ evaluators: rates.map((r, i) => ({ summary: summary({ name: `e${i}`, pass_rate: r, verdicts: 2000 }), histogram: { edges: [0, 1], counts: [3] }, worst: [] })) }));
    // The bar then the figure, right-aligned in the cell: the figure in a box of its own, so "100.0%" beside
    // "66.7%" does not push its bar left of the others.
    const figures = [...html.matchAll(/<span class="rate"[^>]*><span class="track">[\s\S]*?<\/span><\/span><span class="pct">([^<]*)<\/span><\/span>/g)].map((m) => m[1]);
    expect(figures).toEqual(["100.0%", "66.7%", "0.0%", "99.95%"]);
    const pct = cssRule(html, ".rate .pct");
    expect(pct).toContain("text-align:right");
    // "100.0%" and "99.95%" are about 3.8em wide in tabular figures: the box holds them, so each bar stays put.
    const width = Number(/min-width:([\d.]+)em/.exec(pct)?.[1]);
    expect(width).toBeGreaterThanOrEqual(4);
    // Where each row is a grid of its own (a narrow screen, a printed page) there is no column to line up, and
    // the box would push the figure out of its grid cell (5 cells across a page): it goes.
    expect(html).toMatch(/@media screen and \(max-width:760px\)\{[^@]*table\.stack \.rate \.pct\{min-width:0\}/);
  });

  it("draws each evaluator's histogram with its counts and its threshold", () => {
    const sample = sampleRunReportInput();
    const charts = svgs(renderRunReport(sample), "chart histogram");
    // Each drawn twice, for a wide and for a narrow screen, with the same bars.
    expect(charts).toHaveLength(2 * sample.evaluators.length);
    sample.evaluators.forEach((ev, i) => {
      for (const chart of [charts[2 * i], charts[2 * i + 1]]) {
        if (!chart) throw new Error("missing chart");
        expect(barCounts(chart)).toEqual(ev.histogram?.counts);
        expect(chart.line?.find((l) => l["class"] === "threshold")?.["data-value"]).toBe(String(ev.summary.threshold));
      }
    });
    // The sample's edit distances use integer bins from 0 to their max.
    const dist = sample.evaluators[1]?.histogram;
    expect(dist?.integer).toBe(true);
    expect(dist?.edges[0]).toBe(-0.5);
    expect(barCounts(charts[2] ?? {}).reduce((a, b) => a + b, 0)).toBe(sample.evaluators[1]?.summary.n);
  });

  it("says so instead of drawing when nothing was scored", () => {
    const html = renderRunReport(input({ evaluators: [{ summary: summary({ n: 0, mean: null }), histogram: null, worst: [] }] }));
    expect(svgs(html, "chart histogram")).toHaveLength(0);
    expect(html).toContain("No row was scored");
  });

  it("lists the worst rows with expected and output, the differences marked", () => {
    const html = renderRunReport(input());
    expect(html).toContain(`<div class="row worst-row" data-row="2">`);
    expect(html).toContain("<b>Row 2</b>");
    expect(html).toContain("<code>q2</code>");
    expect(html).toContain("score 0.100");
    expect(html).toContain(`<span class="badge fail">✗ fail</span>`);
    expect(html).toContain(`The <mark class="missing" title="missing from the output">cat</mark> sat on the mat`);
    expect(html).toContain(`The <mark class="extra" title="not in the expected text">dog</mark> sat on the mat`);
  });

  it("marks words for token evaluators and lists their missing and extra tokens", () => {
    const html = renderRunReport(sampleRunReportInput());
    const jaccard = html.slice(html.indexOf(`data-row="33"`));
    expect(jaccard).toContain(`<mark class="missing" title="missing from the output">Cancel</mark>`);
    expect(jaccard).toContain(`<span class="chip missing">cancel</span>`);
    expect(jaccard).toContain(`<span class="chip extra">subscription</span>`);
    expect(jaccard).toContain("<b>7</b> missing");
  });

  it("lists no row with the best score as a worst row, and says so when every row has it, for either direction", () => {
    const worst = (row: number, score: number) => ({ row, id: null, score, passed: true, reasoning: "", expected: "Paris", output: "paris" });
    const page = (direction: "maximize" | "minimize", scores: number[]) =>
      renderRunReport(input({ evaluators: [{ summary: summary({ name: "ev", direction, skipped: 0 }), histogram: null, worst: scores.map((s, i) => worst(i + 1, s)) }] }));
    const rowsOf = (html: string) => [...html.matchAll(/class="row worst-row" data-row="(\d+)"/g)].map((m) => Number(m[1]));
    const allBest = page("maximize", [1, 1, 1]);
    expect(rowsOf(allBest)).toEqual([]);
    expect(allBest).toContain("<h3>Worst rows</h3><p class=\"empty-state\">Every row scored 1, the best score: there is no worse row to show.</p>");
    expect(rowsOf(page("maximize", [0.9, 1, 1]))).toEqual([1]);
    expect(page("maximize", [0.9, 1, 1])).not.toContain("no worse row");
    expect(rowsOf(page("minimize", [0, 0]))).toEqual([]);
    expect(page("minimize", [0, 0])).toContain("Every row scored 0, the best score");
    expect(rowsOf(page("minimize", [3, 0]))).toEqual([1]);
    // A row skipped or failed did not score 1: "every row" would say it had.
    const partly = renderRunReport(input({ evaluators: [{ summary: summary({ name: "ev", skipped: 1, errors: 1200 }), histogram: null, worst: [worst(1, 1)] }] }));
    expect(partly).toContain("Every scored row has 1, the best score (1 skipped and 1,200 failed, not scored): there is no worse row to show.");
    expect(renderRunReport(input({ evaluators: [{ summary: summary({ name: "ev", skipped: 0, errors: 2 }), histogram: null, worst: [worst(1, 1)] }] }))).toContain("(2 failed, not scored)");
    expect(page("maximize", [])).not.toContain("Worst rows");
  });

  it("marks a token-set evaluator's words present in one text and absent from the other, and its legend says so", () => {
    const worst = (row: number, expected: string, output: string) => ({ row, id: null, score: 0.5, passed: true, reasoning: "", expected, output });
    const html = renderRunReport(
      input({
        evaluators: [
          {
            summary: summary({ name: "jac", type: "jaccard_similarity" }),
            histogram: null,
            highlight: { unit: "word_tokens", ignore_case: true },
            worst: [worst(1, "the cat sat down", "down sat cat the"), worst(2, "yes no", "no no no yes"), worst(3, "مرحبا يا عالم", "مرحبا بالعالم"), worst(4, "<b>我喜欢吃苹果</b>", "我喜欢吃香蕉")],
          },
        ],
      }),
    );
    expect(html).toContain(
      `<mark class="missing">abc</mark> words of the expected text that the output does not have anywhere</span><span><mark class="extra">abc</mark> words of the output that the expected text does not have anywhere</span>`,
    );
    expect(html).toContain("in any order: every occurrence is marked, and order and repeats are not; case is ignored.");
    const row = (n: number) => {
      const start = html.indexOf(`data-row="${n}"`);
      const next = html.indexOf(`class="row worst-row"`, start);
      return html.slice(start, next === -1 ? undefined : next);
    };
    const m = (cls: "missing" | "extra", text: string) => `<mark class="${cls}" title="${cls === "missing" ? "missing from the output" : "not in the expected text"}">${text}</mark>`;
    expect(row(1)).not.toContain("<mark");
    expect(row(2)).not.toContain("<mark");
    expect(row(3)).toContain(`<pre class="text">مرحبا ${m("missing", "يا")} ${m("missing", "عالم")}</pre>`);
    expect(row(3)).toContain(`<pre class="text">مرحبا ${m("extra", "بالعالم")}</pre>`);
    // The tag's letters are words too (and escaped); the CJK sentence is one word.
    expect(row(4)).toContain(`<pre class="text">&lt;${m("missing", "b")}&gt;${m("missing", "我喜欢吃苹果")}&lt;/${m("missing", "b")}&gt;</pre>`);
    expect(row(4)).toContain(`<pre class="text">${m("extra", "我喜欢吃香蕉")}</pre>`);
  });

  it("marks whole characters as a reader sees them: never part of an emoji sequence or a letter and its combining mark", () => {
    const worst = (row: number, expected: string, output: string) => ({ row, id: null, score: 0, passed: false, reasoning: "", expected, output });
    const rows = [worst(1, "ok 👍🏽 now", "ok 👍🏿 now"), worst(2, "a 👨‍👩‍👧‍👦 b", "a 👨‍👩‍👧 b"), worst(3, "nai\u0308ve", "naive"), worst(4, "🇫🇷", "🇫🇮")];
    const m = (cls: "missing" | "extra", text: string) => `<mark class="${cls}" title="${cls === "missing" ? "missing from the output" : "not in the expected text"}">${text}</mark>`;
    for (const unit of ["chars", "words"] as const) {
      const html = renderRunReport(input({ evaluators: [{ summary: summary(), histogram: null, highlight: { unit, ignore_case: false }, worst: rows }] }));
      expect(html).toContain(`<pre class="text">ok ${m("missing", "👍🏽")} now</pre>`);
      expect(html).toContain(`<pre class="text">ok ${m("extra", "👍🏿")} now</pre>`);
      expect(html).toContain(`<pre class="text">a ${m("missing", "👨‍👩‍👧‍👦")} b</pre>`);
      expect(html).toContain(`<pre class="text">a ${m("extra", "👨‍👩‍👧")} b</pre>`);
      expect(html).toContain(`<pre class="text">${unit === "chars" ? `na${m("missing", "i\u0308")}ve` : m("missing", "nai\u0308ve")}</pre>`);
      expect(html).toContain(`<pre class="text">${unit === "chars" ? `na${m("extra", "i")}ve` : m("extra", "naive")}</pre>`);
      expect(html).toContain(`<pre class="text">${m("extra", "🇫🇮")}</pre>`);
    }
    // Character n-grams are of code points; a character with one in no shared n-gram is marked whole.
    const ngrams = renderRunReport(
      input({ evaluators: [{ summary: summary({ type: "tfidf_similarity" }), histogram: null, highlight: { unit: "char_ngrams", ignore_case: false, ngram_size: 3 }, worst: rows.slice(0, 1) }] }),
    );
    expect(ngrams).toContain(`<pre class="text">ok ${m("missing", "👍🏽")} now</pre>`);
    expect(ngrams).toContain(`<pre class="text">ok ${m("extra", "👍🏿")} now</pre>`);
  });

  it("lays out each paragraph of a row's texts in its own direction, so a Hebrew answer's final ? is at its left end", () => {
    const html = renderRunReport(input({ evaluators: [{ summary: summary(), histogram: null, worst: [{ row: 1, id: null, score: 0, passed: false, reasoning: "", expected: "שלום עולם, מה שלומך?", output: "Fine.\nשלום?" }] }] }));
    expect(html).toContain(`<pre class="text">`);
    // The last rule on `.text` that sets unicode-bidi wins the cascade: it must take the direction from the text.
    const css = html.slice(html.indexOf("<style>"), html.indexOf("</style>"));
    const bidi = [...css.matchAll(/([^{}]+)\{([^}]*)\}/g)]
      .filter(([, selectors, body]) => selectors?.split(",").some((s) => s.trim() === ".text") && body?.includes("unicode-bidi"))
      .map(([, , body]) => /unicode-bidi:([a-z-]+)/.exec(body ?? "")?.[1]);
    expect(bidi[bidi.length - 1]).toBe("plaintext");
  });

  it("wraps a long id, warning or gate with no space in it inside its box instead of running off the page", () => {
    const long = "x".repeat(3000);
    const html = renderRunReport(
      input({
        warnings: [`"${long}": 2 rows failed`],
        gates: [{ name: "g", passed: false, message: `--fail-under ${long}=0.9: failed` }],
        evaluators: [{ summary: summary(), histogram: null, worst: [{ row: 1, id: long, score: 0, passed: false, reasoning: "", expected: "a", output: "b" }] }],
      }),
    );
    expect(html).toContain(`<div class="warnbox">⚠ &quot;${long}`);
    expect(html).toContain(`<ul class="sub gates"><li>`);
    // An id is cut to 100 characters (formatId), which still need wrapping on a narrow screen.
    expect(html).toContain(`<div class="row-head"><b>Row 1</b><span class="muted">id <code>${long.slice(0, 100)}…</code></span>`);
    const css = html.slice(html.indexOf("<style>"), html.indexOf("</style>"));
    const rules = [...css.matchAll(/([^{}]+)\{([^}]*)\}/g)];
    for (const cls of [".warnbox", ".sub", ".row-head"]) {
      const own = rules.filter(([, selectors]) => selectors?.split(",").some((s) => s.trim() === cls));
      expect(own.some(([, , body]) => body?.includes("overflow-wrap:anywhere")), cls).toBe(true);
    }
  });

  it("says a character diff is a character diff", () => {
    expect(renderRunReport(input())).toContain(`<span class="muted">A character diff, in order.</span>`);
  });

  it("caps very long texts with a note", () => {
    const long = "word ".repeat(1000);
    const html = renderRunReport(
      input({ evaluators: [{ summary: summary(), histogram: null, worst: [{ row: 1, id: null, score: 0, passed: false, reasoning: "", expected: long, output: "word" }] }] }),
    );
    expect(html).toContain("Expected text cut to its first 2,000 of 5,000 characters.");
    expect(html.length).toBeLessThan(30_000);
  });

  it("cuts huge tokens and a huge reasoning, saying how long they were", () => {
    const huge = "x".repeat(1_000_000);
    const tokens = { shared: [], missing: [huge, "short"], extra: [`${huge.slice(1)}y`], shared_count: 0, missing_count: 2, extra_count: 1 };
    const worst = [{ row: 1, id: null, score: 0, passed: false, reasoning: `shared ${huge}`, expected: huge, output: `${huge.slice(1)}y`, tokens }];
    const html = renderRunReport(input({ evaluators: [{ summary: summary({ type: "jaccard_similarity" }), histogram: null, worst }] }));
    expect(html.length).toBeLessThan(30_000);
    expect(html).toContain(`<span class="chip missing">${"x".repeat(80)}<span class="muted" title="cut to its first 80 characters">… (1,000,000 characters)</span></span>`);
    expect(html).toContain(`<span class="chip extra">${"x".repeat(80)}<span class="muted" title="cut to its first 80 characters">… (1,000,000 characters)</span></span>`);
    expect(html).toContain(`<span class="chip missing">short</span>`);
    expect(html).toContain(`<span class="reason">shared ${"x".repeat(1993)}<span class="muted" title="cut to its first 2,000 characters">… (1,000,007 characters)</span></span>`);
  });
});

describe("charts on a narrow screen", () => {
  it("are drawn a second time for its width, shown in place of the wide drawing, never scrolled sideways", async () => {
    const { renderTrendReport } = await import("./trend-report.js");
    const { sampleTrendInput } = await import("./sample.js");
    for (const html of [renderRunReport(sampleRunReportInput()), renderTrendReport(sampleTrendInput())]) {
      const wide = [...html.matchAll(/<div class="chart-wide"><svg[^>]*viewBox="0 0 (\d+) \d+"/g)].map((m) => Number(m[1]));
      const narrow = [...html.matchAll(/<\/div><div class="chart-narrow"><svg[^>]*viewBox="0 0 (\d+) \d+"/g)].map((m) => Number(m[1]));
      expect(wide.length).toBeGreaterThan(0);
      expect(narrow).toHaveLength(wide.length);
      expect([...html.matchAll(/<svg[^>]*class="chart /g)]).toHaveLength(2 * wide.length);
      // A phone's card is about 340 px wide: the narrow drawing is drawn near that width, so its 11-unit text stays about 10 px.
      for (const w of narrow) expect(w).toBeLessThanOrEqual(400);
      expect(html).toContain(".chart-narrow{display:none}");
      expect(html).toMatch(/@media screen and \(max-width:760px\)\{[^@]*\.chart-wide\{display:none\}\.chart-narrow\{display:block\}/);
      expect(html).not.toMatch(/min-width:\d{3,}px/);
      // SVG ids are document-global: the two drawings' hatch patterns must not share one.
      const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });
});


/** The body of the CSS rule for `selector` in a report's inline style sheet. */
function cssRule(html: string, selector: string): string {
  const at = html.indexOf(`\n${selector}{`);
  expect(at).toBeGreaterThan(-1);
  return html.slice(at + selector.length + 2, html.indexOf("}", at));
}

describe("long evaluator names", () => {
  const name = "levenshtein_similarity_against_the_customer_support_reference";

  it("wrap between their parts in the summary table, never shrinking the column to break a part", () => {
    const html = renderRunReport(input({ evaluators: [{ summary: summary({ name }), histogram: null, worst: [] }] }));
    const cell = html.match(/<tr><th scope="row" class="name"><a [^>]*>(.*?)<\/a><span class="type">(.*?)<\/span><\/th>/);
    expect(cell?.[1]).toBe("levenshtein_<wbr>similarity_<wbr>against_<wbr>the_<wbr>customer_<wbr>support_<wbr>reference");
    expect(cell?.[1]?.replaceAll("<wbr>", "")).toBe(name);
    expect(cell?.[2]).toBe("levenshtein · ↑ higher is better");
    // `anywhere` lets the table's auto layout narrow the column to a few letters and cut mid-part.
    for (const sel of ["td.name,tbody th.name", "th.name"]) {
      expect(cssRule(html, sel)).toContain("overflow-wrap:break-word");
      expect(cssRule(html, sel)).not.toContain("anywhere");
    }
  });

  it("keep the links under the header one line high, cut with an ellipsis and whole in the title", () => {
    const html = renderRunReport(input({ evaluators: [{ summary: summary({ name: `${name}<&>` }), histogram: null, worst: [] }] }));
    const link = html.match(/<nav class="toc"[^>]*>(<a [^>]*>.*?<\/a>)<\/nav>/)?.[1];
    expect(link).toBe(`<a href="#ev-0-${name.replaceAll("_", "-")}" title="${name}&lt;&amp;&gt;">${name}&lt;&amp;&gt;</a>`);
    const rule = cssRule(html, "nav.toc a");
    for (const decl of ["white-space:nowrap", "overflow:hidden", "text-overflow:ellipsis", "display:inline-block"]) expect(rule).toContain(decl);
    expect(rule).not.toContain("overflow-wrap");
  });

  it("are folded away past 12 evaluators (a wide config's 200 pills filled a phone screen nine times), the summary table still linking to each", () => {
    const many = (n: number) =>
      renderRunReport(input({ evaluators: Array.from({ length: n }, (_, i) => ({ summary: summary({ name: `ev${i}` }), histogram: null, worst: [] })) }));
    expect(many(12)).not.toContain("<details");
    expect(many(12).match(/<nav class="toc"[^>]*>(.*?)<\/nav>/)?.[1]?.match(/<a /g)).toHaveLength(12);
    const wide = many(200);
    const folded = wide.match(/<details class="toc"><summary>All 200 evaluators<\/summary><nav class="toc"[^>]*>(.*?)<\/nav><\/details>/)?.[1];
    expect(folded?.match(/<a /g)).toHaveLength(200);
    expect(wide).toContain('<a href="#ev-199-ev199"');
  });
});

describe("summary tables on a narrow screen", () => {
  it("label every figure with its column, for the rows laid out as labelled grids there", async () => {
    const { renderTrendReport } = await import("./trend-report.js");
    const { renderComparisonReport } = await import("./comparison-report.js");
    const { sampleTrendInput, sampleComparisonInput } = await import("./sample.js");
    const pages = [renderRunReport(sampleRunReportInput()), renderComparisonReport(sampleComparisonInput()), renderTrendReport(sampleTrendInput())];
    for (const html of pages) {
      const tables = [...html.matchAll(/<table class="stack"><thead><tr>(.*?)<\/tr><\/thead><tbody>(.*?)<\/tbody><\/table>/g)];
      expect(tables).toHaveLength(1);
      const [, head = "", body = ""] = tables[0] ?? [];
      const columns = [...head.matchAll(/<th[^>]*>(.*?)<\/th>/g)].map((m) => (m[1] ?? "").replaceAll("<wbr>", ""));
      for (const [, row = ""] of body.matchAll(/<tr[^>]*>(.*?)<\/tr>/g)) {
        const cells = [...row.matchAll(/<(?:td|th scope="row")( class="([^"]*)")?( data-label="([^"]*)")?>/g)];
        expect(cells).toHaveLength(columns.length);
        cells.forEach((c, i) => {
          // The name cell heads the row (a row header); every other cell says which column it is.
          if (c[0].startsWith("<th") && (c[2] ?? "").split(" ").includes("name") && c[4] === undefined) return;
          expect(c[4]).toBe(columns[i]);
        });
      }
    }
    const css = pages[0] ?? "";
    expect(css).toMatch(/@media screen and \(max-width:760px\)\{[^@]*table\.stack thead\{display:none\}/);
    expect(css).toMatch(/@media screen and \(max-width:760px\)\{[^@]*table\.stack td\[data-label\]::before\{content:attr\(data-label\)/);
  });
});

describe("headings", () => {
  it("never skip a level, with gates and unreadable rows under the h1 and worst rows' panes under their h3", () => {
    const gates = [{ name: "lev", passed: false, message: "--fail-under lev=0.9: failed, mean 0.8" }];
    const html = renderRunReport({ ...sampleRunReportInput(), gates });
    expect(html).toContain("Rows that could not be read");
    const levels = [...html.matchAll(/<h([1-6])[\s>]/g)].map((m) => Number(m[1]));
    expect(levels).toContain(4);
    levels.forEach((level, i) => expect(level - (levels[i - 1] ?? 0), `heading ${i + 1} is an h${level} after an h${levels[i - 1]}`).toBeLessThanOrEqual(1));
  });
});
