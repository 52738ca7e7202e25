import { stopRequested } from "./stop-signals.js";

/**
 * A one-line progress display for long runs: rows, rows/s (from the second update on) and, when the total is
 * known, a bar and ETA (once there is a rate, and until a stop is asked).
 */
export interface Progress {
  /** `total`: the expected row count when known (e.g. a JSONL file's line count), else null; ignored once `rows` exceeds it. */
  update(rows: number, total: number | null): void;
  /**
   * A line to show now, whether or not it is a terminal (above the progress line, which is drawn again).
   * `typed`: a key was just pressed that the terminal echoes where the cursor is (Ctrl-C's `^C`), so the
   * line must not start there.
   */
  note(line: string, typed?: boolean): void;
  /** What the run does before its first row (fingerprinting a large file), shown until the first `update`. */
  step(text: string): void;
  done(): void;
}

/**
 * Writes the progress line to `stream` only when it is a terminal (quiet in CI and pipes) that is not
 * `TERM=dumb` (an editor's shell buffer, which shows the line's escape codes rather than obeying them),
 * at most ten times a second. Notes go to `print` (a line writer on the same stream, such as the command's stderr)
 * always; on a terminal, the line is erased first (the progress line, or a `^C` echoed before the first one)
 * and the progress line drawn again after. Once a stop is asked (see {@link stopRequested}), the line is drawn
 * with a line break after it, the cursor resting below: the same signal again kills the process at once, and
 * leaves the line whole, with what comes next (the `^C` echoed, the shell's prompt) on a line of its own.
 * `visible` false draws none on a terminal either: what the command
 * prints meanwhile on the terminal (`run --out /dev/stdout`) would be written after the line's text.
 */
export function terminalProgress(
  stream: NodeJS.WriteStream,
  print: (line: string) => void = (line) => void stream.write(`${line}\n`),
  term: string | undefined = process.env["TERM"],
  visible = true,
): Progress {
  if (!stream.isTTY || term === "dumb" || !visible) {
    // No line to erase (or a terminal that cannot): a `^C` the terminal echoed stays, and the note goes below it.
    const note = (line: string, typed = false) => {
      if (typed && stream.isTTY) stream.write("\n");
      print(line);
    };
    return { update() {}, note, step() {}, done() {} };
  }
  // The line's widest: the terminal's width, less a column to keep it from wrapping and two for an echoed `^C`.
  const room = () => Math.max(0, (stream.columns && stream.columns > 1 ? stream.columns : 80) - 3);
  const start = performance.now();
  let last = 0;
  let drawn = false;
  // The cursor rests on the line below the progress line (drawn once a stop was asked).
  let below = false;
  const put = (text: string) => {
    const stopping = stopRequested();
    stream.write(`${below ? "\x1b[1A" : ""}\r${text}\x1b[K${stopping ? "\n" : ""}`);
    below = stopping;
    drawn = true;
  };
  const erase = () => {
    stream.write(below ? "\x1b[1A\r\x1b[K" : "\r\x1b[K");
    below = false;
  };
  let shown: [number, number | null] | null = null;
  // Rows/s is measured from the first update on: the time before it (fingerprinting the file, starting the
  // scoring threads, the first batch) scored no row, and counted in, it made the first rates a small part of
  // the real one and the first ETAs minutes long for a run of seconds. The first line has neither.
  let first: { time: number; rows: number } | undefined;
  const draw = (rows: number, total: number | null) => {
    shown = [rows, total];
    const now = performance.now();
    const seconds = (now - start) / 1000;
    first ??= { time: now, rows };
    const measured = (now - first.time) / 1000;
    const rate = measured > 0 ? Math.max(0, rows - first.rows) / measured : null;
    let text = `${rows.toLocaleString("en-US")} rows${rate === null ? "" : `  ${Math.round(rate).toLocaleString("en-US")} rows/s`}  ${clock(seconds)}`;
    // More rows than the estimate (a file appended to while read): it no longer tells how many are left, and a
    // bar at 100% with "ETA 0:00" would say the run is ending while it goes on. Shown as a total not known.
    if (total && total > 0 && rows <= total) {
      const fraction = rows / total;
      const width = 24;
      // Full only when every row is done, as the percentage is (rounded, 98% drew a full bar).
      const filled = Math.floor(fraction * width);
      // Once a stop is asked, only the rows already sent are scored: the rows left tell no time to the end.
      const eta = rate && !stopRequested() ? Math.max(0, (total - rows) / rate) : null;
      const rest = `${String(Math.floor(fraction * 100)).padStart(3)}%  ${text}${eta === null ? "" : `  ETA ${clock(eta)}`}`;
      const bar = `[${"#".repeat(filled)}${"-".repeat(width - filled)}] `;
      text = bar.length + rest.length <= room() ? `${bar}${rest}` : rest.trimStart();
    }
    // A line as wide as the terminal would wrap, and "\r" returns only to the start of its last row: each
    // redraw would leave a row behind. So would the `^C` that Ctrl-C echoes after the line, were it to reach the
    // last column: the line is then erased below the row it wrapped from. The bar goes first, then the last
    // fields (ETA, time, rate).
    while (text.length > room() && text.includes("  ")) text = text.slice(0, text.lastIndexOf("  "));
    put(text.slice(0, room()));
  };
  let stepShown: string | null = null;
  const drawStep = (text: string) => {
    stepShown = text;
    put(`${text}  ${clock((performance.now() - start) / 1000)}`.slice(0, room()));
  };
  // At most ten draws a second.
  const due = () => {
    const now = performance.now();
    if (now - last < 100) return false;
    last = now;
    return true;
  };
  return {
    update(rows, total) {
      if (!due()) return;
      stepShown = null;
      draw(rows, total);
    },
    note(line) {
      erase();
      print(line);
      if (shown) draw(...shown);
      else if (stepShown !== null) drawStep(stepShown);
    },
    step(text) {
      if (shown === null && due()) drawStep(text);
    },
    done() {
      if (drawn) erase();
      drawn = false;
      shown = null;
      stepShown = null;
    },
  };
}

/** `m:ss`, or `h:mm:ss` from an hour on (a slow embedding provider's ETA read "500:00" for 8:20:00). */
function clock(seconds: number): string {
  const s = Math.round(seconds);
  const mmss = `${String(Math.floor(s / 60) % 60).padStart(s >= 3600 ? 2 : 1, "0")}:${String(s % 60).padStart(2, "0")}`;
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mmss}` : mmss;
}
