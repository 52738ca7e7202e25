import { describe, expect, it } from "vitest";
import { sameNames } from "./same-names.js";

describe("sameNames", () => {
  it("gives each later name equal to an earlier one ignoring case, with the first that had it, passing over undefined", () => {
    expect(sameNames(["a", "B", undefined, "A", "b", "a", undefined, "c"])).toEqual([
      { at: 3, first: 0 },
      { at: 4, first: 1 },
      { at: 5, first: 0 },
    ]);
    expect(sameNames(["x", "y", undefined, undefined])).toEqual([]);
  });
});
