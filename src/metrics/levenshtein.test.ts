import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setDenseLimitForTests } from "./levenshtein-bitparallel.js";
import { wasmEngine } from "./levenshtein-wasm.js";
import { levenshteinBackend, levenshteinDistance, sequenceDistance, setLevenshteinBackend, toUnits, unitLength } from "./levenshtein.js";
import { referenceDistance, referenceStringDistance } from "./reference/levenshtein.js";
import { thrownEvalError } from "../test-support.js";

const codePoints = (s: string): number[] => Array.from(s, (c) => c.codePointAt(0) ?? 0);

describe("levenshteinDistance: known pairs", () => {
  const table: [string, string, number][] = [
    ["kitten", "sitting", 3],
    ["", "", 0],
    ["", "abc", 3],
    ["abc", "", 3],
    ["flaw", "lawn", 2],
    ["😀", "😃", 1],
    ["a😀b", "ab", 1],
    ["😀😀😀", "😀😀", 1],
    ["e\u0301", "é", 2],
    ["東京都", "京都府", 2],
    ["漢字かな交じり文", "漢字仮名交じり文", 2],
    // Pairs sharing a high surrogate: stripping the common prefix must not split them.
    ["\uD83D\uDE00", "\uD83D\uDE01", 1],
    ["x\uD83D\uDE00y", "x\uD83D\uDE01y", 1],
    ["\uD83D\uDE00\uD83D\uDE00", "\uD83D\uDE01\uD83D\uDE00", 1],
    // Lone surrogates are one symbol each.
    ["a\uD83D", "a\uD83D\uDE00", 1],
    ["\uDE00", "\uD83D", 1],
    ["abcdefghij", "abcdXXXXXX", 6],
    ["kitten on a mat", "sitting on a hat", 4],
  ];
  it.each(table)("%j vs %j = %i", (a, b, d) => {
    expect(levenshteinDistance(a, b)).toBe(d);
    expect(levenshteinDistance(b, a)).toBe(d);
  });

  it("counts graphemes with unit grapheme", () => {
    expect(levenshteinDistance("e\u0301", "é", { unit: "grapheme" })).toBe(1);
    expect(levenshteinDistance("👨‍👩‍👧", "👨‍👩‍👦", { unit: "grapheme" })).toBe(1);
    expect(levenshteinDistance("👨‍👩‍👧", "👨‍👩‍👦")).toBe(1);
    expect(levenshteinDistance("🇫🇷🇩🇪", "🇩🇪", { unit: "grapheme" })).toBe(1);
    expect(levenshteinDistance("kitten", "sitting", { unit: "grapheme" })).toBe(3);
  });

  it("honours maxDistance", () => {
    expect(levenshteinDistance("kitten", "sitting", { maxDistance: 3 })).toBe(3);
    expect(levenshteinDistance("kitten", "sitting", { maxDistance: 2 })).toBeGreaterThan(2);
    expect(levenshteinDistance("a", "abcdefgh", { maxDistance: 3 })).toBeGreaterThan(3);
    expect(levenshteinDistance("same", "same", { maxDistance: 0 })).toBe(0);
    expect(levenshteinDistance("same", "sane", { maxDistance: 0 })).toBe(1);
    expect(levenshteinDistance("kitten", "sitting", { maxDistance: Infinity })).toBe(3);
  });

  it("rejects invalid options with INPUT_INVALID naming the function and the option", () => {
    for (const bad of [-1, 1.5, NaN, -Infinity]) {
      expect(thrownEvalError(() => levenshteinDistance("a", "b", { maxDistance: bad }))).toMatchObject({ code: "INPUT_INVALID", message: expect.stringContaining("levenshteinDistance: maxDistance must be a non-negative integer or Infinity") });
      expect(thrownEvalError(() => sequenceDistance([1], [2], bad)).message).toContain("sequenceDistance: maxDistance must be");
    }
    expect(thrownEvalError(() => levenshteinDistance("a", "b", { unit: "word" as "grapheme" })).message).toBe('levenshteinDistance: unit must be "code_point" or "grapheme", received string "word"');
    // null is no default, for unit as for maxDistance; undefined is.
    expect(thrownEvalError(() => levenshteinDistance("a", "b", { unit: null as unknown as "grapheme" })).message).toBe('levenshteinDistance: unit must be "code_point" or "grapheme", received null');
    expect(thrownEvalError(() => levenshteinDistance("a", "b", { maxDistance: null as unknown as number })).message).toContain("levenshteinDistance: maxDistance must be a non-negative integer or Infinity, received null");
    expect(levenshteinDistance("ab", "b", { unit: undefined, maxDistance: undefined } as never)).toBe(1);
  });

  it("rejects a key that is not an option, which was read as no option (a misspelt bound was no bound)", () => {
    const e = thrownEvalError(() => levenshteinDistance("abc", "xyz", { maxDistanse: 1 } as never));
    expect(e).toMatchObject({ code: "INPUT_INVALID", issues: [{ path: ["opts", "maxDistanse"] }] });
    expect(e.message).toBe("levenshteinDistance: opts.maxDistanse is not an option (opts takes maxDistance and unit)");
    expect(thrownEvalError(() => levenshteinDistance("a", "b", { unit: "grapheme", units: "grapheme" } as never)).message).toContain("opts.units is not an option");
    expect(levenshteinDistance("abc", "xyz", Object.create(null) as never)).toBe(3);
    // An inherited key is read as an option is (opts.maxDistance may be inherited), so a misspelt one is refused too.
    expect(thrownEvalError(() => levenshteinDistance("abc", "xyz", Object.create({ maxDistanse: 1 }) as never)).message).toContain("opts.maxDistanse is not an option");
    expect(levenshteinDistance("abc", "xyz", Object.create({ maxDistance: 1 }) as never)).toBe(2);
  });

  it("rejects options that are not an object, which were read as no options", () => {
    for (const [bad, received] of [[5, "number 5"], ["grapheme", 'string "grapheme"'], [[], "array of 0"], [() => 1, "function"], [null, "null"], [true, "boolean true"]] as const) {
      const e = thrownEvalError(() => levenshteinDistance("a", "b", bad as never));
      expect(e).toMatchObject({ code: "INPUT_INVALID", issues: [{ path: ["opts"] }] });
      expect(e.message).toBe(`levenshteinDistance: opts must be an object ({ maxDistance?, unit? }) or nothing, received ${received}`);
    }
  });
});

