import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderPage } from "./html-page.js";
import { MAX_SHOWN_CHARS, alignTexts, segmentsToHtml, type Segment } from "./text-diff.js";

const join = (segs: Segment[]): string => segs.map((s) => s.text).join("");
const changed = (segs: Segment[]): string[] => segs.filter((s) => s.changed).map((s) => s.text);

describe("alignTexts", () => {
  it("diffs the texts normalised as the evaluator's unicode_normalization says, and says so", () => {
    const nfd = "Crème brûlée on the menu".normalize("NFD");
    const a = alignTexts("Crème brûlée on the menu", nfd.replace("menu", "list"), { unit: "chars", ignore_case: false, unicode_normalization: "NFC" });
    expect(changed(a.expected)).toEqual(["menu"]);
    expect(changed(a.output)).toEqual(["list"]);
    expect(a.notes).toEqual(["Shown after NFC normalisation, as the evaluator compared the texts."]);
    const b = alignTexts("office file", "oﬃce ﬁle", { unit: "chars", ignore_case: false, unicode_normalization: "NFKC" });
    expect([...changed(b.expected), ...changed(b.output)]).toEqual([]);
    expect(alignTexts("office", "oﬃce", { unit: "chars", ignore_case: false }).notes).toEqual([]);
  });

  it("diffs the texts trimmed and with white space collapsed when exact_match did so, and says so", () => {
    const opts = { unit: "chars", ignore_case: true, trim: true, collapse_whitespace: true } as const;
    const same = alignTexts("Paris is the capital", "  Paris is the   capital\n", opts);
    expect([...changed(same.expected), ...changed(same.output)]).toEqual([]);
    expect(join(same.output)).toBe("Paris is the capital");
    expect(same.notes).toEqual(["Shown with each run of white space as one space, trimmed, as the evaluator compared the texts."]);
    const trimmedOnly = alignTexts("Paris", " Paris\n", { unit: "chars", ignore_case: false, trim: true });
    expect(changed(trimmedOnly.output)).toEqual([]);
    expect(trimmedOnly.notes).toEqual(["Shown trimmed, as the evaluator compared the texts."]);
    // Without the options, white space is a difference like any other.
    expect(changed(alignTexts("a b", "a  b", { unit: "chars", ignore_case: false }).output)).toEqual([" "]);
  });

  it("marks the differing characters on each side", () => {
    const a = alignTexts("kitten", "sitting", { unit: "chars", ignore_case: false });
    expect(a.highlighted).toBe(true);
    expect(changed(a.expected)).toEqual(["k", "en"]);
    expect(changed(a.output)).toEqual(["s", "ing"]);
  });

  it("joins marks split by one or two shared characters into whole runs", () => {
    const a = alignTexts("abcXdef", "abcYZdef", { unit: "chars", ignore_case: false });
    expect(changed(a.expected)).toEqual(["X"]);
    expect(changed(a.output)).toEqual(["YZ"]);
    // "o" alone between two edits is absorbed: "cat on" vs "dog in" marks whole words, not letters.
    const b = alignTexts("a cat sat", "a dog sat", { unit: "chars", ignore_case: false });
    expect(changed(b.expected)).toEqual(["cat"]);
    expect(changed(b.output)).toEqual(["dog"]);
  });

  it("treats a run of one or two shared characters between two edits as edited, and keeps a run of three", () => {
    const chars = { unit: "chars", ignore_case: false } as const;
    // "1" and "12" are all the texts share: as marks they would read as noise, so each side is marked whole.
    expect(alignTexts("ab1cd", "xy1zw", chars).expected).toEqual([{ text: "ab1cd", changed: true }]);
    expect(alignTexts("ab12cd", "xy12zw", chars).expected).toEqual([{ text: "ab12cd", changed: true }]);
    expect(alignTexts("ab12cd", "xy12zw", chars).output).toEqual([{ text: "xy12zw", changed: true }]);
    // Three shared characters stand as a common run.
    expect(alignTexts("ab123cd", "xy123zw", chars).expected).toEqual([
      { text: "ab", changed: true },
      { text: "123", changed: false },
      { text: "cd", changed: true },
    ]);
  });

  it("cuts a side where one of its runs ends without leaving an empty run after it", () => {
    // "abcdef" shown to 2 characters ends where its unmarked "ab" does; the marked "c" is past the cut.
    const r = alignTexts("abcdef", "abXdef", { unit: "chars", ignore_case: false }, 2);
    expect(r.expected).toEqual([{ text: "ab", changed: false }]);
    expect(r.output).toEqual([{ text: "ab", changed: false }]);
  });

  it("marks nothing for case-only differences when ignoring case, and keeps each side's own spelling", () => {
    const a = alignTexts("Hello World", "hello WORLD", { unit: "chars", ignore_case: true });
    expect(changed(a.expected)).toEqual([]);
    expect(changed(a.output)).toEqual([]);
    expect(join(a.expected)).toBe("Hello World");
    expect(join(a.output)).toBe("hello WORLD");
    const b = alignTexts("Hello", "hello", { unit: "chars", ignore_case: false });
    expect(changed(b.expected)).toEqual(["H"]);
  });

  it("marks whole words in word mode and ignores white-space-only changes", () => {
    const a = alignTexts("The cat  sat on the mat.", "the cat sat on a mat!", { unit: "words", ignore_case: true });
    expect(changed(a.expected)).toEqual(["the", "."]);
    expect(changed(a.output)).toEqual(["a", "!"]);
    expect(join(a.expected)).toBe("The cat  sat on the mat.");
  });

  it("cuts long texts and says so", () => {
    const long = "x".repeat(5000);
    const a = alignTexts(long, "short", { unit: "chars", ignore_case: false });
    expect(join(a.expected)).toHaveLength(MAX_SHOWN_CHARS);
    expect(a.notes).toEqual(["Expected text cut to its first 2,000 of 5,000 characters."]);
    const b = alignTexts("short", "😀".repeat(2500), { unit: "chars", ignore_case: false });
    expect([...join(b.output)]).toHaveLength(MAX_SHOWN_CHARS);
    expect(b.notes[0]).toBe("Output cut to its first 2,000 of 2,500 characters.");
  });

  it("marks only the changed words when both texts are cut and one grows faster (every lazy made sleepy)", () => {
    // One 45-character sentence repeated: the old diff of the two cut texts had to drop the part of the
    // expected text past the output's cut, and dropped a whole sentence near the start instead.
    const expected = "The quick brown fox jumps over the lazy dog. ".repeat(112).slice(0, 5000);
    const output = expected.replaceAll("lazy", "sleepy");
    const chars = alignTexts(expected, output, { unit: "chars", ignore_case: false });
    expect(new Set(changed(chars.expected))).toEqual(new Set(["laz"]));
    expect(new Set(changed(chars.output))).toEqual(new Set(["sleep"]));
    const words = alignTexts(expected, output, { unit: "words", ignore_case: false });
    expect(new Set(changed(words.expected))).toEqual(new Set(["lazy"]));
    expect(new Set(changed(words.output))).toEqual(new Set(["sleepy"]));
    expect(words.notes).toEqual(["Expected text cut to its first 2,000 of 5,000 characters.", "Output cut to its first 2,000 of 5,222 characters."]);
    expect(join(words.expected)).toBe(expected.slice(0, MAX_SHOWN_CHARS));
    expect(join(words.output)).toBe(output.slice(0, MAX_SHOWN_CHARS));
  });

  it("leaves unmarked the end of a shown text that the other text has past its own cut", () => {
    const expected = Array.from({ length: 80 }, (_, i) => `Sentence ${i}: the quick brown fox jumps over the lazy dog number ${i}.`).join(" ");
    const output = expected.replaceAll("lazy", "sleepy");
    for (const unit of ["chars", "words"] as const) {
      const r = alignTexts(expected, output, { unit, ignore_case: false });
      expect(changed(r.expected).every((t) => "lazy".startsWith(t))).toBe(true);
      expect(changed(r.output).every((t) => "sleepy".startsWith(t))).toBe(true);
    }
  });

  it("marks a passage the output leaves out just before the cut, and not the text that follows it in the output", () => {
    const before = Array.from({ length: 60 }, (_, i) => `Step ${i} of the plan is written down here.`).join(" ").slice(0, 1950);
    const left = " This passage about the weather is only in the expected text.".repeat(6);
    const after = Array.from({ length: 40 }, (_, i) => ` Note ${i}: the rest of the answer follows.`).join("");
    // Shown from the start (no shared start left out), the passage is marked up to the cut.
    const r = alignTexts(before + left + after, before + after, { unit: "words", ignore_case: false }, MAX_SHOWN_CHARS, undefined, 0);
    expect(changed(r.output)).toEqual([]);
    expect(changed(r.expected)).toEqual([left.slice(1, MAX_SHOWN_CHARS - before.length)]);
    // By default the shared start is left out, and the passage shows whole.
    const d = alignTexts(before + left + after, before + after, { unit: "words", ignore_case: false });
    expect(d.skipped).toBeGreaterThan(0);
    expect(changed(d.output)).toEqual([]);
    expect(changed(d.expected)).toEqual([`${left.slice(1)} `]);
  });

  it("leaves out a long start both texts share, so that a difference past the cap shows, and says so", () => {
    const base = Array.from({ length: 120 }, (_, i) => `Paragraph ${i}: the agent opened the file and read the configuration.`).join("\n\n");
    const at = base.indexOf("configuration", 5000);
    expect(at).toBeGreaterThan(5000);
    const typo = base.slice(0, at) + "configuratoin" + base.slice(at + "configuration".length);
    for (const unit of ["chars", "words"] as const) {
      const r = alignTexts(base, typo, { unit, ignore_case: false });
      expect(r.highlighted).toBe(true);
      expect(changed(r.expected).join("")).toMatch(unit === "words" ? /^configuration$/ : /^.{1,4}$/);
      expect(changed(r.output).join("")).toMatch(unit === "words" ? /^configuratoin$/ : /^.{1,4}$/);
      // From the start of the line the difference is on, within the context kept; what is shown is the rest.
      expect(r.skipped).toBeGreaterThan(at - 300 - 80);
      expect(r.skipped).toBeLessThanOrEqual(at - 300);
      expect(base[r.skipped - 1]).toBe("\n");
      expect(join(r.expected)).toBe(base.slice(r.skipped, r.skipped + MAX_SHOWN_CHARS));
      const n = (k: number): string => k.toLocaleString("en-US");
      expect(r.notes).toEqual([
        `The first ${n(r.skipped)} characters, which the texts share, are left out: shown from character ${n(r.skipped + 1)}.`,
        `Expected text cut to characters ${n(r.skipped + 1)} to ${n(r.skipped + 2000)} of ${n(base.length)}.`,
        `Output cut to characters ${n(r.skipped + 1)} to ${n(r.skipped + 2000)} of ${n(base.length)}.`,
      ]);
    }
    // A long output that goes on past the whole expected text: its first extra characters show, and the cuts are said.
    const longer = alignTexts(base, base + "\n\n" + base, { unit: "chars", ignore_case: false });
    expect(changed(longer.output).join("").startsWith("\n\nParagraph 0")).toBe(true);
    expect(longer.notes.slice(1)).toEqual([`Output cut to characters ${(longer.skipped + 1).toLocaleString("en-US")} to ${(longer.skipped + 2000).toLocaleString("en-US")} of ${(2 * base.length + 2).toLocaleString("en-US")}.`]);
    // A difference that shows anyway leaves the start as it is; so does a limit of 0.
    expect(alignTexts(base, "X" + base, { unit: "chars", ignore_case: false }).skipped).toBe(0);
    expect(alignTexts(base, typo, { unit: "chars", ignore_case: false }, MAX_SHOWN_CHARS, undefined, 0).skipped).toBe(0);
    // Prose without spaces or line breaks is not cut inside a grapheme cluster.
    const family = "👨‍👩‍👧‍👦".repeat(1000);
    const f = alignTexts(family + "a", family + "b", { unit: "chars", ignore_case: false });
    expect(f.skipped).toBeGreaterThan(0);
    const shown = join(f.expected);
    expect(shown).toBe(`${"👨‍👩‍👧‍👦".repeat((shown.length - 1) / "👨‍👩‍👧‍👦".length)}a`);
    expect(changed(f.expected)).toEqual(["a"]);
  });

  it("never marks text both long texts share at the same place (words substituted in a base text)", () => {
    const vocab = ["the", "fox", "river", "quietly", "jumps", "over", "a", "lazy", "dog", "while", "birds", "sing", "and", "then", "rests", ".", ","];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...vocab), { minLength: 450, maxLength: 900 }),
        fc.constantFrom(...vocab),
        fc.constantFrom("sleepy", "x", "somnolent", "Z", "and so"),
        fc.array(fc.boolean(), { minLength: 900, maxLength: 900 }),
        fc.constantFrom("chars" as const, "words" as const),
        fc.boolean(),
        (words, from, to, pick, unit, swap) => {
          // Which characters of each text belong to a substituted word: no other character may be marked,
          // except next to one (a diff may fairly match a neighbouring copy of a word instead).
          let base = "";
          let changedText = "";
          const inBase: boolean[] = [];
          const inChanged: boolean[] = [];
          words.forEach((w, i) => {
            const sub = w === from && (pick[i] ?? true);
            const sep = i === 0 ? "" : " ";
            base += sep + w;
            changedText += sep + (sub ? to : w);
            inBase.push(...Array.from(sep, () => false), ...Array.from(w, () => sub));
            inChanged.push(...Array.from(sep, () => false), ...Array.from(sub ? to : w, () => sub));
          });
          const [e, o, inE, inO] = swap ? [changedText, base, inChanged, inBase] : [base, changedText, inBase, inChanged];
          const r = alignTexts(e, o, { unit, ignore_case: false });
          expect(r.highlighted).toBe(true);
          const margin = 24;
          const strayMark = (segments: Segment[], inSub: boolean[]): number => {
            let at = 0;
            for (const s of segments) {
              if (s.changed)
                for (let p = at; p < at + s.text.length; p++) if (!inSub.slice(Math.max(0, p - margin), p + margin + 1).includes(true)) return p;
              at += s.text.length;
            }
            return -1;
          };
          expect(strayMark(r.expected, inE)).toBe(-1);
          expect(strayMark(r.output, inO)).toBe(-1);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("gives up marking texts that differ too much, and shows them whole", () => {
    const a = "abcdefghij".repeat(100);
    const b = "klmnopqrst".repeat(100);
    const r = alignTexts(a, b, { unit: "chars", ignore_case: false });
    expect(r.highlighted).toBe(false);
    expect(r.expected).toEqual([{ text: a, changed: false }]);
    expect(r.output).toEqual([{ text: b, changed: false }]);
    expect(r.notes).toContain("The texts differ too much to highlight.");
  });

  it("rebuilds both texts exactly from their segments (any text, either unit, either case rule)", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "B", "b", " ", "\n", "é", "😀", ".", "x", "İ", "\u0301", "\u200d", "🏽"), maxLength: 40 });
    fc.assert(
      fc.property(text, text, fc.constantFrom("chars" as const, "words" as const), fc.boolean(), (e, o, unit, ignoreCase) => {
        const r = alignTexts(e, o, { unit, ignore_case: ignoreCase });
        expect(join(r.expected)).toBe(e);
        expect(join(r.output)).toBe(o);
        // Adjacent segments always differ in marking (they are merged otherwise).
        for (const side of [r.expected, r.output]) side.forEach((s, i) => i > 0 && expect(s.changed).not.toBe(side[i - 1]?.changed));
        if (e === o) expect([...changed(r.expected), ...changed(r.output)]).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });
});

