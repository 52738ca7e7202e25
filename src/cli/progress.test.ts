import { describe, expect, it, vi } from "vitest";
import { terminalProgress } from "./progress.js";

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return { stream: { isTTY, write: (s: string) => writes.push(s) } as unknown as NodeJS.WriteStream, writes };
}

describe("terminalProgress", () => {
  it("draws no progress line when not a terminal, but prints notes", () => {
    const { stream, writes } = fakeStream(false);
    const p = terminalProgress(stream);
    p.update(10, 100);
    p.done();
    expect(writes).toEqual([]);
    p.note("simeval: waiting"); // notes are shown all the same
    expect(writes).toEqual(["simeval: waiting\n"]);
  });

  it("draws no progress line on a TERM=dumb terminal, which would show its escape codes", () => {
    const { stream, writes } = fakeStream(true);
    const p = terminalProgress(stream, undefined, "dumb");
    p.update(10, 100);
    p.note("simeval: waiting");
    p.done();
    expect(writes).toEqual(["simeval: waiting\n"]);
  });

  it("shows rows, rows/s, a bar and an ETA on a terminal, then clears the line", () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    try {
      const { stream, writes } = fakeStream(true);
      const p = terminalProgress(stream, undefined, "xterm");
      vi.advanceTimersByTime(2000);
      p.update(1000, 4000);
      expect(writes[0]).toMatch(/^\r\[######------------------\]  25%  1,000 rows  500 rows\/s  0:02  ETA 0:06/);
      p.update(1001, 4000); // within 100 ms: not redrawn
      expect(writes).toHaveLength(1);
      vi.advanceTimersByTime(500);
      p.update(1500, null);
      expect(writes[1]).toMatch(/^\r1,500 rows  600 rows\/s  0:03\x1b\[K$/);
      // A note goes above the progress line, which is drawn again.
      p.note("simeval: waiting");
      expect(writes.slice(2, 5)).toEqual(["\r\x1b[K", "simeval: waiting\n", expect.stringMatching(/^\r1,500 rows/)]);
      p.done();
      expect(writes[5]).toBe("\r\x1b[K");
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps the line narrower than the terminal, so that it never wraps and leaves rows behind", () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    try {
      const { stream, writes } = fakeStream(true);
      (stream as { columns: number }).columns = 40;
      const p = terminalProgress(stream, undefined, "xterm");
      vi.advanceTimersByTime(2000);
      p.update(100_000, 200_000);
      vi.advanceTimersByTime(500);
      p.update(150_000, null);
      expect(writes).toHaveLength(2);
      for (const w of writes) expect(w.replace(/^\r/, "").replace(/\x1b\[K$/, "").length).toBeLessThan(40);
      expect(writes[0]).toMatch(/^\r50%  100,000 rows/);
    } finally {
      vi.useRealTimers();
    }
  });
});
