import { describe, expect, it } from "vitest";
import { reasoningHtml, renderPanes, renderTokens } from "./row-card.js";

describe("reasoningHtml", () => {
  it("sets each quoted token apart in <bdi>, so that right-to-left tokens listed in a sentence keep their order", () => {
    const html = reasoningHtml('TF-IDF cosine over words: 0.4000; the shared terms weighing most: "שלום", "עולם", "מה". Below the threshold 0.7.', 2000);
    expect(html).toContain("&quot;<bdi>שלום</bdi>&quot;, &quot;<bdi>עולם</bdi>&quot;, &quot;<bdi>מה</bdi>&quot;.");
  });

  it("keeps a JSON-escaped quote inside its token, and leaves a quote with no partner (a cut reasoning) alone", () => {
    expect(reasoningHtml('terms: "a\\"b", "c"', 2000)).toBe("terms: &quot;<bdi>a\\&quot;b</bdi>&quot;, &quot;<bdi>c</bdi>&quot;");
    const cut = reasoningHtml(`terms: "a", "${"x".repeat(50)}"`, 20);
    expect(cut.startsWith("terms: &quot;<bdi>a</bdi>&quot;, &quot;xxxxxx")).toBe(true);
    expect(cut.match(/<bdi>/g)).toHaveLength(1);
  });

  it("escapes the text as cutTextHtml does: markup in a token stays text", () => {
    expect(reasoningHtml('top: "<b>"', 2000)).toBe("top: &quot;<bdi>&lt;b&gt;</bdi>&quot;");
  });
});

describe("renderPanes", () => {
  it("lays out as many columns as it has panes (a comparison's three texts side by side)", () => {
    const pane = (title: string) => ({ title, html: "x", empty: false });
    expect(renderPanes([pane("Expected"), pane("A"), pane("B")])).toMatch(/^<div class="panes" style="--cols:3">/);
    expect(renderPanes([pane("Expected"), pane("Output")])).toMatch(/^<div class="panes" style="--cols:2">/);
  });
});

describe("renderTokens", () => {
  it("gives each count its own figure, and says how many tokens the lists leave out, and none when none are", () => {
    const html = renderTokens({ shared_count: 7, missing_count: 5, extra_count: 2, missing: ["a", "b"], extra: ["x", "y"] });
    expect(html).toContain("<b>7</b> shared");
    expect(html).toContain(`<b>5</b> missing: <span class="chip missing">a</span><span class="chip missing">b</span> <span class="muted">and 3 more</span>`);
    // Both extra tokens listed: nothing more to say.
    expect(html).toContain(`<b>2</b> extra: <span class="chip extra">x</span><span class="chip extra">y</span></span>`);
    expect(html).not.toContain("and 0 more");
    // Listed none of 4 (the lists were not kept): not "none".
    expect(renderTokens({ shared_count: 0, missing_count: 4, extra_count: 0, missing: [], extra: [] })).toMatch(/<b>4<\/b> missing: +<span class="muted">and 4 more<\/span>/);
    expect(renderTokens({ shared_count: 0, missing_count: 0, extra_count: 0, missing: [], extra: [] })).toContain(`<b>0</b> extra: <span class="muted">none</span>`);
  });
});