describe("toUnits / unitLength", () => {
  it("splits code points and graphemes", () => {
    expect(toUnits("a😀b", "code_point")).toEqual(["a", "😀", "b"]);
    expect(toUnits("e\u0301x", "code_point")).toEqual(["e", "\u0301", "x"]);
    expect(toUnits("e\u0301x", "grapheme")).toEqual(["e\u0301", "x"]);
    expect(toUnits("", "grapheme")).toEqual([]);
  });
  it("counts like toUnits", () => {
    for (const s of ["", "abc", "a😀b", "e\u0301", "\uD83D", "\uDE00\uD83D", "👨‍👩‍👧 family", "🇫🇷🇩🇪"]) {
      expect(unitLength(s, "code_point")).toBe(toUnits(s, "code_point").length);
      expect(unitLength(s, "grapheme")).toBe(toUnits(s, "grapheme").length);
    }
  });
});

// ---------------------------------------------------------------------------
// Property tests against the O(n·m) reference, for each engine.

/** Small alphabets make similar strings (long matches, affixes, narrow bands). */
const SYMBOLS = ["a", "b", "c", "é", "😀", "😃", "\uD83D", "\uDE00", "東", " "];
const smallAlphabet = fc.integer({ min: 1, max: SYMBOLS.length }).chain((size) => fc.constant(SYMBOLS.slice(SYMBOLS.length - size)));

function textOf(alphabet: string[], minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.array(fc.constantFrom(...alphabet), { minLength, maxLength }).map((chars) => chars.join(""));
}

/** `text` with a few random edits (insert, delete, substitute) from `alphabet`. */
function edited(text: string, alphabet: string[], minEdits = 0, maxEdits = 12): fc.Arbitrary<string> {
  const edit = fc.tuple(fc.nat({ max: 2 }), fc.nat(), fc.constantFrom(...alphabet));
  return fc.array(edit, { minLength: minEdits, maxLength: maxEdits }).map((edits) => {
    const chars = Array.from(text);
    for (const [op, at, c] of edits) {
      const i = chars.length === 0 ? 0 : at % (chars.length + 1);
      if (op === 0) chars.splice(i, 0, c);
      else if (op === 1) chars.splice(i, 1);
      else chars[Math.min(i, chars.length - 1)] = c;
    }
    return chars.join("");
  });
}

