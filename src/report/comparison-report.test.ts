import { describe, expect, it } from "vitest";
import { renderComparisonReport } from "./comparison-report.js";
import { sampleComparisonInput } from "./sample.js";
import type { ComparisonEvaluator, ComparisonReportInput } from "./types.js";

function evaluator(over: Partial<ComparisonEvaluator> = {}): ComparisonEvaluator {
  return {
    name: "lev",
    type: "levenshtein",
    direction: "maximize",
    n_pairs: 10,
    mean_a: 0.8,
    mean_b: 0.7,
    diff: -0.1,
    ci: [-0.15, -0.05],
    p_value: 0.0004,
    better: "a",
    significant: true,
    improved: 1,
    regressed: 6,
    unchanged: 3,
    worst: [{ row: 4, id: "q4", score_a: 0.9, score_b: 0.2, delta: -0.7, expected: "Paris is the capital", output_a: "Paris is the capital", output_b: "Lyon is the capital" }],
    ...over,
  };
}

function input(over: Partial<ComparisonReportInput> = {}): ComparisonReportInput {
  const run = { id: "a", name: "base", started_at: "2024-06-01T00:00:00Z", dataset_path: "d.jsonl", dataset_hash: "h1" };
  return { a: run, b: { ...run, id: "b", name: "cand" }, evaluators: [evaluator()], ...over };
}

/** The summary table row of one evaluator. */
function tableRow(html: string, name: string): string {
  const start = html.indexOf(`<tr class="cmp" data-evaluator="${name}">`);
  expect(start).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf("</tr>", start));
}

