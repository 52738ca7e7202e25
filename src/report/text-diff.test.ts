import fc from "fast-check";
import { describe, expect, it } from "vitest";
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
});
