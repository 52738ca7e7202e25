import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { EvalError } from "../errors.js";
import type { RowOutcome } from "./types.js";

/** Reads a results.jsonl written by `simeval run --out` back into row outcomes (all of them, in order). */
export async function readResultsFile(path: string): Promise<RowOutcome[]> {
  const rows: RowOutcome[] = [];
  let lineNo = 0;
  try {
    const lines = createInterface({ input: createReadStream(path, "utf8"), crlfDelay: Infinity });
    for await (const line of lines) {
      lineNo++;
      if (!line.trim()) continue;
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
      rows.push(o as RowOutcome);
    }
  } catch (error) {
    if (error instanceof EvalError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new EvalError("USAGE", `${path}: ${code === "ENOENT" ? "no such file" : (error as Error).message}`);
  }
  if (rows.length === 0) throw new EvalError("USAGE", `${path}: no result rows`);
  return rows;
}
