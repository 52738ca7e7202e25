import { afterEach, expect, it, vi } from "vitest";
import { terminalProgress } from "./progress.js";
import { watchInterrupts, type Interrupts } from "./stop-signals.js";

// In a file of its own: once a stop is asked, it stays asked for the process (this file's module instance).
let watching: Interrupts | undefined;
afterEach(() => {
  watching?.dispose();
  vi.useRealTimers();
});

it("once a stop is asked, draws the line with the cursor below it, so that a second signal's kill leaves it ending in a line break, and without its ETA", () => {
  const writes: string[] = [];
  const stream = { isTTY: true, columns: 80, write: (s: string) => (writes.push(s), true) } as unknown as NodeJS.WriteStream;
  vi.useFakeTimers({ toFake: ["performance"] });
  const p = terminalProgress(stream, undefined, "xterm");
  vi.advanceTimersByTime(200); // past the first tenth of a second, in which no line is drawn
  p.update(5, 100);
  vi.advanceTimersByTime(1000);
  p.update(10, 100);
  expect(writes.at(-1)).toMatch(/^\r\[.*10 rows.*  ETA 0:18\x1b\[K$/); // on the line, as before any signal
  watching = watchInterrupts();
  process.emit("SIGTERM");
  p.note("simeval: interrupted (SIGTERM)");
  // The line drawn before the signal is erased where the cursor is; drawn again, it ends with a line break, and
  // without its ETA: only the rows already sent are scored, and the rows left tell no time to the end.
  expect(writes.slice(-3)).toEqual(["\r\x1b[K", "simeval: interrupted (SIGTERM)\n", expect.stringMatching(/^\r\[.*10 rows  5 rows\/s  0:01\x1b\[K\n$/)]);
  p.note("a notice");
  // Erasing it now goes up a line first, and so does each draw.
  expect(writes.slice(-3)).toEqual(["\x1b[1A\r\x1b[K", "a notice\n", expect.stringMatching(/^\r.*\x1b\[K\n$/)]);
  p.done();
  expect(writes.at(-1)).toBe("\x1b[1A\r\x1b[K");
  const q = terminalProgress(stream, undefined, "xterm");
  q.step("reading the rows back");
  q.step("reading the rows back");
  expect(writes.at(-1)).toMatch(/^\rreading the rows back .*\x1b\[K\n$/);
});
