import { describe, expect, it } from "vitest";
import { formatBytes } from "./format.js";

describe("formatBytes", () => {
  it("uses powers of 1000 and about three significant digits", () => {
    expect([0, 999, 1000, 1234, 56_789, 999_499, 999_999, 2_440_000, 1.25e9, 3e15].map(formatBytes)).toEqual(["0 B", "999 B", "1.00 kB", "1.23 kB", "56.8 kB", "999 kB", "1.00 MB", "2.44 MB", "1.25 GB", "3000 TB"]);
  });
});
