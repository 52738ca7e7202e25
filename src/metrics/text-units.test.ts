import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { graphemeSegments, graphemes, toUnits, unitLength } from "./text-units.js";

/** Pieces whose clusters span several code points: combining marks, ZWJ emoji, flags, CR LF, Hangul jamo, Indic conjuncts, lone surrogates. */
const PIECES = ["a", "e\u0301", "\u0301", "👨‍👩‍👧", "\u200d", "🇫🇷", "🇺", "\r", "\n", "\u1100\u1161\u11a8", "\u0915\u094d\u0937", "\ud800", "\udc00", "😀", "\ufe0f", " ", "ß"];
const tricky = fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }).map((p) => p.join(""));
const anyText = fc.oneof(tricky, fc.string({ unit: "grapheme", maxLength: 60 }), fc.string({ unit: "binary", maxLength: 60 }));

/** The plain reference: one segmentation of the whole text. */
const whole = (text: string) => Array.from(graphemes().segment(text), ({ segment, index }) => ({ segment, index }));

describe("graphemeSegments", () => {
  it("gives the clusters and offsets of one whole segmentation, whatever the chunk size", () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 1, max: 9 }), (text, chunk) => {
        expect([...graphemeSegments(text, chunk)]).toEqual(whole(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("grows a chunk for a cluster longer than it", () => {
    const long = `a${"\u0301".repeat(50)}b`;
    expect([...graphemeSegments(long, 4)]).toEqual([
      { segment: `a${"\u0301".repeat(50)}`, index: 0 },
      { segment: "b", index: 51 },
    ]);
  });

  it("counts and splits a long text across many chunks at the default size", () => {
    const text = "e\u0301 👨‍👩‍👧 ".repeat(40_000);
    expect(unitLength(text, "grapheme")).toBe(160_000);
    expect(toUnits(text, "grapheme").slice(0, 4)).toEqual(["e\u0301", " ", "👨‍👩‍👧", " "]);
  });
});
