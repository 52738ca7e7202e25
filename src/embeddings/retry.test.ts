import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anySignal, backoffDelay, retryAfterMs, sleep } from "./retry.js";

describe("backoffDelay (full jitter)", () => {
  it("draws from [0, min(max, base * 2^retry))", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (retry, r) => {
        const d = backoffDelay(retry, { baseMs: 500, maxMs: 8000, random: () => r });
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThan(Math.min(8000, 500 * 2 ** retry));
      }),
    );
  });

  it("doubles the ceiling per retry up to the cap", () => {
    const top = (retry: number) => backoffDelay(retry, { baseMs: 100, maxMs: 1000, random: () => 0.999999 });
    expect([0, 1, 2, 3, 4, 10].map(top)).toEqual([99, 199, 399, 799, 999, 999]);
  });
});

describe("retryAfterMs", () => {
  const now = Date.parse("2025-01-01T00:00:00Z");
  const cases: [Record<string, string>, number | undefined][] = [
    [{}, undefined],
    [{ "retry-after": "2" }, 2000],
    [{ "retry-after": "0.25" }, 250],
    [{ "retry-after": "Wed, 01 Jan 2025 00:00:03 GMT" }, 3000],
    [{ "retry-after": "Tue, 31 Dec 2024 23:59:00 GMT" }, 0],
    [{ "retry-after": "soon" }, undefined],
    [{ "retry-after": "-1" }, undefined],
    [{ "retry-after-ms": "120", "retry-after": "9" }, 120],
    [{ "retry-after-ms": "abc", "retry-after": "9" }, 9000],
  ];
  it.each(cases)("%j -> %s", (headers, expected) => {
    expect(retryAfterMs(new Headers(headers), now)).toBe(expected);
  });
});

describe("sleep", () => {
  it("rejects with the abort reason", async () => {
    const ac = new AbortController();
    const p = sleep(10_000, ac.signal);
    ac.abort(new Error("stop"));
    await expect(p).rejects.toThrow("stop");
    await expect(sleep(1, AbortSignal.abort(new Error("already")))).rejects.toThrow("already");
  });
});

describe("anySignal", () => {
  it("aborts with the reason of the first signal that aborts", () => {
    const a = new AbortController();
    const b = new AbortController();
    const s = anySignal([a.signal, b.signal]);
    expect(s.aborted).toBe(false);
    b.abort("b went first");
    expect([s.aborted, s.reason]).toEqual([true, "b went first"]);
  });

  it("the fallback (without AbortSignal.any) behaves the same", () => {
    const native = Object.getOwnPropertyDescriptor(AbortSignal, "any");
    Object.defineProperty(AbortSignal, "any", { value: undefined, configurable: true });
    try {
      const a = new AbortController();
      const s = anySignal([a.signal, new AbortController().signal]);
      expect(s.aborted).toBe(false);
      a.abort("a");
      expect([s.aborted, s.reason]).toEqual([true, "a"]);
      expect(anySignal([AbortSignal.abort("already")]).reason).toBe("already");
    } finally {
      if (native) Object.defineProperty(AbortSignal, "any", native);
    }
  });
});
