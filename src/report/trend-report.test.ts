import { describe, expect, it } from "vitest";
import { renderPage } from "./html-page.js";
import { sampleTrendInput } from "./sample.js";
import { renderTrendReport } from "./trend-report.js";

describe("renderTrendReport", () => {
  it("draws one line chart per evaluator with a point per run that has a mean", () => {
    const input = sampleTrendInput();
    const html = renderTrendReport(input);
    const charts = [...html.matchAll(/<svg[^>]*class="chart line-chart"[\s\S]*?<\/svg>/g)].map((m) => m[0]);
    // Each drawn twice, for a wide and for a narrow screen, with the same points.
    expect(charts).toHaveLength(2 * input.series.length);
    input.series.forEach((s, i) => {
      for (const chart of [charts[2 * i] ?? "", charts[2 * i + 1] ?? ""]) {
        const values = [...chart.matchAll(/<circle class="point [a-z]+" data-value="([^"]+)"/g)].map((m) => Number(m[1]));
        expect(values).toEqual(s.means.filter((m) => m !== null));
        expect(chart).toContain(`class="threshold" data-value="${s.threshold}"`);
      }
    });
  });

  it("links under its header to each evaluator's chart, folded past 12 evaluators", () => {
    const input = sampleTrendInput();
    const html = renderTrendReport(input);
    const targets = [...(html.match(/<nav class="toc"[^>]*>(.*?)<\/nav>/)?.[1] ?? "").matchAll(/<a href="#([^"]+)"[^>]*>([^<]*)<\/a>/g)];
    expect(targets.map((m) => m[2])).toEqual(input.series.map((s) => s.name));
    const sections = [...html.matchAll(/<section class="card evaluator" id="([^"]+)"><div class="ev-head"><h2>/g)].map((m) => m[1]);
    expect(targets.map((m) => m[1])).toEqual(sections);
    const base = input.series[0] as (typeof input.series)[number];
    const wide = renderTrendReport({ ...input, series: Array.from({ length: 13 }, (_, i) => ({ ...base, name: `e${i}` })) });
    expect(wide).toMatch(/<details class="toc"><summary>All 13 evaluators<\/summary><nav class="toc"/);
  });

  it("prints a threshold as the evaluator holds it, in the heading and on the chart", () => {
    const input = sampleTrendInput();
    const html = renderTrendReport({ ...input, series: [{ ...(input.series[0] as (typeof input.series)[number]), threshold: 0.3334 }] });
    expect(html).toContain("· threshold 0.3334</span>");
    expect(html).toContain(">threshold 0.3334</text>");
  });

  it("shows the latest mean and its change as the terminal prints them (4 decimals), coloured by direction", () => {
    const html = renderTrendReport(sampleTrendInput());
    expect(html).toContain(`latest mean <b>0.6880</b>`);
    expect(html).toContain(`<b class="delta worse"><span class="mark" aria-hidden="true">▼</span>\u22120.0240<span class="sr"> (worse)</span></b>`);
    // edit distance fell from 7.9 to 6.4: better, since lower is better.
    expect(html).toContain(`<b class="delta better"><span class="mark" aria-hidden="true">▲</span>\u22121.5000<span class="sr"> (better)</span></b>`);
  });

  it("lists every run in a table and escapes run names", () => {
    const html = renderTrendReport({
      title: "<b>t</b>",
      runs: [
        { id: "1", name: "<script>x</script>", started_at: "2024-01-01T00:00:00Z" },
        { id: "2", name: null, started_at: "2024-01-02T00:00:00Z" },
      ],
      series: [{ name: "lev", type: "levenshtein", direction: "maximize", threshold: null, means: [0.5, null] }],
    });
    expect(html).not.toMatch(/<script|<b>t/);
    expect(html).toContain("&lt;script&gt;x&lt;/script&gt;");
    expect(html).toContain(`<td data-label="lev">0.5000</td>`);
    expect(html).toContain(`<td data-label="lev">—</td>`);
  });

  it("says so when no run has a mean", () => {
    const html = renderTrendReport({ runs: [], series: [{ name: "lev", type: "levenshtein", direction: "maximize", threshold: 0.7, means: [] }] });
    expect(html).toContain("No run has a mean for this evaluator.");
    expect(html).not.toContain("line-chart");
  });

  it("says there is no run to show, rather than drawing a table of bare column heads, when no run was kept", () => {
    const html = renderTrendReport({ runs: [], series: [], warnings: ['No complete run named "x"'] });
    expect(html).not.toContain("<table");
    expect(html).toContain(`<h2>All runs</h2><p class="empty-state">No run to show.</p>`);
  });

  it("shows each run's dataset and the terminal's warnings, as the terminal does", () => {
    const html = renderTrendReport({
      runs: [
        { id: "1", name: "a", started_at: "2024-01-01T00:00:00Z", dataset_path: "/data/a.jsonl" },
        { id: "2", name: "b", started_at: "2024-01-02T00:00:00Z", dataset_path: "/data/<b>.jsonl" },
      ],
      series: [{ name: "lev", type: "levenshtein", direction: "maximize", threshold: null, means: [0.5, 0.9] }],
      warnings: ["these runs are on 2 datasets, whose means need not be comparable"],
    });
    expect(html).toContain(`<th scope="col" class="name left">Dataset</th>`);
    // A path may wrap between its parts (<wbr>); its text is whole.
    expect(html.replaceAll("<wbr>", "")).toContain("/data/a.jsonl");
    expect(html.replaceAll("<wbr>", "")).toContain("/data/&lt;b&gt;.jsonl");
    expect(html).toContain(`<div class="warnbox">⚠ these runs are on 2 datasets, whose means need not be comparable</div>`);
  });

  it("sets the run and its dataset, which are text, left in the table of runs, heads and cells alike; the figures right", () => {
    const html = renderTrendReport({
      runs: [
        { id: "01m8er4ymhfj2ev8dea4e53t22", name: "nightly", started_at: "2024-01-01T00:00:00Z", dataset_path: "/data/a.jsonl" },
        { id: "01m8er4zgze4233mr8rgxqfjbe", name: "nightly", started_at: "2024-01-02T00:00:00Z", dataset_path: "/data/b.jsonl" },
      ],
      series: [{ name: "lev", type: "levenshtein", direction: "maximize", threshold: null, means: [0.5, 0.9] }],
    });
    // Which of a table's cells the report's CSS sets left: the first of a row, and those of class "left".
    const rule = /<style>[\s\S]*?\n([^{}\n]*)\{text-align:left\}/.exec(renderPage("t", ""))?.[1] ?? "";
    const selectors = rule.split(",");
    expect(selectors).toEqual(expect.arrayContaining(["th:first-child", "td:first-child", "th.left", "td.left"]));
    const alignOf = (cells: string[]) =>
      cells.map((c, i) => (i === 0 || /^<t[hd][^>]*class="[^"]*\bleft\b/.test(c) ? "left" : "right"));
    const table = /<table class="stack">([\s\S]*?)<\/table>/.exec(html)?.[1] ?? "";
    const cellsOf = (tr: string) => [...tr.matchAll(/<t[hd][\s>][\s\S]*?<\/t[hd]>/g)].map((m) => m[0]);
    const [head = "", ...rows] = [...table.matchAll(/<tr>[\s\S]*?<\/tr>/g)].map((m) => m[0]);
    const expected = ["left", "left", "right", "left", "right"]; // #, Run, Started, Dataset, lev
    expect(alignOf(cellsOf(head))).toEqual(expected);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(alignOf(cellsOf(row))).toEqual(expected);
  });

  it("lets the table of runs fit a 1280 px screen: its path, run id, start time and \"no row scored\" may wrap", () => {
    const path = "/data/customersupportevaluationdatasetsversiontwo/nightlyregressionsuitefinal.jsonl";
    const html = renderTrendReport({
      runs: [{ id: "01m8er4ymhfj2ev8dea4e53t22", name: "nightly", started_at: "2024-01-01T00:00:00Z", dataset_path: path }],
      series: ["a", "b"].map((name) => ({ name, type: "levenshtein", direction: "maximize" as const, threshold: null, means: [null], unscored: [name === "a"] })),
    });
    // A path's part or a run id held whole, a time on one line and "no row scored" in each column widened the table
    // with six evaluators past a 1280 px page (1,160 px in a box of 1,078), to scroll sideways.
    expect(html).toContain(`<span class="type id">01m8er4ymhfj2ev8dea4e53t22</span>`);
    expect(html).toContain(`<td class="wrap" data-label="Started"><span class="nw">2024-01-01</span> <span class="nw">00:00:00 UTC</span></td>`);
    expect(html).toMatch(/<td class="name left path" data-label="Dataset">\/<wbr>data\/<wbr>/);
    expect(html).toContain(`<td class="wrap" data-label="a">no row scored</td>`);
    const rules = (/<style>([\s\S]*?)<\/style>/.exec(renderPage("t", ""))?.[1] ?? "").split("}").map((r) => r.split("{"));
    const rule = (selector: string) => rules.find(([sel]) => sel?.trim().split(",").includes(selector))?.[1] ?? "";
    expect(rule("td.path")).toContain("overflow-wrap:anywhere");
    expect(rule("th.name .id")).toContain("overflow-wrap:anywhere");
    expect(rule("td.wrap")).toContain("white-space:normal");
    expect(rule(".nw")).toContain("white-space:nowrap");
  });

  it("writes a start that is not a time as it is, escaped and unsplit", () => {
    const html = renderTrendReport({
      runs: [{ id: "r1", name: "r", started_at: "last <b>night</b>" }],
      series: [{ name: "a", type: "levenshtein", direction: "maximize" as const, threshold: null, means: [0.5] }],
    });
    expect(html).toContain(`<td class="wrap" data-label="Started">last &lt;b&gt;night&lt;/b&gt;</td>`);
  });

  it("does not call the mean of an evaluator the latest run lacks its latest mean", () => {
    const html = renderTrendReport({
      runs: [
        { id: "1", name: "a", started_at: "2024-01-01T00:00:00Z" },
        { id: "2", name: "b", started_at: "2024-01-02T00:00:00Z" },
        { id: "3", name: "c", started_at: "2024-01-03T00:00:00Z" },
      ],
      series: [
        { name: "jac", type: "jaccard_similarity", direction: "maximize", threshold: null, means: [0.5, 0.6, null] },
        { name: "lev", type: "levenshtein", direction: "maximize", threshold: null, means: [0.5, 0.6, 0.7] },
      ],
    });
    expect(html).toContain("not in the latest run; last mean <b>0.6000</b> in b");
    expect(html).toContain("latest mean <b>0.7000</b>");
    expect(html).not.toContain("latest mean <b>0.6000</b>");
  });

  it("names the run a change is measured from when it is not the run just before the latest", () => {
    const runs = ["a", "b", "c", "d"].map((name, i) => ({ id: String(i), name, started_at: `2024-01-0${i + 1}T00:00:00Z` }));
    const html = renderTrendReport({
      runs,
      series: [
        // Removed for two runs, then back: 0.7 is measured from a's 0.5, not from the run before d.
        { name: "em", type: "exact_match", direction: "maximize", threshold: null, means: [0.5, null, null, 0.7] },
        // Not in the latest run: its last change is b to c.
        { name: "jac", type: "jaccard_similarity", direction: "maximize", threshold: null, means: [null, 0.6, 0.4, null] },
        { name: "lev", type: "levenshtein", direction: "maximize", threshold: null, means: [0.5, 0.6, 0.7, 0.9] },
      ],
    });
    expect(html).toContain(`since a <b class="delta better"><span class="mark" aria-hidden="true">▲</span>+0.2000<span class="sr"> (better)</span></b>`);
    expect(html).toContain(`since b <b class="delta worse"><span class="mark" aria-hidden="true">▼</span>\u22120.2000<span class="sr"> (worse)</span></b>`);
    expect(html).toContain(`since the previous run <b class="delta better"><span class="mark" aria-hidden="true">▲</span>+0.2000<span class="sr"> (better)</span></b>`);
  });

  it("tells an evaluator that scored no row in the latest run from one the latest run does not have", () => {
    const html = renderTrendReport({
      runs: ["a", "b"].map((name, i) => ({ id: String(i), name, started_at: `2024-01-0${i + 1}T00:00:00Z` })),
      series: [
        { name: "jac", type: "jaccard_similarity", direction: "maximize", threshold: null, means: [0.5, null], unscored: [false, true] },
        { name: "lev", type: "levenshtein", direction: "maximize", threshold: null, means: [0.5, null] },
      ],
    });
    expect(html).toContain("no row scored in the latest run; last mean <b>0.5000</b> in a");
    expect(html).toContain("not in the latest run; last mean <b>0.5000</b> in a");
    expect(html).toMatch(/<td class="wrap" data-label="[^"]*">no row scored<\/td>/);
    expect(html.match(/<td data-label="[^"]*">—<\/td>/g)).toHaveLength(1);
    // The charts' text alternatives tell them apart as the table does.
    const descs = [...html.matchAll(/<div class="chart-wide"><svg[^>]*><desc>([^<]*)<\/desc>/g)].map((m) => m[1]);
    expect(descs).toEqual([
      "#1 a · 2024-01-01 00:00:00 UTC: mean 0.5000; #2 b · 2024-01-02 00:00:00 UTC: no row scored.",
      "#1 a · 2024-01-01 00:00:00 UTC: mean 0.5000; #2 b · 2024-01-02 00:00:00 UTC: not in this run.",
    ]);
  });
});

