import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createEvaluator } from "./create.js";
import { firstDifference } from "./exact-match.js";

/** The former implementation, on arrays of code points: the oracle the scanning one must agree with. */
const oracleFirstDifference = (a: string, b: string): number => {
  const pa = Array.from(a);
  const pb = Array.from(b);
  let i = 0;
  while (i < pa.length && i < pb.length && pa[i] === pb[i]) i++;
  return i;
};

/**
 * Texts that stress the UTF-16 scan: astral characters (surrogate pairs, some sharing their high half),
 * lone surrogates, letters whose case differs, Unicode white space at the ends and inside.
 */
const piece = fc.constantFrom(
  "a", "A", "b", "B", "é", "É", "ß", "İ", "Σ", "ς",
  "😀", "😁", "🙂", "𝔸", "𐐀", "𐐨", // U+1D538, U+10400 DESERET CAPITAL LONG I and its lower case U+10428
  "\uD83D", "\uDE00", "\uDBFF", "\uDC00", // lone surrogates
  " ", "\t", "\n", "\u00A0", "\u2003", "\u3000",
);
const text = fc.array(piece, { maxLength: 24 }).map((p) => p.join(""));
/** Pairs that often share a prefix, so that the first difference falls anywhere, inside pairs too. */
const pair = fc.oneof(
  fc.tuple(text, text),
  fc.tuple(text, text, text).map(([common, x, y]): [string, string] => [common + x, common + y]),
  fc.tuple(text, piece, piece).map(([common, x, y]): [string, string] => [common + x, common + y]),
);

describe("exact_match: first difference and lengths without arrays of code points", () => {
  it("firstDifference agrees with Array.from on random texts", () => {
    fc.assert(
      fc.property(pair, ([a, b]) => {
        if (a !== b) expect(firstDifference(a, b)).toBe(oracleFirstDifference(a, b));
      }),
      { numRuns: 2000 },
    );
  });

  it("never points inside a surrogate pair, and counts a lone surrogate as one code point", () => {
    expect(firstDifference("\uD83D\uDE00", "\uD83D\uDE01")).toBe(0);
    expect(firstDifference("x\uD83D\uDE00", "x\uD83D")).toBe(1);
    expect(firstDifference("x\uD83D", "x\uD83D\uDE00")).toBe(1);
    expect(firstDifference("\uD83Da", "\uD83Db")).toBe(1);
    expect(firstDifference("😀😀a", "😀😀b")).toBe(2);
    expect(firstDifference("abc", "ab")).toBe(2);
  });

  it("scores as the former implementation did, under every option", async () => {
    const configs = [{}, { case_sensitive: true }, { trim: false }, { normalize_whitespace: true }, { case_sensitive: true, trim: false, normalize_whitespace: true }];
    const evaluators = configs.map((config) => ({ config, evaluator: createEvaluator({ type: "exact_match", config }) }));
    await fc.assert(
      fc.asyncProperty(pair, async ([output, expected]) => {
        for (const { config, evaluator } of evaluators) {
          const prepare = (t: string): string => {
            let s = "normalize_whitespace" in config ? t.replace(/\s+/gu, " ") : t;
            if (!("trim" in config)) s = s.trim();
            return "case_sensitive" in config ? s : s.toLowerCase().replace(/ς/g, "σ");
          };
          const a = prepare(output);
          const b = prepare(expected);
          const r = await evaluator.evaluate({ output, expected });
          expect(r.score).toBe(a === b ? 1 : 0);
          expect(r.details).toEqual({
            first_difference: a === b ? null : oracleFirstDifference(a, b),
            compared_output_length: Array.from(a).length,
            compared_expected_length: Array.from(b).length,
          });
        }
      }),
      { numRuns: 500 },
    );
  });

  describe("on long texts", () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });

    it("builds no array of code points (a 50 MB text would take gigabytes)", async () => {
      const evaluator = createEvaluator({ type: "exact_match" });
      const long = "Réponse 😀 ".repeat(20_000);
      // Array.from(text) and [...text] both go through these two.
      const from = vi.spyOn(Array, "from");
      const iterate = vi.spyOn(String.prototype, Symbol.iterator);
      const r = await evaluator.evaluate({ output: `${long}a`, expected: `${long}b` });
      expect(from).not.toHaveBeenCalled();
      expect(iterate).not.toHaveBeenCalled();
      expect(r.details).toEqual({ first_difference: 200_000, compared_output_length: 200_001, compared_expected_length: 200_001 });
    });
  });
});
