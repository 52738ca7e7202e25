import { describe, expect, it } from "vitest";
import { loadOnce } from "./load-once.js";

describe("loadOnce", () => {
  it("loads at the first call and shares that load with every later call", async () => {
    let loads = 0;
    const get = loadOnce(async () => ++loads);
    expect(loads).toBe(0);
    expect(await Promise.all([get(), get()])).toEqual([1, 1]);
    expect(await get()).toBe(1);
    expect(loads).toBe(1);
  });

  it("forgets a failed load, so that the next call tries again", async () => {
    let attempt = 0;
    const get = loadOnce(async () => {
      attempt++;
      if (attempt === 1) throw new Error("not installed yet");
      return "loaded";
    });
    await expect(get()).rejects.toThrow("not installed yet");
    expect(await get()).toBe("loaded");
    expect(await get()).toBe("loaded");
    expect(attempt).toBe(2);
  });
});
