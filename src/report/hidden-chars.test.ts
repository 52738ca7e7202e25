/** Invisible and direction-changing characters in user texts must show, never reach the file raw. */
import { describe, expect, it } from "vitest";
import { renderComparisonReport } from "./comparison-report.js";
import { escapeHtml, escapeText } from "./escape.js";
import { renderRunReport } from "./run-report.js";
import { sampleComparisonInput, sampleRunReportInput } from "./sample.js";
import { renderTrendReport } from "./trend-report.js";
import { sampleTrendInput } from "./sample.js";

/** Controls other than tab/LF/CR, format characters, lone surrogates: none may be written raw. */
const RAW_HIDDEN = /(?![\t\n\r\u200C\u200D])[\p{Cc}\p{Cf}\p{Cs}]/u;
const marker = (cp: string): string => `<span class="ctl" title="U+${cp}`;

describe("hidden characters in user texts", () => {
  it("escapeText marks them, keeps tab, newline, CRLF, ZWJ emoji; escapeHtml uses a plain marker", () => {
    expect(escapeText("a\u0000b")).toBe(`a<span class="ctl" title="U+0000 NULL">⟨U+0000⟩</span>b`);
    expect(escapeText("x\u202Ey")).toBe(`x<span class="ctl" title="U+202E RIGHT-TO-LEFT OVERRIDE">⟨U+202E⟩</span>y`);
    expect(escapeText("\u200B\uFEFF\u2066\u0085\uD800")).not.toMatch(RAW_HIDDEN);
    expect(escapeText("t\tn\nr\r\n👨\u200D👩")).toBe("t\tn\nr\r\n👨\u200D👩");
    expect(escapeHtml(`x\u202E"y`)).toBe("x⟨U+202E⟩&quot;y");
  });

  it("marks noncharacters (U+FFFE, U+FFFF, U+FDD0, U+10FFFF), which have no glyph, and keeps private-use characters", () => {
    expect(escapeText("\uFFFE\uFFFFx")).toBe(`${marker("FFFE")}">⟨U+FFFE⟩</span>${marker("FFFF")}">⟨U+FFFF⟩</span>x`);
    expect(escapeHtml("a\uFDD0b\u{10FFFF}")).toBe("a⟨U+FDD0⟩b⟨U+10FFFF⟩");
    expect(escapeText("\uE000")).toBe("\uE000");
  });

  it("run report: no raw controls, a visible marker, and the highlight on the marker", () => {
    const input = sampleRunReportInput();
    const ev = input.evaluators[0];
    const w = ev?.worst[0];
    if (!ev || !w) throw new Error("sample has a worst row");
    ev.highlight = { unit: "chars", ignore_case: false };
    w.expected = "abcdefghi ab";
    w.output = "abc\u202Edef\u202Cghi a\u0000b";
    w.id = "q\u202E1";
    w.reasoning = "bell\u0007";
    ev.summary.name = "na\u200Bme";
    const html = renderRunReport(input);
    expect(html).not.toMatch(RAW_HIDDEN);
    expect(html).not.toContain("\u0000");
    for (const cp of ["202E", "202C", "0000", "200B", "0007"]) expect(html).toContain(marker(cp));
    // The bidi override and the NUL are what the output adds: each marker sits inside a highlight.
    expect(html).toMatch(/<mark class="extra"[^>]*><span class="ctl" title="U\+202E[^"]*">⟨U\+202E⟩<\/span><\/mark>def/);
    expect(html).toMatch(/<mark class="extra"[^>]*><span class="ctl" title="U\+0000[^"]*">⟨U\+0000⟩<\/span><\/mark>b/);
    expect(html).toContain("unicode-bidi:isolate");
  });

  it("comparison and trend reports: no raw controls, visible markers", () => {
    const input = sampleComparisonInput();
    const ev = input.evaluators[0];
    const row = ev?.worst[0];
    if (!ev || !row) throw new Error("sample has a regressed row");
    ev.highlight = { unit: "chars", ignore_case: false };
    row.expected = "abcdefghi";
    row.output_b = "abc\u202Edef\u202Cghi";
    row.output_a = "a\u0000b";
    input.a = { ...input.a, name: "\u2067rtl" };
    const html = renderComparisonReport(input);
    expect(html).not.toMatch(RAW_HIDDEN);
    for (const cp of ["202E", "202C", "0000", "2067"]) expect(html).toContain(marker(cp));
    expect(html).toMatch(/<mark class="extra"[^>]*><span class="ctl" title="U\+202E[^"]*">⟨U\+202E⟩<\/span><\/mark>def/);
    expect(html).toContain("<bdi>");

    const trend = sampleTrendInput();
    const s = trend.series[0];
    if (!s) throw new Error("sample has a series");
    s.name = "s\u202Eeries\u0001";
    const trendHtml = renderTrendReport(trend);
    expect(trendHtml).not.toMatch(RAW_HIDDEN);
    expect(trendHtml).toContain(marker("202E"));
  });
});
