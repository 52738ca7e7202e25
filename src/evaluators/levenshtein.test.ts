import { describe, expect, it } from "vitest";
import { createEvaluator } from "./create.js";

describe("levenshtein reasoning", () => {
  const reasoning = async (output: string, expected: string) => (await createEvaluator({ type: "levenshtein" }).evaluate({ output, expected })).reasoning;

  it('writes "=" where 1 - distance/length has at most 2 decimals, "≈" where rounding changed it', async () => {
    // By hand: 1 - 1/4 = 0.75 and 1 - 1/5 = 0.8 exactly; 1 - 1/3 = 0.666… and 1 - 1/8 = 0.875 are rounded.
    expect(await reasoning("abcd", "abce")).toContain("1 - 1/4 = 0.75,");
    expect(await reasoning("abcde", "abcdx")).toContain("1 - 1/5 = 0.80,");
    expect(await reasoning("abc", "abx")).toContain("1 - 1/3 ≈ 0.67,");
    expect(await reasoning("abcdefgh", "abcdefgx")).toContain("1 - 1/8 ≈ 0.88,");
  });
});
