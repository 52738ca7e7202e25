import { describe, expect, it } from "vitest";
import { formatBytes, forTerminal, forTerminalLine } from "./format.js";

describe("formatBytes", () => {
  it("uses powers of 1000 and about three significant digits", () => {
    expect([0, 999, 1000, 1234, 56_789, 999_499, 999_999, 2_440_000, 1.25e9, 3e15].map(formatBytes)).toEqual(["0 B", "999 B", "1.00 kB", "1.23 kB", "56.8 kB", "999 kB", "1.00 MB", "2.44 MB", "1.25 GB", "3000 TB"]);
  });
});

describe("forTerminal", () => {
  it("escapes controls (C0 but the line feed, DEL, C1), bidi and other format characters, and keeps the rest", () => {
    expect(forTerminal("a\u001b[31mb\rc\u0007\u007f\u009b2J\td")).toBe("a\\u001b[31mb\\u000dc\\u0007\\u007f\\u009b2J\\u0009d");
    expect(forTerminal("abc\u202Edef \u2066x\u2069 \u200b \u2028")).toBe("abc\\u202edef \\u2066x\\u2069 \\u200b \\u2028");
    expect(forTerminal("tag\u{E0001}")).toBe("tag\\u{e0001}");
    expect(forTerminal("line one\nline two: é 中文 👩\u200D💻 \"q\"")).toBe("line one\nline two: é 中文 👩\u200D💻 \"q\"");
  });
});

describe("forTerminalLine", () => {
  it("escapes the line feed too, and what forTerminal escapes", () => {
    expect(forTerminalLine("a\nb\r\nc\u001b\u202e é")).toBe("a\\u000ab\\u000d\\u000ac\\u001b\\u202e é");
  });
});