/** Pairs whose lengths sit on word boundaries (31/32/33, 63/64/65, 127/128/129) or are long. */
function boundaryPair(lengths: number[]): fc.Arbitrary<[string, string]> {
  return fc
    .tuple(smallAlphabet, fc.constantFrom(...lengths), fc.boolean())
    .chain(([alphabet, length, related]) =>
      textOf(alphabet, length, length).chain((a) =>
        (related ? edited(a, alphabet) : textOf(alphabet, Math.max(0, length - 3), length + 3)).map((b): [string, string] => [a, b]),
      ),
    );
}

const anyPair = fc.tuple(fc.string({ unit: "binary", maxLength: 40 }), fc.string({ unit: "binary", maxLength: 40 }));
const similarPair = smallAlphabet.chain((alphabet) =>
  textOf(alphabet, 0, 90).chain((a) => fc.oneof(edited(a, alphabet), textOf(alphabet, 0, 90)).map((b): [string, string] => [a, b])),
);
const boundaryPairs = boundaryPair([31, 32, 33, 63, 64, 65, 127, 128, 129]);

/** Hundreds of distinct BMP and astral symbols: hash collisions in the Peq tables. */
const BIG_ALPHABET = Array.from({ length: 400 }, (_, i) => String.fromCodePoint(i % 2 === 0 ? 0x4e00 + i : 0x20000 + i));
const bigAlphabetPair = fc
  .tuple(fc.integer({ min: 60, max: 700 }), fc.boolean())
  .chain(([length, related]) =>
    textOf(BIG_ALPHABET, length, length).chain((a) =>
      (related ? edited(a, BIG_ALPHABET) : textOf(BIG_ALPHABET, length - 20, length + 20)).map((b): [string, string] => [a, b]),
    ),
  );
const longPairs = boundaryPair([300, 700, 1500]);
/** Long texts 40–90 edits apart: wider than the first band trial, narrower than n/16. */
const moderatePairs = fc
  .tuple(fc.constantFrom(["a", "b", "c", "d", "é", "😀"], BIG_ALPHABET.slice(0, 50)), fc.integer({ min: 1000, max: 1600 }))
  .chain(([alphabet, length]) => textOf(alphabet, length, length).chain((a) => edited(a, alphabet, 40, 90).map((b): [string, string] => [a, b])));

function checkBounds(a: string, b: string, exact: number): void {
  for (const k of [exact - 2, exact - 1, exact, exact + 1, Math.floor(exact / 2), 0]) {
    if (k < 0) continue;
    const d = levenshteinDistance(a, b, { maxDistance: k });
    if (exact <= k) expect(d).toBe(exact);
    else expect(d).toBeGreaterThan(k);
  }
}

