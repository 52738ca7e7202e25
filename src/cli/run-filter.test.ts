import { describe, expect, it } from "vitest";
import { checkRunFilter, newest } from "./run-filter.js";

describe("--last", () => {
  it("takes a whole number >= 1 in decimal digits", () => {
    expect(checkRunFilter({ last: "3" }).last).toBe(3);
    expect(checkRunFilter({ last: "10000" }).last).toBe(10_000);
    expect(checkRunFilter({}).last).toBeUndefined();
  });

  it.each(["0", "-1", "1.5", "", " 3", "three", "0x10", "1e3", "+2", "99999999999999999999"])("refuses %j, naming the option, the value and what it takes", (value) => {
    expect(() => checkRunFilter({ last: value })).toThrow(`--last takes a whole number >= 1 (how many of the newest runs to keep), received ${JSON.stringify(value)}`);
  });

  it("keeps the first n of a newest-first list, or all of it without --last", () => {
    expect(newest(["c", "b", "a"], 2)).toEqual(["c", "b"]);
    expect(newest(["c", "b", "a"], 5)).toEqual(["c", "b", "a"]);
    expect(newest(["c", "b", "a"], undefined)).toEqual(["c", "b", "a"]);
  });
});
