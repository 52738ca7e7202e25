import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { toUnits, unitLength, type TextUnit } from "../metrics/levenshtein.js";
import { unitPrefixEnd } from "../metrics/text-units.js";
import { createEvaluator } from "./create.js";
import { measureEdits, prepareEditTexts } from "./edit-text.js";

/** Astral characters, lone surrogates, combining marks and ZWJ sequences: where units and UTF-16 differ. */
const piece = fc.constantFrom("a", "B", "é", "e\u0301", "😀", "𝔸", "\uD83D", "\uDE00", "👨‍👩‍👧", "🇫🇷", " ", "\n", "東");
const text = fc.array(piece, { maxLength: 30 }).map((p) => p.join(""));
const unit = fc.constantFrom<TextUnit>("code_point", "grapheme");

describe("max_chars cuts without an array of every unit", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("unitPrefixEnd gives the offset toUnits(text).slice(0, n).join('') ends at", () => {
    fc.assert(
      fc.property(text, fc.nat({ max: 40 }), unit, (t, n, u) => {
        expect(t.slice(0, unitPrefixEnd(t, n, u))).toBe(toUnits(t, u).slice(0, n).join(""));
      }),
      { numRuns: 2000 },
    );
  });

  it("prepareEditTexts cuts and reports as the array-based cut did", () => {
    fc.assert(
      fc.property(text, text, fc.nat({ max: 25 }), unit, fc.boolean(), (output, expected, maxChars, u, caseSensitive) => {
        const got = prepareEditTexts(output, expected, { caseSensitive, maxChars, unit: u });
        const cut = (t: string): string => (maxChars && unitLength(t, u) > maxChars ? toUnits(t, u).slice(0, maxChars).join("") : t);
        const lower = (t: string): string => (caseSensitive ? t : t.toLowerCase());
        expect(got.output).toBe(lower(cut(output)));
        expect(got.expected).toBe(lower(cut(expected)));
        const sides = { output, expected };
        const truncated = Object.fromEntries(Object.entries(sides).flatMap(([side, t]) => (maxChars && unitLength(t, u) > maxChars ? [[side, unitLength(t, u)]] : [])));
        expect(got.truncated).toEqual(Object.keys(truncated).length ? truncated : false);
      }),
      { numRuns: 1000 },
    );
  });

  it("does not split a long text into code points to keep its first max_chars", () => {
    const long = "Réponse 😀 ".repeat(20_000);
    const from = vi.spyOn(Array, "from");
    const edits = measureEdits(`${long}a`, `${long}b`, { caseSensitive: false, maxChars: 10_000, unit: "code_point" });
    expect(from).not.toHaveBeenCalled();
    expect(edits).toEqual({ distance: 0, outputLength: 10_000, expectedLength: 10_000, truncated: { output: 200_001, expected: 200_001 } });
  });
});

describe("reasonings count their units right", () => {
  it("one code point, one grapheme, several of either", () => {
    const reasoning = (config: object, output: string, expected: string) => createEvaluator({ type: "levenshtein", config } as never).evaluateNow({ output, expected }) as { reasoning: string };
    expect(reasoning({}, "a", "b").reasoning).toContain("Edit distance 1 over at most 1 code point: ");
    expect(reasoning({ unit: "grapheme" }, "a", "b").reasoning).toContain("over at most 1 grapheme: ");
    expect(reasoning({}, "ab", "b").reasoning).toContain("over at most 2 code points: ");
    expect(reasoning({ max_chars: 1 }, "ab", "b").reasoning).toContain("Compared only the first 1 code point of output (2)");
  });
});
