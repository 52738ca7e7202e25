import fc from "fast-check";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { escapeHtml, escapeXml, escapeXmlText } from "./escape.js";

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  htmlEntities: true,
});

/** What a string should read as after escaping and parsing: forbidden characters replaced. */
function sanitized(s: string): string {
  return s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

describe("escapeHtml", () => {
  it("shows the line and paragraph separators, which HTML renders as nothing, as markers", async () => {
    const { escapeText } = await import("./escape.js");
    expect(escapeHtml("a\u2028b\u2029c")).toBe("a⟨U+2028⟩b⟨U+2029⟩c");
    expect(escapeText("a\u2028b")).toBe(`a<span class="ctl" title="U+2028 LINE SEPARATOR">⟨U+2028⟩</span>b`);
  });

  it.each([
    ["<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"],
    [`a & b "c" 'd'`, "a &amp; b &quot;c&quot; &#39;d&#39;"],
    ["plain", "plain"],
    ["&amp;", "&amp;amp;"],
  ])("%j → %j", (input, out) => {
    expect(escapeHtml(input)).toBe(out);
  });

  it("leaves no markup character behind", () => {
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 80 }), (s) => !/[<>"']/.test(escapeHtml(s)) && !/&(?!amp;|lt;|gt;|quot;|#39;)/.test(escapeHtml(s))));
  });
});

describe("escapeXml / escapeXmlText", () => {
  it.each([
    ["a<b>&\"c\"", "a&lt;b&gt;&amp;&quot;c&quot;"],
    ["tab\tline\ncr\r", "tab&#9;line&#10;cr&#13;"],
    ["nul\u0000 bell\u0007 vt\u000B esc\u001B", "nul\uFFFD bell\uFFFD vt\uFFFD esc\uFFFD"],
    ["nonchars \uFFFE\uFFFF", "nonchars \uFFFD\uFFFD"],
    ["lone \uD800 and \uDC00", "lone \uFFFD and \uFFFD"],
    ["pair 😀 stays", "pair 😀 stays"],
  ])("attribute %j → %j", (input, out) => {
    expect(escapeXml(input)).toBe(out);
  });

  it("keeps tab and LF in element text but encodes CR", () => {
    expect(escapeXmlText("a\tb\nc\rd<&>\u0001")).toBe("a\tb\nc&#13;d&lt;&amp;&gt;\uFFFD");
  });

  it("round-trips any string through a real XML parser, minus the forbidden characters", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 60 }), (s) => {
        const xml = `<a b="${escapeXml(s)}"><t>${escapeXmlText(s)}</t></a>`;
        expect(FORBIDDEN.test(xml)).toBe(false);
        expect(XMLValidator.validate(xml)).toBe(true);
        const doc = parser.parse(xml) as { a: { "@_b": string; t: string | Record<string, never> } };
        expect(doc.a["@_b"]).toBe(sanitized(s));
        // An empty element parses as ""; fast-xml-parser gives text elements as plain strings.
        expect(typeof doc.a.t === "string" ? doc.a.t : "").toBe(sanitized(s));
      }),
      { numRuns: 300 },
    );
  });
});

describe("nameText", () => {
  it("escapes a name and lets it wrap only after _ - . / :", async () => {
    const { nameText } = await import("./escape.js");
    expect(nameText("a_b-c.d/e:f")).toBe("a_<wbr>b-<wbr>c.<wbr>d/<wbr>e:<wbr>f");
    expect(nameText("<x>_\u202Ey_")).toBe(`&lt;x&gt;_<wbr><span class="ctl" title="U+202E RIGHT-TO-LEFT OVERRIDE">⟨U+202E⟩</span>y_`);
    expect(nameText("plain")).toBe("plain");
    const { escapeText } = await import("./escape.js");
    fc.assert(fc.property(fc.string({ unit: "binary" }), (s) => nameText(s).replaceAll("<wbr>", "") === escapeText(s)));
  });
});