describe.each(["js", "wasm"] as const)("engine %s matches the reference", (backend) => {
  beforeAll(() => setLevenshteinBackend(backend));
  afterAll(() => setLevenshteinBackend("auto"));

  it("reports the engine", () => {
    expect(levenshteinBackend()).toBe(backend);
  });

  it("on arbitrary Unicode strings, symmetric, zero on itself", () => {
    fc.assert(
      fc.property(anyPair, ([a, b]) => {
        const exact = referenceStringDistance(a, b);
        expect(levenshteinDistance(a, b)).toBe(exact);
        expect(levenshteinDistance(b, a)).toBe(exact);
        expect(levenshteinDistance(a, a)).toBe(0);
        checkBounds(a, b, exact);
      }),
      { numRuns: 500 },
    );
  });

  it("on similar strings over small alphabets (with lone surrogates)", () => {
    fc.assert(
      fc.property(similarPair, ([a, b]) => {
        const exact = referenceStringDistance(a, b);
        expect(levenshteinDistance(a, b)).toBe(exact);
        expect(levenshteinDistance(b, a)).toBe(exact);
        checkBounds(a, b, exact);
      }),
      { numRuns: 500 },
    );
  });

  it("around word-size boundaries", () => {
    fc.assert(
      fc.property(boundaryPairs, ([a, b]) => {
        const exact = referenceStringDistance(a, b);
        expect(levenshteinDistance(a, b)).toBe(exact);
        expect(levenshteinDistance(b, a)).toBe(exact);
        checkBounds(a, b, exact);
      }),
      { numRuns: 300 },
    );
  });

  it("on long strings (300–1,500)", () => {
    fc.assert(
      fc.property(longPairs, ([a, b]) => {
        const exact = referenceStringDistance(a, b);
        expect(levenshteinDistance(a, b)).toBe(exact);
        checkBounds(a, b, exact);
      }),
      { numRuns: 25 },
    );
  });

  it("on long strings a few dozen edits apart (band trials)", () => {
    fc.assert(
      fc.property(moderatePairs, ([a, b]) => {
        const exact = referenceStringDistance(a, b);
        expect(levenshteinDistance(a, b)).toBe(exact);
        expect(levenshteinDistance(b, a)).toBe(exact);
        checkBounds(a, b, exact);
      }),
      { numRuns: 20 },
    );
  });

  it("on a large alphabet (hundreds of distinct BMP and astral symbols)", () => {
    fc.assert(
      fc.property(bigAlphabetPair, ([a, b]) => {
        const exact = referenceStringDistance(a, b);
        expect(levenshteinDistance(a, b)).toBe(exact);
        checkBounds(a, b, exact);
      }),
      { numRuns: 40 },
    );
  });

  it("with the per-block hashed Peq table", () => {
    setDenseLimitForTests(1);
    wasmEngine()?.setDenseLimit(1);
    try {
      fc.assert(
        fc.property(fc.oneof(boundaryPairs, longPairs, bigAlphabetPair, bigAlphabetPair), ([a, b]) => {
          const exact = referenceStringDistance(a, b);
          expect(levenshteinDistance(a, b)).toBe(exact);
          checkBounds(a, b, exact);
        }),
        { numRuns: 60 },
      );
    } finally {
      setDenseLimitForTests(undefined);
      wasmEngine()?.setDenseLimit(undefined);
    }
  });

  it("sequenceDistance on integer symbols, including non-int32 ones", () => {
    const symbol = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom(70000, -(2 ** 31), 2 ** 31 - 1, 2 ** 40, 0.5));
    fc.assert(
      fc.property(fc.array(symbol, { maxLength: 150 }), fc.array(symbol, { maxLength: 150 }), (a, b) => {
        const exact = referenceDistance(a, b);
        expect(sequenceDistance(a, b)).toBe(exact);
        expect(sequenceDistance(Int32Array.from(a.filter((x) => (x | 0) === x)), [])).toBe(a.filter((x) => (x | 0) === x).length);
        if (exact > 0) expect(sequenceDistance(a, b, exact - 1)).toBeGreaterThan(exact - 1);
        expect(sequenceDistance(a, b, exact)).toBe(exact);
      }),
      { numRuns: 150 },
    );
  });

  it("grapheme unit equals the distance between grapheme id sequences", () => {
    const graphemeText = fc.array(fc.constantFrom("e", "e\u0301", "é", "👨‍👩‍👧", "👨‍👩‍👦", "🇫🇷", "a"), { maxLength: 70 }).map((g) => g.join(""));
    fc.assert(
      fc.property(graphemeText, graphemeText, (a, b) => {
        const ids = new Map<string, number>();
        const encode = (s: string): number[] => toUnits(s, "grapheme").map((g) => ids.get(g) ?? (ids.set(g, ids.size), ids.size - 1));
        expect(levenshteinDistance(a, b, { unit: "grapheme" })).toBe(referenceDistance(encode(a), encode(b)));
      }),
      { numRuns: 100 },
    );
  });

  it("on code-point arrays equals the string distance", () => {
    fc.assert(
      fc.property(similarPair, ([a, b]) => {
        expect(sequenceDistance(codePoints(a), codePoints(b))).toBe(referenceStringDistance(a, b));
      }),
      { numRuns: 100 },
    );
  });
});
