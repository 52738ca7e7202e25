import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { cutText } from "../cut-text.js";
import { capCodePoints, cutAtGrapheme, formatFigure, formatId, formatInt, formatLevel, formatP, formatPassRate, formatScore, formatSignedFigure, formatThreshold, formatTime } from "./format.js";

describe("format", () => {
  it.each([
    [0.7421, "maximize", "0.742"],
    [1, "maximize", "1.000"],
    [3, "minimize", "3"],
    [12345, "minimize", "12,345"],
    [9.114, "minimize", "9.11"],
    [null, "maximize", "—"],
    [Number.NaN, "minimize", "—"],
  ] as const)("formatScore(%s, %s) = %s", (v, d, out) => {
    expect(formatScore(v, d)).toBe(out);
  });

  it("never prints a similarity on the other side of its threshold, or a fraction as a whole score", () => {
    expect(formatScore(0.69996, "maximize", 0.7)).toBe("0.69996");
    expect(formatScore(0.7, "maximize", 0.7)).toBe("0.700");
    expect(formatScore(0.33333, "maximize", 0.3334)).toBe("0.333");
    expect(formatScore(0.99996, "maximize")).toBe("0.99996");
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (v, t) => {
        const shown = Number(formatScore(v, "maximize", t));
        expect(shown >= t).toBe(v >= t);
        expect(Number.isInteger(shown)).toBe(Number.isInteger(v));
      }),
    );
  });

  it("prints a threshold as the evaluator holds it: 3 decimals, or all it has", () => {
    expect([0.7, 0.3334, 1, 0, 0.123456].map((t) => formatThreshold(t, "maximize"))).toEqual(["0.700", "0.3334", "1.000", "0.000", "0.123456"]);
    expect(formatThreshold(8, "minimize")).toBe("8");
  });

  it("prints summary figures to 4 decimals, never rounding a fraction to a whole number", () => {
    expect([0.12344, 0.12345678, 3, 26.25171, null].map((v) => formatFigure(v))).toEqual(["0.1234", "0.1235", "3", "26.2517", "-"]);
    expect([0.99996, 0.999999999, 0.00004, -0.00004, 2.99999].map((v) => formatFigure(v))).toEqual(["0.99996", "0.999999999", "0.00004", "-0.00004", "2.99999"]);
    expect(formatFigure(null, "—")).toBe("—");
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), (v) => {
        const printed = Number(formatFigure(v));
        expect(Number.isInteger(printed)).toBe(Number.isInteger(v));
        expect(Math.abs(printed - v)).toBeLessThanOrEqual(0.00005 + 1e-9 * Math.abs(v));
      }),
    );
  });

  it("prints a difference as a summary figure with its sign, never zero when it is not", () => {
    expect([0.0002, -0.0002, 0.00002, -23.29253, 0, -0, 2].map((v) => formatSignedFigure(v))).toEqual(["+0.0002", "-0.0002", "+0.00002", "-23.2925", "0", "0", "+2"]);
    expect(formatSignedFigure(-0.1, "—", "\u2212")).toBe("\u22120.1000");
    expect(formatSignedFigure(null, "—")).toBe("—");
  });

  it("formats percentages, p-values, integers, times and ids", () => {
    expect(formatPassRate({ pass_rate: 851 / 1000, verdicts: 1000 })).toBe("85.1%");
    expect(formatPassRate({ pass_rate: null, verdicts: 0 })).toBe("—");
    // Half-up from the exact fraction: 0.1235 * 100 is 12.349999… in binary, yet 2,470 of 20,000 is 12.35% exactly.
    expect(formatPassRate({ pass_rate: 2470 / 20000, verdicts: 20000 })).toBe("12.4%");
    expect(formatPassRate({ pass_rate: 2469 / 20000, verdicts: 20000 })).toBe("12.3%");
    expect(formatPassRate({ pass_rate: 1 / 16, verdicts: 16 })).toBe("6.3%");
    // A rate that is not all or nothing never reads as one: more decimals until it does not.
    expect(formatPassRate({ pass_rate: 1999 / 2000, verdicts: 2000 })).toBe("99.95%");
    expect(formatPassRate({ pass_rate: 199_999 / 200_000, verdicts: 200_000 })).toBe("99.9995%");
    expect(formatPassRate({ pass_rate: 1 / 20_000, verdicts: 20_000 })).toBe("0.01%");
    expect(formatPassRate({ pass_rate: 1, verdicts: 2000 })).toBe("100.0%");
    expect(formatPassRate({ pass_rate: 0, verdicts: 2000 })).toBe("0.0%");
    expect(formatP(0.00004)).toBe("< 0.0001");
    expect(formatP(0.0004)).toBe("0.0004");
    expect(formatP(0.04321)).toBe("0.0432");
    // Rounding never carries a p-value across 0.05: 500 / 10,001 is significant and must not read 0.0500.
    expect(formatP(500 / 10_001)).toBe("0.049995");
    expect(formatP(0.05)).toBe("0.0500");
    expect(formatP(0.050004)).toBe("0.0500");
    expect(formatP(0.04996)).toBe("0.04996");
    expect(formatInt(1234567)).toBe("1,234,567");
    expect([0.95, 0.9, 0.999, 0.9995, 0.99999].map(formatLevel)).toEqual(["95%", "90%", "99.9%", "99.95%", "99.999%"]);
    expect(formatTime("2024-06-03T14:22:05.120Z")).toBe("2024-06-03 14:22:05 UTC");
    expect(formatTime("2024-06-03T16:22:05+02:00")).toBe("2024-06-03 14:22:05 UTC");
    expect(formatTime("yesterday")).toBe("yesterday");
    expect(formatTime(null)).toBe("—");
    expect(formatId("q-1")).toBe("q-1");
    expect(formatId(42)).toBe("42");
    expect(formatId({ a: 1 })).toBe('{"a":1}');
    expect(formatId(null)).toBe("");
    expect(formatId(undefined)).toBe("");
  });

  it("formatId cuts an id over 100 code units to its first 100 and an ellipsis, never inside a surrogate pair", () => {
    expect(formatId("a".repeat(100))).toBe("a".repeat(100));
    expect(formatId(`${"b".repeat(5_000_000)}c`)).toBe(`${"b".repeat(100)}…`);
    expect(formatId(`${"c".repeat(99)}\u{1D400}`)).toBe(`${"c".repeat(99)}…`);
    expect(formatId({ text: "d".repeat(200) })).toBe(`${JSON.stringify({ text: "d".repeat(200) }).slice(0, 100)}…`);
  });

  it("formatId cuts a long id at a character boundary: never parting a letter from its mark, nor an emoji sequence or flag", () => {
    // The 100th unit is "e", whose acute accent (U+0301) is the 101st: the "e" goes with it.
    expect(formatId(`${"a".repeat(99)}e\u0301x`)).toBe(`${"a".repeat(99)}…`);
    // A flag is two regional indicators (four units, the 99th to the 102nd): not one of them, which shows as a letter.
    expect(formatId(`${"a".repeat(98)}\u{1F1EB}\u{1F1F7}x`)).toBe(`${"a".repeat(98)}…`);
    // A family emoji joined by ZWJs (8 units from the 96th): not the man alone.
    expect(formatId(`${"a".repeat(95)}\u{1F468}\u200D\u{1F469}\u200D\u{1F467}x`)).toBe(`${"a".repeat(95)}…`);
    // A cluster ending exactly at the 100th unit is kept.
    expect(formatId(`${"a".repeat(98)}e\u0301x`)).toBe(`${"a".repeat(98)}e\u0301…`);
    // One cluster longer than the limit: cut between code points, not shown as "…" alone.
    expect(formatId(`e${"\u0301".repeat(200)}`)).toBe(`e${"\u0301".repeat(99)}…`);
  });

  it("cutAtGrapheme gives back the text's first whole grapheme clusters, at most max units of them", () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
    fc.assert(
      fc.property(fc.array(fc.constantFrom("a", "e\u0301", "\u0301", "\u{1F1EB}", "\u{1F468}", "\u200D", "\u{1F3FD}", "\r", "\n", "\uD800"), { maxLength: 40 }), fc.integer({ min: 1, max: 30 }), (parts, max) => {
        const text = parts.join("");
        const cut = cutAtGrapheme(text, max);
        if (text.length <= max) {
          expect(cut).toBe(text);
          return;
        }
        const kept = cut.slice(0, -1);
        expect(text.startsWith(kept)).toBe(true);
        const starts = [...segmenter.segment(text)].map((s) => s.index);
        const best = Math.max(...starts.filter((i) => i <= max));
        expect(kept.length).toBe(best > 0 ? best : cutText(text, max).length - 1);
      }),
      { seed: 42, numRuns: 500 },
    );
  });

  it("cuts a text to its first code points and counts them, as an array of its code points would", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 30 }), fc.nat(32), (text, max) => {
        const points = [...text];
        const cut = points.length > max;
        expect(capCodePoints(text, max)).toEqual({ text: cut ? points.slice(0, max).join("") : text, length: points.length, cut });
      }),
      { numRuns: 1000 },
    );
  });
});
