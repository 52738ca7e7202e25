import { closeSync, openSync, readSync, rmSync } from "node:fs";
import { writeWhole } from "./output-file.js";
import type { Progress } from "./progress.js";
import { JUnitBuilder } from "../report/junit.js";
import type { GateResult, JUnitInput } from "../report/types.js";
import type { RowOutcome } from "../run/types.js";
import { writeFully } from "../write-fully.js";

/**
 * Bytes of testcase lines all the suites buffer together before appending them to the scratch file: each
 * suite a share, from 4 KiB to 64 KiB (64 KiB up to 127 evaluators, 41 KiB at 200; 4 KiB each past 2,047, so more in all).
 */
const BUFFER_BYTES = 1 << 23;
const SUITE_BYTES = { min: 1 << 12, max: 1 << 16 };
/** Rows between progress updates (the display itself draws at most ten times a second). */
const PROGRESS_ROWS = 1024;

/**
 * Writes the JUnit XML of a run to `path` without holding its rows: each suite's testcase lines go to
 * one scratch file beside `path`, in segments, as the rows stream from the store, and the document is
 * then assembled (suite counts first, as JUnit wants them) and put in place whole ({@link writeWhole}: a failure leaves the path as
 * it was, and says when it holds an earlier run's file). The scratch file is removed whatever happens: at once
 * where the system allows an open file to be removed. A write failure is an error naming `--junit` and the
 * path: `USAGE` for a wrong path, `OUTPUT_FAILED` for a full disk or an I/O error (see writeFailure in output-file.ts).
 * `progress` is told of the rows read back, of `total` (a million rows take about 20 s), and is done once they are.
 */
export async function writeJUnitFile(
  path: string,
  input: Omit<JUnitInput, "rows" | "gates">,
  rows: Iterable<RowOutcome> | AsyncIterable<RowOutcome>,
  gates: readonly GateResult[],
  progress?: { to: Progress; total: number },
): Promise<void> {
  await writeWhole("--junit", path, async (file) => {
    // Every suite's lines go to one scratch file, a segment at a time, so that a config of hundreds of evaluators holds
    // one descriptor (a file per suite ran out of them at about 250 evaluators under macOS's default limit of 256).
    const scratch: { fd: number | null; size: number } = { fd: null, size: 0 };
    /**
     * Per suite: its lines not yet written, as UTF-8, and the [offset, length] of each segment written. (Kept as
     * strings, each a tree of the pieces it was built from, 200 suites' lines outlived young-generation
     * collections, and the heap grew by about 100 MB.)
     */
    const parts = new Map<number, { bytes: Buffer; used: number; segments: number[] }>();
    const suiteBytes = Math.min(SUITE_BYTES.max, Math.max(SUITE_BYTES.min, Math.floor(BUFFER_BYTES / (input.evaluators.length + 1))));
    const openScratch = () => {
      const name = file.scratch("parts");
      const fd = openSync(name, "w+");
      // Unlinked while open (POSIX keeps it until closed), so that a process killed while the rows stream leaves
      // nothing behind; where an open file cannot be removed (Windows), writeWhole removes it at the end.
      try {
        rmSync(name);
      } catch {
        // removed at the end
      }
      return fd;
    };
    const append = (part: { segments: number[] }, data: Uint8Array) => {
      const fd = (scratch.fd ??= openScratch());
      writeFully(fd, data, scratch.size);
      part.segments.push(scratch.size, data.length);
      scratch.size += data.length;
    };
    try {
      const builder = new JUnitBuilder(input, (suite, line) => {
        let part = parts.get(suite);
        if (!part) parts.set(suite, (part = { bytes: Buffer.allocUnsafe(suiteBytes), used: 0, segments: [] }));
        // UTF-8 takes at most 3 bytes per UTF-16 unit, and 1 for the line break.
        const most = 3 * line.length + 1;
        if (part.used > 0 && part.used + most > part.bytes.length) {
          append(part, part.bytes.subarray(0, part.used));
          part.used = 0;
        }
        if (most > part.bytes.length) return append(part, Buffer.from(`${line}\n`));
        part.used += part.bytes.write(line, part.used);
        part.bytes[part.used++] = 0x0a;
      });
      let read = 0;
      for await (const row of rows) {
        builder.add(row);
        if (++read % PROGRESS_ROWS === 0) {
          progress?.to.update(read, progress.total);
          // The rows come from a synchronous store, and the lines go to a file synchronously: the event loop would not
          // turn until the end (a million rows take about 20 s), and a Ctrl-C or SIGTERM meanwhile was not heard, not
          // even a second one, which stops at once. Let it turn, so that a signal's listener runs.
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      }
      progress?.to.update(read, progress.total);
      progress?.to.done();
      const { head, suites, tail } = builder.finish(gates);
      const out = file.open();
      writeFully(out, `${head}\n`);
      const chunk = Buffer.alloc(1 << 20);
      for (const s of suites) {
        writeFully(out, `${s.open}\n`);
        const part = parts.get(s.index);
        if (part) {
          for (let i = 0; i < part.segments.length; i += 2) {
            const start = part.segments[i] as number;
            const end = start + (part.segments[i + 1] as number);
            for (let at = start, n: number; at < end; at += n) {
              n = readSync(scratch.fd as number, chunk, 0, Math.min(chunk.length, end - at), at);
              if (n === 0) throw new Error(`its scratch file ended early, at byte ${at} of ${end}`);
              writeFully(out, chunk.subarray(0, n));
            }
          }
          // The lines after the last segment, straight from the suite's buffer.
          writeFully(out, part.bytes.subarray(0, part.used));
        }
        for (const line of s.lines) writeFully(out, `${line}\n`);
        writeFully(out, `${s.close}\n`);
      }
      writeFully(out, tail);
    } finally {
      if (scratch.fd !== null) closeSync(scratch.fd);
    }
  });
}
