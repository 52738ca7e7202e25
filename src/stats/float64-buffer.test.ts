import { describe, expect, it } from "vitest";
import { Float64Buffer } from "./float64-buffer.js";

describe("Float64Buffer", () => {
  it("grows past its capacity and keeps every value", () => {
    const b = new Float64Buffer(2);
    for (let i = 0; i < 1000; i++) b.push(i / 2);
    expect(b.length).toBe(1000);
    expect(b.view()[999]).toBe(499.5);
    expect(Array.from(b.view().subarray(0, 3))).toEqual([0, 0.5, 1]);
  });

  it("set() fills the gap with NaN and get() reads NaN past the end", () => {
    const b = new Float64Buffer(1);
    b.set(3, 7);
    expect(Array.from(b.view())).toEqual([Number.NaN, Number.NaN, Number.NaN, 7]);
    b.set(5, 1);
    expect(Array.from(b.view())).toEqual([Number.NaN, Number.NaN, Number.NaN, 7, Number.NaN, 1]);
    b.set(0, 2);
    expect(b.get(0)).toBe(2);
    expect(b.get(99)).toBeNaN();
  });
});
