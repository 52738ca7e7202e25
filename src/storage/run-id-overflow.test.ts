/** newRunId when the random digits of a millisecond run out: made to happen by random bytes that are all ones. */
import { describe, expect, it, vi } from "vitest";

vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:crypto")>();
  return { ...actual, getRandomValues: <T extends ArrayBufferView>(array: T): T => (new Uint8Array(array.buffer).fill(0xff), array) };
});

const { newRunId } = await import("./run-id.js");

describe("newRunId, its random digits used up", () => {
  it("moves on to the next millisecond, so that ids still increase", () => {
    const now = 5_000_000_000_000;
    const first = newRunId(now);
    expect(first.slice(10)).toBe("z".repeat(16));
    const second = newRunId(now);
    expect(second > first).toBe(true);
    expect(second.slice(0, 10) > first.slice(0, 10)).toBe(true);
  });
});
