/** A one-line progress display for long runs: rows, rows/s and, when the total is known, a bar and ETA. */
export interface Progress {
  /** `total`: the expected row count when known (e.g. a JSONL file's line count), else null. */
  update(rows: number, total: number | null): void;
  done(): void;
}

const QUIET: Progress = { update() {}, done() {} };

/**
 * Writes to `stream` only when it is a terminal (quiet in CI and pipes), at most ten times a second.
 */
export function terminalProgress(stream: NodeJS.WriteStream): Progress {
  if (!stream.isTTY) return QUIET;
  const start = performance.now();
  let last = 0;
  let drawn = false;
  const draw = (rows: number, total: number | null) => {
    const seconds = (performance.now() - start) / 1000;
    const rate = seconds > 0 ? rows / seconds : 0;
    let text = `${rows.toLocaleString("en-US")} rows  ${Math.round(rate).toLocaleString("en-US")} rows/s  ${clock(seconds)}`;
    if (total && total > 0) {
      const fraction = Math.min(1, rows / total);
      const width = 24;
      const filled = Math.round(fraction * width);
      const eta = rate > 0 ? Math.max(0, (total - rows) / rate) : null;
      text = `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}%  ${text}${eta === null ? "" : `  ETA ${clock(eta)}`}`;
    }
    stream.write(`\r${text}\x1b[K`);
    drawn = true;
  };
  return {
    update(rows, total) {
      const now = performance.now();
      if (now - last < 100) return;
      last = now;
      draw(rows, total);
    },
    done() {
      if (drawn) stream.write("\r\x1b[K");
    },
  };
}

function clock(seconds: number): string {
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
