import { describe, expect, it } from "vitest";
import { reasoningHtml } from "./row-card.js";

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
