import { closeSync, lstatSync, mkdtempSync, openSync, readlinkSync, readSync, realpathSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { EvalError } from "../errors.js";
import { makeFolder } from "../make-folder.js";
import { writeFailure } from "./output-file.js";
import { JUnitBuilder } from "../report/junit.js";
import type { GateResult, JUnitInput } from "../report/types.js";
import type { RowOutcome } from "../run/types.js";

/** Bytes of testcase lines a suite buffers before appending them to its part file. */
const FLUSH_BYTES = 1 << 16;

/**
 * Writes the JUnit XML of a run to `path` without holding its rows: each suite's testcase lines go to a
 * part file beside `path` as the rows stream from the store, and the document is then assembled
 * (suite counts first, as JUnit wants them) into `path.tmp`, renamed onto `path` when complete. The
 * part files are removed whatever happens: at once where the system allows an open file to be removed.
 * A write failure is an error naming `--junit` and the path: `USAGE` for a wrong path, `OUTPUT_FAILED` for
 * a full disk or an I/O error (see {@link writeFailure}).
 */
export async function writeJUnitFile(path: string, input: Omit<JUnitInput, "rows" | "gates">, rows: Iterable<RowOutcome> | AsyncIterable<RowOutcome>, gates: readonly GateResult[]): Promise<void> {
  const parts = new Map<number, { file: string; fd: number; buffer: string[]; bytes: number }>();
  const flush = (part: { fd: number; buffer: string[]; bytes: number }) => {
    if (part.buffer.length) writeSync(part.fd, part.buffer.join(""));
    part.buffer = [];
    part.bytes = 0;
  };
  const fail = (error: unknown) => writeFailure("--junit", path, error);
  // The file a symlink names is the one written (a rename onto the link would replace the link); a path that
  // is not a regular file (/dev/stdout, a FIFO, a device) is written in place, as --summary and --report are,
  // with the part files in a temporary folder: a rename would replace the device or pipe with a file.
  let target = path;
  try {
    target = realpathSync(path);
  } catch {
    // Not there yet, or a link to a file not there yet.
    try {
      if (lstatSync(path).isSymbolicLink()) target = resolve(dirname(path), readlinkSync(path));
    } catch {
      // not there
    }
  }
  // Asked of `path`, not of `target`: /dev/stdout on a pipe is a link to "pipe:[N]", which realpath
  // gives as a path that does not exist, where `path` opens the pipe itself.
  let inPlace = false;
  try {
    inPlace = !statSync(path).isFile();
  } catch {
    // not there yet: written beside, then renamed
  }
  const partsDir = inPlace ? mkdtempSync(join(tmpdir(), "simeval-junit-")) : undefined;
  const partBase = partsDir ? join(partsDir, "junit.xml") : target;
  const written = inPlace ? path : `${target}.tmp`;
  try {
    if (!inPlace) makeFolder(dirname(target));
    const builder = new JUnitBuilder(input, (suite, line) => {
      let part = parts.get(suite);
      if (!part) {
        const file = `${partBase}.part${suite}`;
        part = { file, fd: openSync(file, "w+"), buffer: [], bytes: 0 };
        parts.set(suite, part);
        // Unlinked while open (POSIX keeps it until closed), so that a process killed while the rows stream leaves
        // nothing behind; where an open file cannot be removed (Windows), it is removed at the end as before.
        try {
          rmSync(file);
        } catch {
          // removed in `finally`
        }
      }
      part.buffer.push(line, "\n");
      part.bytes += line.length + 1;
      if (part.bytes >= FLUSH_BYTES) flush(part);
    });
    for await (const row of rows) builder.add(row);
    const { head, suites, tail } = builder.finish(gates);
    const out = openSync(written, "w");
    try {
      writeSync(out, `${head}\n`);
      const chunk = Buffer.alloc(1 << 20);
      for (const s of suites) {
        writeSync(out, `${s.open}\n`);
        const part = parts.get(s.index);
        if (part) {
          flush(part);
          for (let at = 0, n: number; (n = readSync(part.fd, chunk, 0, chunk.length, at)) > 0; at += n) writeSync(out, chunk, 0, n);
        }
        for (const line of s.lines) writeSync(out, `${line}\n`);
        writeSync(out, `${s.close}\n`);
      }
      writeSync(out, tail);
    } finally {
      closeSync(out);
    }
    if (!inPlace) renameSync(written, target);
  } catch (error) {
    if (!inPlace) rmSync(written, { force: true });
    if (error instanceof EvalError) throw error;
    throw fail(error);
  } finally {
    for (const part of parts.values()) {
      closeSync(part.fd);
      rmSync(part.file, { force: true });
    }
    if (partsDir) rmSync(partsDir, { recursive: true, force: true });
  }
}
