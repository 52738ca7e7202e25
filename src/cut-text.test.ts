import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cutText } from "./cut-text.js";

describe("cutText", () => {
  it("keeps a text of up to max code units whole and cuts a longer one to max and an ellipsis", () => {
    expect(cutText("a".repeat(100), 100)).toBe("a".repeat(100));
    expect(cutText("b".repeat(101), 100)).toBe(`${"b".repeat(100)}…`);
    expect(cutText("", 3)).toBe("");
  });

  it("never ends the kept part in the first half of a surrogate pair", () => {
    expect(cutText(`${"c".repeat(99)}\u{1D400}\u{1D400}`, 100)).toBe(`${"c".repeat(99)}…`);
    expect(cutText(`${"c".repeat(98)}\u{1D400}d`, 100)).toBe(`${"c".repeat(98)}\u{1D400}…`);
  });

  it("gives back a prefix of the text, whole pairs only, of at most max units before the ellipsis", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), fc.integer({ min: 1, max: 30 }), (text, max) => {
        const cut = cutText(text, max);
        if (text.length <= max) {
          expect(cut).toBe(text);
        } else {
          const kept = cut.slice(0, -1);
          expect(cut.endsWith("…")).toBe(true);
          expect(text.startsWith(kept)).toBe(true);
          expect(kept.length).toBe(/[\uD800-\uDBFF]/.test(text[max - 1] as string) ? max - 1 : max);
        }
      }),
      { seed: 42, numRuns: 500 },
    );
  });
});
