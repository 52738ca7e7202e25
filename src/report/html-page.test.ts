import { describe, expect, it } from "vitest";
import { renderComparisonReport } from "./comparison-report.js";
import { chartLegend, deltaHtml, diffLegend, renderPage } from "./html-page.js";
import { renderRunReport } from "./run-report.js";
import { sampleComparisonInput, sampleRunReportInput, sampleTrendInput } from "./sample.js";
import { renderTrendReport } from "./trend-report.js";

const css = /<style>([\s\S]*?)<\/style>/.exec(renderPage("t", ""))?.[1] ?? "";

/** The value of `property` in the rule whose selector list is exactly `selector`, custom properties resolved. */
function declared(selector: string, property: string): string {
  const rule = css.split("}").map((r) => r.split("{")).find(([sel]) => sel?.trim() === selector);
  const decl = rule?.[1]?.split(";").map((d) => d.split(":")).find(([p]) => p?.trim() === property);
  if (!decl) throw new Error(`no ${property} in ${selector}`);
  return resolve(decl.slice(1).join(":").trim());
}

function resolve(value: string): string {
  return value.replace(/var\((--[\w-]+)\)/g, (_, name: string) => resolve(declared(":root", name)));
}

/** WCAG 2 relative luminance of a #rgb or #rrggbb colour. */
function luminance(colour: string): number {
  expect(colour).toMatch(/^#([0-9a-f]{3}){1,2}$/i);
  const hex = colour.length === 4 ? colour.replace(/[0-9a-f]/gi, "$&$&") : colour;
  const [r = 0, g = 0, b = 0] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe("report CSS contrast", () => {
  const card = resolve("var(--card)");
  const rowHead = declared(".row-head", "background");
  // Every text set in a pass/fail colour, on every background it is drawn on: 12–15 px text needs 4.5:1 (WCAG AA).
  const pairs: [string, string, string][] = [
    [".badge.pass", declared(".badge.pass", "color"), declared(".badge.pass", "background")],
    [".badge.fail", declared(".badge.fail", "color"), declared(".badge.fail", "background")],
    [".badge.none", declared(".badge.none", "color"), declared(".badge.none", "background")],
    [".badge.warn", declared(".badge.warn", "color"), declared(".badge.warn", "background")],
    [".delta.better on a card", declared(".delta.better", "color"), card],
    [".delta.worse on a card", declared(".delta.worse", "color"), card],
    [".delta.better in a row head", declared(".delta.better", "color"), rowHead],
    [".delta.worse in a row head", declared(".delta.worse", "color"), rowHead],
    ["a link in a row head", declared("a", "color"), rowHead],
    ["text in mark.missing", resolve("var(--ink)"), declared("mark.missing", "background")],
    ["text in mark.extra", resolve("var(--ink)"), declared("mark.extra", "background")],
    ["muted text in mark.missing", resolve("var(--muted)"), declared("mark.missing", "background")],
    ["muted text in mark.extra", resolve("var(--muted)"), declared("mark.extra", "background")],
  ];
  it.each(pairs)("%s reads at 4.5:1 or more", (_, fg, bg) => {
    expect(contrast(fg, bg)).toBeGreaterThanOrEqual(4.5);
  });
});

describe("tables that scroll sideways", () => {
  const reports: [string, string][] = [
    ["run report", renderRunReport(sampleRunReportInput())],
    ["comparison", renderComparisonReport(sampleComparisonInput())],
    ["trend", renderTrendReport(sampleTrendInput())],
  ];
  it.each(reports)("the %s's scrolling boxes are tab stops named for their table", (_, html) => {
    const boxes = [...html.matchAll(/<div class="scroll"([^>]*)>/g)].map((m) => m[1] ?? "");
    expect(boxes.length).toBeGreaterThan(0);
    for (const attrs of boxes) {
      expect(attrs).toContain(`tabindex="0"`);
      expect(attrs).toContain(`role="region"`);
      expect(attrs).toMatch(/aria-label="[^"]+"/);
    }
  });
});

describe("printing", () => {
  const print = /@media print\{(.*)\}\s*$/m.exec(css)?.[1] ?? "";
  /** The selectors of the print rules that keep their box on one page. */
  const unbroken = print.split("}").filter((r) => /break-inside:avoid/.test(r)).flatMap((r) => (r.split("{")[0] ?? "").split(","));

  it("lets a card longer than a page break, so a page is not left blank before it", () => {
    expect(print).not.toBe("");
    // A card is a whole section (a summary of 300 rows' evaluators, ten worst rows): kept whole, it went to a
    // new page, leaving the one before it blank under the header, and was broken there all the same.
    expect(unbroken).not.toContain(".card");
  });

  it("keeps the small parts whole: a worst row, a table row, a chart", () => {
    expect(unbroken).toEqual(expect.arrayContaining([".row", "tr", ".chart"]));
  });

  it("takes the wide layout on paper, whose printable width (718 px on A4) is under the phone's breakpoint", () => {
    // A breakpoint without `screen` matched the printed page too: stacked tables and single-column panes on paper.
    const queries = [...css.matchAll(/@media ([^{]*)\{/g)].map((m) => m[1]);
    expect(queries).toEqual(["screen and (max-width:760px)", "print"]);
    // The table is not in a box a reader can scroll there: it fits, or it is stacked.
    expect(print).toContain(".scroll{overflow:visible}");
    // The page's own margins stand for main's padding, and main takes the page's whole width.
    expect(print).toContain("main{padding:0;max-width:none}");
    expect(print).toContain("table.stack.print-stack thead{display:none}");
    expect(print).not.toMatch(/(^|\})table\.stack (thead|tr|td)/);
  });

  it("prints the trend's table of runs stacked only when its evaluators' columns do not fit a page", () => {
    const input = sampleTrendInput();
    const base = input.series[0] as (typeof input.series)[number];
    const table = (n: number) => /<table class="([^"]*)">/.exec(renderTrendReport({ ...input, series: Array.from({ length: n }, (_, i) => ({ ...base, name: `e${i}` })) }))?.[1];
    expect(table(6)).toBe("stack");
    expect(table(7)).toBe("stack print-stack");
    expect(/<table class="([^"]*)">/.exec(renderRunReport(sampleRunReportInput()))?.[1]).toBe("stack");
  });
});

