import { afterEach, describe, expect, it, vi } from "vitest";
import { terminalProgress } from "./progress.js";

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return { stream: { isTTY, write: (s: string) => writes.push(s) } as unknown as NodeJS.WriteStream, writes };
}

/** A progress line on a fake `xterm` (of `columns` when given) with a faked clock (performance.now). */
function fakeTerminal(columns?: number) {
  vi.useFakeTimers({ toFake: ["performance"] });
  const { stream, writes } = fakeStream(true);
  if (columns !== undefined) (stream as { columns: number }).columns = columns;
  return { p: terminalProgress(stream, undefined, "xterm"), writes };
}

describe("terminalProgress", () => {
  // The tests that fake the clock (performance.now) leave it real for the next, whatever their outcome.
  afterEach(() => void vi.useRealTimers());

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

  it("draws no progress line when told not to (the command prints its results on the terminal), but prints notes", () => {
    const { stream, writes } = fakeStream(true);
    const p = terminalProgress(stream, undefined, "xterm", false);
    p.update(10, 100);
    p.note("simeval: waiting");
    p.done();
    expect(writes).toEqual(["simeval: waiting\n"]);
  });

  it("starts a note after a key the terminal echoed (Ctrl-C's ^C) on a line of its own: erased on a terminal, below it on TERM=dumb, as it is elsewhere", () => {
    const tty = fakeStream(true);
    // Before the first progress line too: the ^C is where the cursor was.
    terminalProgress(tty.stream, undefined, "xterm").note("simeval: interrupted (SIGINT)", true);
    expect(tty.writes).toEqual(["\r\x1b[K", "simeval: interrupted (SIGINT)\n"]);
    const dumb = fakeStream(true);
    terminalProgress(dumb.stream, undefined, "dumb").note("simeval: interrupted (SIGINT)", true);
    expect(dumb.writes).toEqual(["\n", "simeval: interrupted (SIGINT)\n"]);
    const file = fakeStream(false); // the ^C is on the terminal, not in the file
    terminalProgress(file.stream, undefined, "xterm").note("simeval: interrupted (SIGINT)", true);
    expect(file.writes).toEqual(["simeval: interrupted (SIGINT)\n"]);
  });

  it("shows rows, rows/s, a bar and an ETA on a terminal, then clears the line", () => {
    const { p, writes } = fakeTerminal();
    vi.advanceTimersByTime(2000);
    p.update(1000, 4000);
    // No rate yet (it is measured from this update on), so no ETA.
    expect(writes[0]).toBe("\r[######------------------]  25%  1,000 rows  0:02\x1b[K");
    p.update(1001, 4000); // within 100 ms: not redrawn
    expect(writes).toHaveLength(1);
    vi.advanceTimersByTime(500);
    p.update(1500, 4000);
    expect(writes[1]).toMatch(/^\r\[#########---------------\]  37%  1,500 rows  1,000 rows\/s  0:03  ETA 0:03\x1b\[K$/);
    vi.advanceTimersByTime(500);
    p.update(2000, null);
    expect(writes[2]).toMatch(/^\r2,000 rows  1,000 rows\/s  0:03\x1b\[K$/);
    // A note goes above the progress line, which is drawn again.
    p.note("simeval: waiting");
    expect(writes.slice(3, 6)).toEqual(["\r\x1b[K", "simeval: waiting\n", expect.stringMatching(/^\r2,000 rows/)]);
    p.done();
    expect(writes[6]).toBe("\r\x1b[K");
  });

  it("shows what the run does before its first row (a step) with the time so far, until the first row count replaces it", () => {
    const { p, writes } = fakeTerminal();
    vi.advanceTimersByTime(1500);
    p.step("fingerprinting the dataset: 40 of 100 MB");
    expect(writes).toEqual(["\rfingerprinting the dataset: 40 of 100 MB  0:02\x1b[K"]);
    p.step("fingerprinting the dataset: 41 of 100 MB"); // within 100 ms: not redrawn
    expect(writes).toHaveLength(1);
    // A note goes above it, and the step is drawn again.
    p.note("simeval: waiting");
    expect(writes.slice(1)).toEqual(["\r\x1b[K", "simeval: waiting\n", "\rfingerprinting the dataset: 40 of 100 MB  0:02\x1b[K"]);
    vi.advanceTimersByTime(200);
    p.update(512, 1000);
    expect(writes[4]).toMatch(/^\r\[#+-+\]  51%  512 rows  0:02\x1b\[K$/);
    // Once rows are shown, a step is not drawn over them.
    vi.advanceTimersByTime(200);
    p.step("fitting the dataset IDF: 1,024 rows read");
    expect(writes).toHaveLength(5);
    p.done();
    expect(writes[5]).toBe("\r\x1b[K");
    // Not on a terminal: nothing.
    const file = fakeStream(false);
    terminalProgress(file.stream).step("fingerprinting the dataset: 1 of 100 MB");
    expect(file.writes).toEqual([]);
  });

  it("measures rows/s from the first update, so that the time before it (no row scored) does not make the first ETAs minutes long", () => {
    const { p, writes } = fakeTerminal();
    vi.advanceTimersByTime(3000); // fingerprinting the file, starting the threads, the first batch
    p.update(512, 600_512);
    expect(writes[0]).not.toMatch(/rows\/s|ETA|NaN|Infinity/);
    vi.advanceTimersByTime(1000);
    p.update(100_512, 600_512);
    expect(writes[1]).toMatch(/  100,000 rows\/s  0:04  ETA 0:05\x1b\[K$/);
    // No row since the first update (a provider that waits): a rate of 0, and no ETA rather than an endless one.
    const stalled = fakeStream(true);
    const q = terminalProgress(stalled.stream, undefined, "xterm");
    q.update(512, 1000);
    vi.advanceTimersByTime(1000);
    q.update(512, 1000);
    expect(stalled.writes[1]).toMatch(/  512 rows  0 rows\/s  0:01\x1b\[K$/);
  });

  it("shows 100%, and a full bar, only when every row is done: 99.5% is 99%", () => {
    const { stream, writes } = fakeStream(true);
    terminalProgress(stream, undefined, "xterm").update(995, 1000);
    // The bar too: one mark short of full (rounded, 98% drew a full bar).
    expect(writes[0]).toMatch(/^\r\[#{23}-\]  99%  995 rows/);
  });

  it("gives exactly an hour as 1:00:00, and a second less as 59:59", () => {
    const { p, writes } = fakeTerminal(200);
    vi.advanceTimersByTime(3599_000);
    p.update(10, null);
    expect(writes[0]).toMatch(/  59:59\x1b\[K$/);
    vi.advanceTimersByTime(1000);
    p.update(20, null);
    expect(writes[1]).toMatch(/  1:00:00\x1b\[K$/);
  });

  it("gives times of an hour or more as h:mm:ss", () => {
    const { p, writes } = fakeTerminal(200);
    vi.advanceTimersByTime(1000);
    p.update(100, 30_100);
    vi.advanceTimersByTime(3600_000);
    p.update(3700, 30_100); // a row a second: 26,400 s (7:20:00) to go
    expect(writes[1]).toMatch(/  3,700 rows  1 rows\/s  1:00:01  ETA 7:20:00\x1b\[K$/);
    vi.advanceTimersByTime(60_000);
    p.update(3760, 30_100);
    expect(writes[2]).toMatch(/  1:01:01  ETA 7:19:00\x1b\[K$/);
    p.update(3760, 30_100); // and under an hour, m:ss as before
    vi.advanceTimersByTime(100);
    p.update(30_000, 30_100);
    expect(writes[3]).toMatch(/  ETA 0:12\x1b\[K$/);
  });

  it("shows no bar or ETA once the rows exceed the estimate, which then tells nothing of the rows left", () => {
    const { p, writes } = fakeTerminal();
    vi.advanceTimersByTime(1000);
    p.update(1000, 2000);
    vi.advanceTimersByTime(1000);
    p.update(2000, 2000);
    expect(writes[1]).toMatch(/^\r\[#+\] 100%  2,000 rows  1,000 rows\/s  0:02  ETA 0:00\x1b\[K$/);
    vi.advanceTimersByTime(1000);
    p.update(3000, 2000);
    expect(writes[2]).toBe("\r3,000 rows  1,000 rows/s  0:03\x1b[K");
  });

  it("keeps the line narrower than the terminal, so that it never wraps and leaves rows behind", () => {
    const { p, writes } = fakeTerminal(40);
    vi.advanceTimersByTime(2000);
    p.update(100_000, 200_000);
    vi.advanceTimersByTime(500);
    p.update(150_000, null);
    expect(writes).toHaveLength(2);
    // Room is left for the ^C that Ctrl-C echoes after the line: reaching the last column, it would wrap.
    for (const w of writes) expect(w.replace(/^\r/, "").replace(/\x1b\[K$/, "").length).toBeLessThanOrEqual(40 - 3);
    expect(writes[0]).toMatch(/^\r50%  100,000 rows/);
  });

  it("leaves the last columns free for the ^C that Ctrl-C echoes after the line, which would wrap there and leave the line behind", () => {
    const { p, writes } = fakeTerminal(40);
    vi.advanceTimersByTime(1000);
    p.update(0, 602_112);
    vi.advanceTimersByTime(2000);
    p.update(301_056, 602_112);
    // "50%  301,056 rows  150,528 rows/s  0:03" is 39 characters: ^C would reach the 41st column.
    expect(writes[1]).toBe("\r50%  301,056 rows  150,528 rows/s\x1b[K");
  });

  it("fits each line to the terminal's width when it is drawn, so that a terminal resized meanwhile gets lines that do not wrap", () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    const { stream, writes } = fakeStream(true);
    const terminal = stream as { columns: number };
    terminal.columns = 100;
    const p = terminalProgress(stream, undefined, "xterm");
    vi.advanceTimersByTime(1000);
    p.update(0, 602_112);
    vi.advanceTimersByTime(2000);
    p.update(301_056, 602_112);
    expect(writes[1]).toBe("\r[############------------]  50%  301,056 rows  150,528 rows/s  0:03  ETA 0:02\x1b[K");
    // Narrowed, as Node reads the width again on SIGWINCH: the bar and the last fields go.
    terminal.columns = 40;
    vi.advanceTimersByTime(1000);
    p.update(451_584, 602_112);
    expect(writes[2]).toBe("\r75%  451,584 rows  150,528 rows/s\x1b[K");
    // Widened again: all of it is back.
    terminal.columns = 120;
    vi.advanceTimersByTime(1000);
    p.update(602_112, 602_112);
    expect(writes[3]).toBe("\r[########################] 100%  602,112 rows  150,528 rows/s  0:05  ETA 0:00\x1b[K");
  });
});
