import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { thrownEvalError } from "../test-support.js";
import { roundFractionHalfUp } from "./rounding.js";

/** Reference: exact decimal long division on BigInt, then half-up on the third digit. */
function referenceRound2(num: number, den: number): number {
  const thousandths = (BigInt(num) * 1000n) / BigInt(den); // truncated
  let hundredths = thousandths / 10n;
  const remainder = BigInt(num) * 1000n - thousandths * BigInt(den); // > 0 when digits follow
  const third = thousandths % 10n;
  if (third > 5n || (third === 5n && remainder >= 0n)) hundredths += 1n;
  return Number(hundredths) / 100;
}

describe("roundFractionHalfUp", () => {
  it("refuses what it cannot round exactly with INPUT_INVALID, naming the argument", () => {
    expect(thrownEvalError(() => roundFractionHalfUp(1, 0)).message).toBe("roundFractionHalfUp: denominator must be an integer > 0, received number 0");
    expect(thrownEvalError(() => roundFractionHalfUp(1, 2.5)).message).toBe("roundFractionHalfUp: denominator must be an integer > 0, received number 2.5");
    expect(thrownEvalError(() => roundFractionHalfUp(-1, 2)).message).toBe("roundFractionHalfUp: numerator must be an integer >= 0, received number -1");
    expect(thrownEvalError(() => roundFractionHalfUp(0.5, 1)).message).toBe("roundFractionHalfUp: numerator must be an integer >= 0, received number 0.5");
    expect(thrownEvalError(() => roundFractionHalfUp(NaN, 3)).code).toBe("INPUT_INVALID");
    expect(thrownEvalError(() => roundFractionHalfUp(1, 3, -1)).message).toBe("roundFractionHalfUp: decimals must be an integer >= 0, received number -1");
    expect(thrownEvalError(() => roundFractionHalfUp(2 ** 52, 3)).message).toContain("roundFractionHalfUp: numerator must be small enough");
    // Too many places for any numerator: decimals is the cause, not the numerator 1.
    expect(thrownEvalError(() => roundFractionHalfUp(1, 3, 20))).toMatchObject({ code: "INPUT_INVALID", issues: [{ path: ["decimals"] }], message: "roundFractionHalfUp: decimals must be small enough that 2·numerator·10^decimals + denominator is below 2^53, received number 20" });
    expect(thrownEvalError(() => roundFractionHalfUp(0, 2 ** 53)).message).toBe("roundFractionHalfUp: denominator must be small enough that 2·denominator is below 2^53, received number 9007199254740992");
    expect(roundFractionHalfUp(0, 3, 20)).toBe(0);
  });

  it("rounds .xx5 up, where floating point would not", () => {
    expect(roundFractionHalfUp(201, 200)).toBe(1.01); // 1.005
    expect(roundFractionHalfUp(1, 200)).toBe(0.01); // 0.005
    expect(roundFractionHalfUp(29, 200)).toBe(0.15); // 0.145
    expect(roundFractionHalfUp(11, 12)).toBe(0.92);
    expect(roundFractionHalfUp(2, 3)).toBe(0.67);
    expect(roundFractionHalfUp(0, 7)).toBe(0);
  });

  it("matches exact decimal arithmetic for every fraction", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2_000_000 }), fc.nat(), (den, k) => {
        const num = k % (den + 1);
        expect(roundFractionHalfUp(num, den)).toBe(referenceRound2(num, den));
      }),
      { numRuns: 5000 },
    );
  });

  it("matches exact BigInt arithmetic up to 2^53, at any number of decimals, where float quotients land next to integers", () => {
    // floor((2·num·10^d + den) / (2·den)), exactly; the float quotient of numbers this large is where an off-by-one would show.
    const exact = (num: number, den: number, d: number) => Number((2n * BigInt(num) * 10n ** BigInt(d) + BigInt(den)) / (2n * BigInt(den))) / 10 ** d;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 1, max: 2 ** 40 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: -2, max: 2 }), (d, den, f, nudge) => {
        const most = Math.floor((Number.MAX_SAFE_INTEGER - den) / (2 * 10 ** d));
        // Numerators near a multiple of the denominator, so that the quotient is near an integer.
        const num = Math.min(most, Math.max(0, Math.round(f * (most / den)) * den + nudge));
        expect(roundFractionHalfUp(num, den, d)).toBe(exact(num, den, d));
      }),
      { numRuns: 20_000 },
    );
  });
});