describe("deltaHtml", () => {
  it("marks no change (0) neither better nor worse, in either direction", () => {
    // Without a sign: "+0" read as a rise.
    expect(deltaHtml(0, "maximize")).toBe(`<span class="delta">0</span>`);
    expect(deltaHtml(0, "minimize")).toBe(`<span class="delta">0</span>`);
    expect(deltaHtml(-0, "maximize")).toBe(`<span class="delta">0</span>`);
  });

  it("marks a figure that is no number (NaN, Infinity) neither better nor worse", () => {
    for (const d of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(deltaHtml(d, "maximize")).not.toMatch(/better|worse|▲|▼/);
    }
  });
});

describe("chartLegend", () => {
  it("lists the mean's mark only when the chart draws a mean", () => {
    expect(chartLegend(true, true)).toContain(`<i class="sw mean"></i>mean`);
    expect(chartLegend(true, false)).not.toContain("mean");
    expect(chartLegend(false, true)).toContain(`<i class="sw mean"></i>mean`);
    expect(chartLegend(false, false)).not.toContain("mean");
  });
});

describe("diffLegend", () => {
  it("names tfidf_similarity's default n-gram size (3) when the highlight gives none", () => {
    const legend = diffLegend({ unit: "char_ngrams", ignore_case: false });
    expect(legend).toContain("no 3-character sequence the output also has");
    expect(legend).toContain("Character 3-grams as the evaluator takes them");
    expect(diffLegend({ unit: "char_ngrams", ignore_case: false, ngram_size: 5 })).toContain("no 5-character sequence");
  });
});

describe("renderPage", () => {
  it("says in its footer when the report was generated, in UTC, and nothing of a time it was not given", () => {
    expect(renderPage("t", "", "2025-01-02T03:04:05.678Z")).toContain("<footer>simeval report · generated 2025-01-02 03:04:05 UTC</footer>");
    expect(renderPage("t", "")).toContain("<footer>simeval report</footer>");
  });
});
