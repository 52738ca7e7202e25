import { describe, expect, it } from "vitest";
import { wholeNumberOption } from "./whole-number.js";

describe("wholeNumberOption", () => {
  it("reads decimal digits, signed only without a minimum", () => {
    expect(wholeNumberOption("--seed", "-42", "a whole number")).toBe(-42);
    expect(wholeNumberOption("--workers", "0", "a whole number >= 0", 0)).toBe(0);
    for (const text of ["", "1e3", "0x10", "1.5", " 1", "-0", "9007199254740993"]) {
      expect(() => wholeNumberOption("--workers", text, "a whole number >= 0", 0)).toThrow(`--workers takes a whole number >= 0, received ${JSON.stringify(text)}`);
    }
    expect(() => wholeNumberOption("--last", "0", "a whole number >= 1", 1)).toThrow('--last takes a whole number >= 1, received "0"');
    for (const text of ["", "-", "1e3", "+1"]) {
      expect(() => wholeNumberOption("--seed", text, "a whole number")).toThrow(`--seed takes a whole number, received ${JSON.stringify(text)}`);
    }
  });
});
