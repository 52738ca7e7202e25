import { closeSync, openSync, readSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { EvalError } from "../errors.js";
import { makeFolder } from "../make-folder.js";
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
 * A write failure is a USAGE error naming `--junit` and the path.
 */
export async function writeJUnitFile(path: string, input: Omit<JUnitInput, "rows" | "gates">, rows: Iterable<RowOutcome> | AsyncIterable<RowOutcome>, gates: readonly GateResult[]): Promise<void> {
  const parts = new Map<number, { file: string; fd: number; buffer: string[]; bytes: number }>();
  const flush = (part: { fd: number; buffer: string[]; bytes: number }) => {
    if (part.buffer.length) writeSync(part.fd, part.buffer.join(""));
    part.buffer = [];
    part.bytes = 0;
  };
  const fail = (error: unknown) => new EvalError("USAGE", `--junit ${path}: cannot write (${(error as Error).message})`);
  try {
    makeFolder(dirname(path));
    const builder = new JUnitBuilder(input, (suite, line) => {
      let part = parts.get(suite);
      if (!part) {
        const file = `${path}.part${suite}`;
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
    const out = openSync(`${path}.tmp`, "w");
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
    renameSync(`${path}.tmp`, path);
  } catch (error) {
    rmSync(`${path}.tmp`, { force: true });
    if (error instanceof EvalError) throw error;
    throw fail(error);
  } finally {
    for (const part of parts.values()) {
      closeSync(part.fd);
      rmSync(part.file, { force: true });
    }
  }
}