describe("renderComparisonReport", () => {
  it("names the evaluators of one run only, which were not compared, as simeval compare does under its table", () => {
    const html = renderComparisonReport(input({ only_in_a: ["old_metric", "<b>x</b>"], only_in_b: ["new_metric"] }));
    expect(html).toContain(`<p class="sub not-compared">Only in A (not compared): old_metric, &lt;b&gt;x&lt;/b&gt;</p>`);
    expect(html).toContain(`<p class="sub not-compared">Only in B (not compared): new_metric</p>`);
    expect(renderComparisonReport(input())).not.toContain("not compared");
    expect(() => renderComparisonReport(input({ only_in_a: "old_metric" as unknown as string[] }))).toThrow(/only_in_a/);
  });

  it("calls A the run compared against, not the baseline, which `simeval baseline set` may have given another run", () => {
    const html = renderComparisonReport(input());
    expect(html).toContain("<dt>A · compared against</dt>");
    expect(html).toContain("<dt>B · candidate</dt>");
    expect(html).not.toMatch(/· baseline|Output A ·/);
  });

  it("shows both means, the difference with its CI, the p-value, the verdict and the row counts", () => {
    const html = renderComparisonReport(input());
    const row = tableRow(html, "lev");
    expect(row).toContain(`<span class="mean-a">0.8000</span> → <b class="mean-b">0.7000</b>`);
    expect(row).toContain(`<span class="delta worse"><span class="mark" aria-hidden="true">▼</span>\u22120.1000<span class="sr"> (worse)</span></span>`);
    expect(row).toContain(`<span class="ci">\u22120.1500 … \u22120.0500</span>`);
    expect(row).toContain(`<td data-label="p\u2011value">0.0004</td>`); // a non-breaking hyphen: the header broke in two
    expect(html).toContain(`<th scope="col">p\u2011value</th>`);
    expect(row).toContain(`<span class="badge fail">▼ B worse</span>`);
    expect(row).toContain(`data-improved="1"`);
    expect(row).toContain(`data-regressed="6"`);
    expect(row).toContain(`data-unchanged="3"`);
  });

  it("prints p with digits enough not to read across the comparison's own level, not 0.05's", () => {
    const at99 = tableRow(renderComparisonReport(input({ confidence: 0.99, evaluators: [evaluator({ p_value: 0.009995 })] })), "lev");
    expect(at99).toContain(">0.009995<");
    const at95 = tableRow(renderComparisonReport(input({ confidence: 0.95, evaluators: [evaluator({ p_value: 0.009995 })] })), "lev");
    expect(at95).toContain(">0.0100<");
    // No confidence given (a library caller's input): judged at 0.95's level, as the level shown is.
    expect(tableRow(renderComparisonReport(input({ evaluators: [evaluator({ p_value: 0.049995 })] })), "lev")).toContain(">0.04999<");
  });

  it("reads direction: a lower mean distance is better", () => {
    const html = renderComparisonReport(
      input({ evaluators: [evaluator({ name: "dist", type: "levenshtein_distance", direction: "minimize", mean_a: 8, mean_b: 6, diff: -2, ci: [-3, -1], better: "b" })] }),
    );
    const row = tableRow(html, "dist");
    expect(row).toContain(`<span class="delta better"><span class="mark" aria-hidden="true">▲</span>\u22122<span class="sr"> (better)</span></span>`);
    expect(row).toContain(`<span class="badge pass">▲ B better</span>`);
    expect(row).toContain(`class="ci-dot better"`);
  });

  it("prints no change, and an interval bound of 0, without a sign, as \`simeval compare\` does", () => {
    const same = evaluator({ mean_a: 0.5, mean_b: 0.5, diff: 0, ci: [0, 0], p_value: 1, better: null, significant: false, worst: [] });
    const html = renderComparisonReport(input({ evaluators: [same] }));
    // The terminal: 0.5000  0.5000  0  [0, 0]; "+0" read as a rise.
    expect(tableRow(html, "lev")).toContain(`<span class="delta">0</span><span class="ci">0 … 0</span>`);
    expect(html).not.toMatch(/[+\u2212]0(?![.\d])/);
  });

  it("prints means and differences as \`simeval compare\` does: a small significant difference never reads as zero", () => {
    const tiny = evaluator({ n_pairs: 100, mean_a: 0.5, mean_b: 0.5002, diff: 0.0002, ci: [0.0002, 0.0002], p_value: 0.00001, better: "b", significant: true, worst: [] });
    const row = tableRow(renderComparisonReport(input({ evaluators: [tiny] })), "lev");
    // The terminal: 0.5000  0.5002  +0.0002  [0.0002, 0.0002]  <0.0001  B
    expect(row).toContain(`<span class="mean-a">0.5000</span> → <b class="mean-b">0.5002</b>`);
    expect(row).toContain(`<span class="delta better"><span class="mark" aria-hidden="true">▲</span>+0.0002<span class="sr"> (better)</span></span><span class="ci">+0.0002 … +0.0002</span>`);
    expect(row).toContain("▲ B better");
    expect(row).not.toMatch(/±|0\.000(?!\d)/);
    // Smaller still: more decimals rather than zero; distances get 4 decimals too.
    const tinier = tableRow(renderComparisonReport(input({ evaluators: [evaluator({ mean_a: 0.5, mean_b: 0.50002, diff: 0.00002, ci: [0.00001, 0.00003] })] })), "lev");
    expect(tinier).toContain(`<span class="delta better"><span class="mark" aria-hidden="true">▲</span>+0.00002<span class="sr"> (better)</span></span><span class="ci">+0.00001 … +0.00003</span>`);
    const dist = evaluator({ name: "dist", direction: "minimize", mean_a: 26.25171, mean_b: 2.95918, diff: -23.29253, ci: [-25.50689, -21.04762] });
    expect(tableRow(renderComparisonReport(input({ evaluators: [dist] })), "dist")).toContain(`26.2517</span> → <b class="mean-b">2.9592</b>`);
  });

  it("draws the CI as a bar from its lower to its upper end, on an axis centred on 0 that reaches 1.15 times the largest of them", () => {
    // diff -0.1, CI [-0.15, -0.05]: the axis reaches 0.15 · 1.15 = 0.1725 either side of x 50, over 44 px; x(v) = 50 + v / 0.1725 · 44.
    const row = tableRow(renderComparisonReport(input({ evaluators: [evaluator({ diff: -0.1, ci: [-0.15, -0.05] })] })), "lev");
    expect(row).toContain(`<line class="ci-bar" x1="11.7" x2="37.2" y1="11" y2="11"/>`);
    expect(row).toMatch(/<circle class="ci-dot [a-z]+" cx="24.5" cy="11" r="4"\/>/);
  });

  it("calls a non-significant difference so, naming the run the interval favours as the terminal does, not calling it better", () => {
    const row = tableRow(renderComparisonReport(input({ evaluators: [evaluator({ significant: false, better: "b" })] })), "lev");
    expect(row).toContain("= B (not significant)");
    expect(row).not.toContain("B better");
  });

  it("says neither run is better when the interval holds 0 and p is not below the level, as the terminal says (not 'not significant')", () => {
    // The commonest case of a comparison with no difference: CI [-0.17, 0.12], p = 0.67.
    const row = tableRow(renderComparisonReport(input({ evaluators: [evaluator({ diff: -0.03, ci: [-0.17, 0.12], p_value: 0.67, significant: false, better: null })] })), "lev");
    expect(row).toContain("= neither (CI holds 0)");
    expect(row).not.toContain("not significant</span>");
  });

  it("does not call a significant p-value not significant when the interval holds 0: neither run is better, as the terminal says", () => {
    // From a real comparison: 32 pairs, p = 0.04 by the sign-flip test, bootstrap interval [0, 1.34].
    const row = tableRow(renderComparisonReport(input({ evaluators: [evaluator({ diff: 0.9, ci: [0, 1.34], p_value: 0.04, significant: true, better: null })] })), "lev");
    expect(row).toContain(`<td data-label="p\u2011value">0.0400</td>`);
    expect(row).toContain("= neither (CI holds 0)");
    expect(row).not.toContain("not significant");
  });

  it("says an evaluator without a pair has no verdict, not that its difference is not significant", () => {
    const none = evaluator({ n_pairs: 0, mean_a: null, mean_b: null, diff: null, ci: null, p_value: null, better: null, significant: false, worst: [] });
    const row = tableRow(renderComparisonReport(input({ evaluators: [none] })), "lev");
    expect(row).toContain("no pairs: no verdict");
    expect(row).not.toContain("not significant");
  });

  it("lists the rows that regressed most with the expected text and both outputs, marked", () => {
    const html = renderComparisonReport(input());
    const row = html.slice(html.indexOf(`data-row="4"`));
    expect(row).toContain(`A 0.9000 → B 0.2000</span><span class="delta worse"><span class="mark" aria-hidden="true">▼</span>\u22120.7000<span class="sr"> (worse)</span></span>`);
    expect(row).toContain(`<h3>Output A</h3><pre class="text">Paris is the capital</pre>`);
    expect(row).toContain(`<mark class="extra" title="not in the expected text">Lyon</mark> is the capital`);
    expect(row).toContain(`<mark class="missing" title="missing from the output">Paris</mark> is the capital`);
  });

  it("marks a token-set evaluator's rows by words present or absent, in any order, and says so in its legend", () => {
    const worst = [{ row: 7, id: null, score_a: 1, score_b: 0.5, delta: -0.5, expected: "the cat sat <down>", output_a: "down sat cat the", output_b: "the the cat <ran>" }];
    const html = renderComparisonReport(input({ evaluators: [evaluator({ name: "jac", type: "jaccard_similarity", highlight: { unit: "word_tokens", ignore_case: true }, worst })] }));
    expect(html).toContain("words of the expected text that the output does not have anywhere");
    expect(html).not.toContain("A character diff");
    const row = html.slice(html.indexOf(`data-row="7"`));
    // Marked against B: "sat" and "down" are not in B; A has every word, in another order: nothing marked.
    expect(row).toContain(`<pre class="text">the cat <mark class="missing" title="missing from the output">sat</mark> &lt;<mark class="missing" title="missing from the output">down</mark>&gt;</pre>`);
    expect(row).toContain(`<h3>Output A</h3><pre class="text">down sat cat the</pre>`);
    expect(row).toContain(`<pre class="text">the the cat &lt;<mark class="extra" title="not in the expected text">ran</mark>&gt;</pre>`);
  });

  it("shows each run's dataset file when they differ, and the comparison's warnings", () => {
    const base = input();
    expect(renderComparisonReport(base)).toContain("<dt>Dataset</dt>");
    const html = renderComparisonReport({ ...base, b: { ...base.b, dataset_path: "variant-b.jsonl", dataset_hash: "h2" }, warnings: ["A has 6 rows & B 5"] });
    expect(html).toContain("<dt>Dataset B</dt><dd><code>variant-b.jsonl</code>");
    expect(html).toContain(`<div class="warnbox">⚠ A has 6 rows &amp; B 5</div>`);
    expect(renderComparisonReport(base)).not.toContain(`class="warnbox"`);
  });

  it("says once why texts are unavailable, and marks those panes unavailable rather than empty", () => {
    const row = { row: 4, id: "q4", score_a: 0.9, score_b: 0.2, delta: -0.7, expected: null, output_a: null, output_b: "" };
    const html = renderComparisonReport(input({ evaluators: [evaluator({ worst: [row] })], texts_unavailable: ["the dataset of A (a.jsonl) is missing"] }));
    expect(html).toContain(`<div class="warnbox">⚠ texts unavailable: the dataset of A (a.jsonl) is missing</div>`);
    expect(html.match(/\(text unavailable\)/g)).toHaveLength(2);
    expect(html.match(/\(empty\)/g)).toHaveLength(1); // output B was read, and is empty
  });

  it("marks the expected text against A's output when B's text is unavailable, not all of it as missing from B's", () => {
    // B's dataset changed since its run: its output is unavailable (null), A's is at hand.
    const row = { row: 4, id: "q4", score_a: 0.9, score_b: 0.2, delta: -0.7, expected: "Paris is the capital", output_a: "Paris is a capital", output_b: null };
    const html = renderComparisonReport(input({ evaluators: [evaluator({ worst: [row] })], texts_unavailable: ["the dataset of B (b.jsonl) has changed since the run"] }));
    const card = html.slice(html.indexOf(`data-row="4"`));
    expect(card).toContain("<h3>Expected (marked vs A)</h3>");
    expect(card).not.toContain("marked vs B");
    expect(card).not.toContain(`<mark class="missing" title="missing from the output">Paris is the capital</mark>`);
    expect(card).toContain(`Paris is <mark class="missing" title="missing from the output">the</mark> capital`);
    // Neither output at hand: the expected text is shown, unmarked.
    const neither = renderComparisonReport(input({ evaluators: [evaluator({ worst: [{ ...row, output_a: null }] })] }));
    const unmarked = neither.slice(neither.indexOf(`data-row="4"`));
    expect(unmarked).toContain(`<h3>Expected</h3><pre class="text">Paris is the capital</pre>`);
  });

  it("escapes names and texts, and loads nothing", () => {
    const evil = "<script>alert(1)</script>";
    const html = renderComparisonReport(
      input({
        a: { id: evil, name: evil, started_at: evil, dataset_path: evil, dataset_hash: evil },
        evaluators: [evaluator({ name: evil, type: evil, worst: [{ row: 1, id: evil, score_a: 1, score_b: 0, delta: -1, expected: evil, output_a: evil, output_b: `x${evil}` }] })],
      }),
    );
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("renders the sample with a CI chart per evaluator", () => {
    const html = renderComparisonReport(sampleComparisonInput());
    expect(html.match(/class="ci-chart"/g)).toHaveLength(3);
    expect(html).toContain("support-bot v2.2 → support-bot v2.3");
  });

  it("puts the interval chart beside the figures in a flex box, not floated, so a long interval widens its cell", () => {
    const html = renderComparisonReport(sampleComparisonInput());
    const cells = [...html.matchAll(/<td class="diff" data-label="[^"]*">([\s\S]*?)<\/td>/g)].map((m) => m[1] as string);
    expect(cells.length).toBeGreaterThan(0);
    for (const c of cells) expect(c).toMatch(/^<div class="diff-cell"><svg[\s\S]*<\/svg><div><span class="delta[^"]*">(?:<span class="mark"[^>]*>[▲▼]<\/span>)?[^<]*(?:<span class="sr">[^<]*<\/span>)?<\/span><span class="ci">/);
    expect(html).not.toMatch(/\.ci-chart\{[^}]*float/);
  });
});

describe("headings", () => {
  it("never skip a level: the row panes' headings sit one below the section's h2", () => {
    const levels = [...renderComparisonReport(sampleComparisonInput()).matchAll(/<h([1-6])[\s>]/g)].map((m) => Number(m[1]));
    expect(levels).toContain(3);
    levels.forEach((level, i) => expect(level - (levels[i - 1] ?? 0), `heading ${i + 1} is an h${level} after an h${levels[i - 1]}`).toBeLessThanOrEqual(1));
  });
});

describe("the CI chart's text alternative", () => {
  it("gives the difference, its verdict and the interval the chart draws, not just what kind of chart it is", () => {
    const html = renderComparisonReport(input());
    expect(tableRow(html, "lev")).toContain(`aria-label="B − A \u22120.1000, worse, 95% CI \u22120.1500 … \u22120.0500"`);
  });
  it("shows a long regressed row from the first difference, every pane from the same character", () => {
    const base = Array.from({ length: 120 }, (_, i) => `Paragraph ${i}: the agent opened the file and read the configuration.`).join("\n\n");
    const typoAt = (at: number): string => base.slice(0, at) + "X" + base.slice(at + 1);
    // B differs at about 7,000, A at about 4,000: the panes start before A's difference, and B's typo shows too.
    const worst = [{ row: 1, id: "long", score_a: 1, score_b: 0.9, delta: -0.1, expected: base, output_a: typoAt(4000), output_b: typoAt(5500) }];
    const html = renderComparisonReport(input({ evaluators: [evaluator({ worst })] }));
    const card = html.slice(html.indexOf('<div class="row regressed-row"'));
    const skipped = Number(/The first ([\d,]+) characters, which the texts share, are left out/.exec(card)?.[1]?.replaceAll(",", ""));
    expect(skipped).toBeGreaterThan(3600);
    expect(skipped).toBeLessThanOrEqual(3700);
    const panes = [...card.matchAll(/<pre class="text">([^]*?)<\/pre>/g)].map((m) => m[1] ?? "");
    expect(panes).toHaveLength(3);
    for (const p of panes) expect(p.startsWith(base.slice(skipped, skipped + 20))).toBe(true);
    expect(panes[1]).toContain('<mark class="extra" title="not in the expected text">X</mark>');
    expect(panes[2]).toContain('<mark class="extra" title="not in the expected text">X</mark>');
    expect(card.match(/are left out/g)).toHaveLength(1);
  });
  it("names which output each cut note is about, A's or B's", () => {
    const expected = "word ".repeat(1000);
    const worst = [{ row: 1, id: "long", score_a: 1, score_b: 0.9, delta: -0.1, expected, output_a: "word ".repeat(900), output_b: `X${expected}` }];
    const html = renderComparisonReport(input({ evaluators: [evaluator({ worst })] }));
    const notes = [...html.matchAll(/<div class="note">(.*?)<\/div>/g)].map((m) => m[1]);
    expect(notes).toEqual(["Expected text cut to its first 2,000 of 5,000 characters.", "Output B cut to its first 2,000 of 5,001 characters.", "Output A cut to its first 2,000 of 4,500 characters."]);
  });
});
