import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { newRunId, runIdTime } from "./run-id.js";

const SHAPE = /^[0-9a-hjkmnp-tv-z]{26}$/;

describe("newRunId", () => {
  // Runs first: the generator never goes back in time, so later tests may leave it in the future.
  it("encodes the millisecond time as the ULID spec does (its example: 1469918176385 → 01ARYZ6S41)", () => {
    const id = newRunId(1469918176385);
    expect(id).toMatch(SHAPE);
    expect(id.slice(0, 10)).toBe("01aryz6s41");
  });

  it("sorts by creation time as a plain string", () => {
    const a = newRunId(Date.UTC(2030, 0, 1));
    const b = newRunId(Date.UTC(2030, 0, 1, 0, 0, 0, 1));
    expect(a.slice(0, 10) < b.slice(0, 10)).toBe(true);
    expect(a < b).toBe(true);
  });

  it("is strictly increasing within one millisecond and when the clock steps back", () => {
    const t = Date.UTC(2031, 0, 1);
    const ids = [newRunId(t), newRunId(t), newRunId(t), newRunId(t - 5000), newRunId(t)];
    for (let i = 1; i < ids.length; i++) expect(ids[i - 1]! < ids[i]!).toBe(true);
    expect(new Set(ids.map((id) => id.slice(0, 10))).size).toBe(1); // the clock step did not move the time part back
  });

  it("gives strictly increasing, well-formed ids for any sequence of clock readings", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: Date.UTC(2032, 0, 1), max: Date.UTC(2040, 0, 1) }), { minLength: 2, maxLength: 50 }), (times) => {
        const ids = times.map((t) => newRunId(t));
        for (const id of ids) expect(id).toMatch(SHAPE);
        for (let i = 1; i < ids.length; i++) expect(ids[i - 1]! < ids[i]!).toBe(true);
      }),
    );
  });

  it("draws fresh random bits for each new millisecond", () => {
    const t = Date.UTC(2041, 0, 1);
    const tails = new Set(Array.from({ length: 200 }, (_, i) => newRunId(t + i * 2).slice(10)));
    expect(tails.size).toBe(200);
  });

  it("draws each random digit from all 32 letters", () => {
    const digits = new Set(Array.from({ length: 100 }, (_, i) => newRunId(4_000_000_000_000 + i).slice(10)).join(""));
    expect(digits.size).toBe(32);
  });

  it("gives back the millisecond time of an id it made (a run's started_at), and nothing for a string that is no run id", () => {
    // Last in this file: the generator never goes back in time, and this leaves it at the 48-bit end.
    expect(runIdTime(newRunId(2 ** 48 - 1))).toBe(2 ** 48 - 1);
    expect(runIdTime("01aryz6s41" + "0".repeat(16))).toBe(1469918176385);
    for (const bad of ["", "01aryz6s41", "01ARYZ6S41" + "0".repeat(16), "01aryz6s41" + "0".repeat(15) + "u", "01aryz6s41" + "0".repeat(17)]) expect(runIdTime(bad)).toBeUndefined();
  });
});
