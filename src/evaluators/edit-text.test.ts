import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { toUnits, unitLength, type TextUnit } from "../metrics/levenshtein.js";
import { unitPrefixEnd } from "../metrics/text-units.js";
import { createEvaluator } from "./create.js";
import type { EvalError } from "../errors.js";
import { evalErrorOf } from "../test-support.js";
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
        const lower = (t: string): string => (caseSensitive ? t : t.toLowerCase().replace(/ς/g, "σ"));
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

describe("levenshtein_distance names its case rule", () => {
  it('"PARIS" and "paris", case-insensitive, are identical only under that rule, which the reasoning says', () => {
    const r = createEvaluator({ type: "levenshtein_distance", config: { case_sensitive: false, threshold: 0 } }).evaluateNow({ output: "PARIS", expected: "paris" }) as { reasoning: string };
    expect(r.reasoning).toBe("Identical: 0 edits needed to turn the output into the expected output; within the maximum of 0 (case-insensitive).");
    // Case-sensitive, the default: as before.
    const s = createEvaluator({ type: "levenshtein_distance" }).evaluateNow({ output: "PARIS", expected: "paris" }) as { reasoning: string };
    expect(s.reasoning).toBe("5 edits (code points) needed to turn the output into the expected output; no threshold is set, so there is no verdict.");
  });
});

describe("levenshtein_distance says 'Identical' of whole texts only", () => {
  it("texts that differ past the max_chars cut read '0 edits', with the cut named, not 'Identical'", () => {
    const r = createEvaluator({ type: "levenshtein_distance", config: { max_chars: 5, threshold: 0 } }).evaluateNow({ output: "Paris!", expected: "Paris?" }) as { reasoning: string };
    expect(r.reasoning).toBe(
      "0 edits (code points) needed to turn the output into the expected output; within the maximum of 0. Compared only the first 5 code points of output (6) and expected (6) (max_chars).",
    );
  });
});

describe("levenshtein_distance's work budget", () => {
  const measure = (output: string, expected: string, u: TextUnit, budget?: number) =>
    measureEdits(output, expected, { caseSensitive: true, maxChars: undefined, unit: u, ...(budget === undefined ? {} : { budget }) });

  it("gives the exact distance within the budget, and past it an error only when the distance is over the bound it names", () => {
    const words = fc.array(fc.constantFrom("a", "b", "c", "😀", "e\u0301", " "), { maxLength: 400 }).map((p) => p.join(""));
    let exact = 0;
    let refused = 0;
    fc.assert(
      fc.property(words, words, unit, fc.integer({ min: 1, max: 30 }), (output, expected, u, budget) => {
        const full = measure(output, expected, u).distance;
        let got: number | undefined;
        try {
          got = measure(output, expected, u, budget).distance;
        } catch (error) {
          const e = error as EvalError;
          expect(e.code).toBe("INPUT_INVALID");
          const k = Number(/by more than ([\d,]+) edits/.exec(e.message)?.[1]?.replaceAll(",", ""));
          expect(full).toBeGreaterThan(k);
          refused++;
          return;
        }
        expect(got).toBe(full);
        exact++;
      }),
      { numRuns: 500, seed: 7 },
    );
    expect(exact).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });

  it("is levenshtein_distance's when max_chars is unset: texts that would take hours are that row's error, at once", async () => {
    let short = "";
    for (let i = 0; i < 60_000; i++) short += String.fromCharCode(97 + ((i * 7919) % 26));
    const long = "x".repeat(10_000_000);
    const e = await evalErrorOf(createEvaluator({ type: "levenshtein_distance" }).evaluate({ output: short, expected: long }));
    expect(e.code).toBe("INPUT_INVALID");
    expect(e.message).toMatch(/^the output and the expected output differ over 60,000 and 10,000,000 code points \(past their common start and end\) by more than [\d,]+ edits: .*; set max_chars to compare the texts' first characters, or max_chars: 0 to compute it however long it takes$/);
    // Lengths in the evaluator's unit, output first: as many emoji (two UTF-16 units each) as letters are as long.
    const emoji = "\u{1f600}\u{1f601}".repeat(300_000);
    const letters = "ab".repeat(300_000);
    const e2 = await evalErrorOf(createEvaluator({ type: "levenshtein_distance" }).evaluate({ output: emoji, expected: letters }));
    expect(e2.message).toMatch(/^the output and the expected output differ over 600,000 and 600,000 code points \(past/);
    const e3 = await evalErrorOf(createEvaluator({ type: "levenshtein_distance", config: { unit: "grapheme" } }).evaluate({ output: `${"e\u0301".repeat(500_000)}z`, expected: `${"ab".repeat(500_000)}z` }));
    expect(e3.message).toMatch(/^the output and the expected output differ over 500,000 and 1,000,000 graphemes \(past/);
    // The same long text against one that differs at both ends: stripped to 2 units, within the budget, exact.
    expect((await createEvaluator({ type: "levenshtein_distance" }).evaluate({ output: `a${long}`, expected: `${long}b` })).score).toBe(2);
  });
});
