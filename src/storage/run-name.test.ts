import { describe, expect, it } from "vitest";
import { isRunName } from "./run-name.js";

describe("isRunName", () => {
  it("takes a name that shows, with the zero width joiners that shape it", () => {
    for (const name of ["nightly", "a b", "01m7", "👩\u200d💻 run", "\u0915\u094d\u200d\u0937"]) expect(isRunName(name)).toBe(true);
  });

  it("refuses a name that prints as nothing: empty, whitespace, or only zero width joiners and other default-ignorable characters", () => {
    for (const name of ["", "  ", "\u200d", "\u200c\u200d", "\u3164", "\ufe0f"]) expect(isRunName(name)).toBe(false);
  });

  it("refuses surrounding whitespace, line breaks, bidirectional and invisible characters, and what is not a string", () => {
    for (const name of [" a", "a ", "a\nb", "a\u202eb", "a\u200bb", 5, null, undefined]) expect(isRunName(name)).toBe(false);
  });
});
