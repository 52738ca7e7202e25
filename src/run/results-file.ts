import { closeSync, openSync, readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { EvalError } from "../errors.js";
import type { RowOutcome } from "./types.js";

/** Bytes read at a time. */
const CHUNK = 1 << 20;

/**
 * Reads a results.jsonl written by `simeval run --out` back as row outcomes, one at a time and in file
 * order, so that comparing two files of a million rows holds neither in memory: {@link compareRuns}
 * pairs them as they come (it takes these sync rows and the store's async ones alike). A line that is not a result row, a
 * file that cannot be read or holds no rows, is a USAGE error naming the file and line.
 */
export function* readResultsFile(path: string, chunkBytes = CHUNK): Generator<RowOutcome> {
  const fd = tryRead(path, () => openSync(path, "r"));
  try {
    const buffer = Buffer.allocUnsafe(chunkBytes);
    const decoder = new StringDecoder("utf8");
    let rest = "";
    let lineNo = 0;
    let rows = 0;
    for (;;) {
      const n = tryRead(path, () => readSync(fd, buffer, 0, chunkBytes, null));
      const lines = (rest + (n > 0 ? decoder.write(buffer.subarray(0, n)) : decoder.end())).split("\n");
      rest = n > 0 ? (lines.pop() as string) : "";
      for (const line of lines) {
        lineNo++;
        if (!line.trim()) continue;
        rows++;
        yield parseResultLine(path, lineNo, line);
      }
      if (n === 0) break;
    }
    if (rows === 0) throw new EvalError("USAGE", `${path}: no result rows`);
  } finally {
    closeSync(fd);
  }
}

function parseResultLine(path: string, lineNo: number, line: string): RowOutcome {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw new EvalError("USAGE", `${path}:${lineNo}: not valid JSON (${(error as Error).message}); expected a results.jsonl line from simeval run --out`);
  }
  const o = value as Partial<RowOutcome>;
  if (typeof o !== "object" || o === null || typeof o.row !== "number" || typeof o.results !== "object" || o.results === null) {
    throw new EvalError("USAGE", `${path}:${lineNo}: expected {"row": N, "id": …, "results": {…}} as simeval run --out writes`);
  }
  return o as RowOutcome;
}

function tryRead<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new EvalError("USAGE", `${path}: ${code === "ENOENT" ? "no such file" : (error as Error).message}`);
  }
}
