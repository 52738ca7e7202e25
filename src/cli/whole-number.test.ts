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
    // Digits past 2^53 are a whole number >= 1 as asked: the message names the bound they pass.
    for (const text of ["9007199254740992", "99999999999999999999", "9".repeat(400)]) {
      expect(() => wholeNumberOption("--last", text, "a whole number >= 1", 1)).toThrow(`--last takes a whole number >= 1, received "${text}", more than the largest it takes, 9007199254740991`);
    }
    expect(() => wholeNumberOption("--last", "9007199254740991", "a whole number >= 1", 1)).not.toThrow();
    expect(() => wholeNumberOption("--seed", "-9007199254740992", "a whole number")).toThrow('--seed takes a whole number, received "-9007199254740992", less than the smallest it takes, -9007199254740991');
    for (const text of ["", "-", "1e3", "+1"]) {
      expect(() => wholeNumberOption("--seed", text, "a whole number")).toThrow(`--seed takes a whole number, received ${JSON.stringify(text)}`);
    }
  });
});
