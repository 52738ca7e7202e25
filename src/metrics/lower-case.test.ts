import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { prepareEditTexts } from "../evaluators/edit-text.js";
import { alignTexts } from "../report/text-diff.js";
import { lowerCase } from "./lower-case.js";
import { equalWithoutTokens } from "./tokens.js";

describe("lowerCase", () => {
  it("writes a Greek sigma one way whatever follows it, where toLowerCase gives ς before a space and σ before a period and a letter", () => {
    expect("ΟΔΟΣ ΚΑΙ".toLowerCase()).toBe("οδος και");
    expect("ΟΔΟΣ.ΚΑΙ".toLowerCase()).toBe("οδοσ.και");
    expect(lowerCase("ΟΔΟΣ ΚΑΙ")).toBe("οδοσ και");
    expect(lowerCase("ΟΔΟΣ.ΚΑΙ")).toBe("οδοσ.και");
    expect(lowerCase("οδος")).toBe(lowerCase("ΟΔΟΣ"));
  });

  it("is toLowerCase but for ς, with its length", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("a", "B", "Σ", "σ", "ς", "İ", ".", " ", "'", "Ω", "😀") }), (t) => {
        const lower = t.toLowerCase();
        const ours = lowerCase(t);
        expect(ours.length).toBe(lower.length);
        expect(ours).not.toContain("ς");
        for (let i = 0; i < lower.length; i++) expect(ours[i]).toBe(lower[i] === "ς" ? "σ" : lower[i]);
      }),
    );
  });
});

describe("the case-insensitive comparisons that lower-case by it", () => {
  // "ΟΔΟΣ.ΚΑΙ".toLowerCase() is "οδοσ.και": without lowerCase, a text that differs only in case differs in a sigma.
  it("Levenshtein's texts, equalWithoutTokens and the report's diff find no difference of a final sigma", () => {
    const edit = prepareEditTexts("ΟΔΟΣ.ΚΑΙ", "οδος.και", { caseSensitive: false, maxChars: undefined, unit: "code_point" });
    expect(edit.output).toBe(edit.expected);
    // And the other way: "ΟΔΟΣ ΚΑΙ".toLowerCase() is "οδος και".
    const other = prepareEditTexts("ΟΔΟΣ ΚΑΙ", "οδοσ και", { caseSensitive: false, maxChars: undefined, unit: "code_point" });
    expect(other.output).toBe(other.expected);
    expect(equalWithoutTokens("ΟΔΟΣ.ΚΑΙ", "οδος.και")).toBe(true);
    for (const unit of ["chars", "words"] as const) {
      const aligned = alignTexts("ΟΔΟΣ.ΚΑΙ", "οδος.και", { unit, ignore_case: true });
      expect([...aligned.expected, ...aligned.output].filter((s) => s.changed)).toEqual([]);
    }
  });
});