/** The x labels of the first chart as drawn for a wide screen. */
function xLabels(html: string): (string | undefined)[] {
  const wide = html.match(/<div class="chart-wide">([\s\S]*?)<\/div>/)?.[1] ?? "";
  return [...wide.matchAll(/<text class="tick x-label"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
}

describe("renderTrendReport, runs that share a name", () => {
  it("labels each run under the chart apart, by the number the table of runs shows", () => {
    const name = "nightly-regression-suite-for-the-support-bot";
    const runs = [1, 2, 3].map((d) => ({ id: `r${d}`, name, started_at: `2024-01-0${d}T00:00:00Z` }));
    const html = renderTrendReport({ runs, series: [{ name: "lev", type: "levenshtein", direction: "maximize", threshold: null, means: [0.1, 0.2, 0.3] }] });
    const labels = xLabels(html);
    expect(labels).toHaveLength(3);
    expect(new Set(labels).size).toBe(3);
    labels.forEach((l, i) => expect(l).toMatch(new RegExp(`^#${i + 1} nightly`)));
    [1, 2, 3].forEach((n) => expect(html).toContain(`<tr><td data-label="#">#${n}</td><th scope="row" class="name left">`));
  });

  it("keeps the plain names when they already read apart", () => {
    const runs = ["a", "b"].map((name, i) => ({ id: name, name, started_at: `2024-01-0${i + 1}T00:00:00Z` }));
    const html = renderTrendReport({ runs, series: [{ name: "lev", type: "levenshtein", direction: "maximize", threshold: null, means: [0.1, 0.2] }] });
    expect(xLabels(html)).toEqual(["a", "b"]);
  });
});
