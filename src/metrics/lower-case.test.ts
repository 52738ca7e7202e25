import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lowerCase } from "./lower-case.js";

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