describe("segmentsToHtml", () => {
  it("escapes every run and wraps marked ones", () => {
    const html = segmentsToHtml(
      [
        { text: "<b>", changed: false },
        { text: "<script>", changed: true },
      ],
      "extra",
    );
    expect(html).toBe(`&lt;b&gt;<mark class="extra" title="not in the expected text">&lt;script&gt;</mark>`);
  });

  it("shows a marked line break with a sign, a blank line missing from the output and a CRLF read as LF too", () => {
    // "Line two\n\nLine four" against "Line 2\nLine four": the blank line is the change.
    const blank = alignTexts("Line two\n\nLine four", "Line two\nLine four", { unit: "chars", ignore_case: false });
    const nl = `<span class="nl" title="line break"></span>`;
    expect(segmentsToHtml(blank.expected, "missing")).toBe(`Line two\n<mark class="missing" title="missing from the output">${nl}\n</mark>Line four`);
    // CRLF, one grapheme, against LF: both line breaks marked, the CRLF whole after a sign of its own ("␍↵"), so
    // that a CRLF against an LF does not read as the same line break marked on both sides.
    const crlf = segmentsToHtml([{ text: "a", changed: false }, { text: "\r\n", changed: true }, { text: "b", changed: false }], "missing");
    expect(crlf).toBe(`a<mark class="missing" title="missing from the output"><span class="nl crlf" title="line break (CR LF)"></span>\r\n</mark>b`);
    expect(renderPage("t", "")).toContain(`mark .nl.crlf::before{content:"␍↵"}`);
    // An unmarked line break gains nothing.
    expect(segmentsToHtml([{ text: "a\nb", changed: false }], "extra")).toBe("a\nb");
    // The sign is drawn by the CSS, not text that a copied answer would gain.
    expect(renderPage("t", "")).toContain(`mark .nl::before{content:"↵"`);
  });

  it("names a marked space other than U+0020, which looked the same as the space it stands against", () => {
    // "a\u00A0b" (a no-break space) against "a b": one marked blank on each side, the same to the eye.
    const aligned = alignTexts("a\u00A0b", "a b", { unit: "chars", ignore_case: false });
    const nbsp = `<span class="sp" data-cp="U+00A0" title="U+00A0 NO-BREAK SPACE">\u00A0</span>`;
    expect(segmentsToHtml(aligned.expected, "missing")).toBe(`a<mark class="missing" title="missing from the output">${nbsp}</mark>b`);
    expect(segmentsToHtml(aligned.output, "extra")).toBe(`a<mark class="extra" title="not in the expected text"> </mark>b`);
    // An ideographic space, named; a thin space without a name in the list shows its code point alone.
    expect(segmentsToHtml([{ text: "\u3000", changed: true }], "extra")).toContain(`data-cp="U+3000" title="U+3000 IDEOGRAPHIC SPACE"`);
    expect(segmentsToHtml([{ text: "\u2005", changed: true }], "extra")).toContain(`data-cp="U+2005" title="U+2005">`);
    // Unmarked, and inside text that did not change, it stays as it is (French "10\u00A0%").
    expect(segmentsToHtml([{ text: "10\u00A0%", changed: false }], "extra")).toBe("10\u00A0%");
    // The label is drawn by the CSS, not text that a copied answer would gain.
    expect(renderPage("t", "")).toContain(`mark .sp::after{content:"⟨" attr(data-cp) "⟩"`);
  });
});
