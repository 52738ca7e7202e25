import { closeSync, openSync, readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { describeValue, EvalError } from "../errors.js";
import { evaluatorTypes, findEvaluator } from "../evaluators/registry.js";
import { scoreFault } from "../evaluators/score-range.js";
import { MAGIC_BYTES, notText } from "../dataset/read-bytes.js";
import { jsonFault, jsonParseMessage } from "../json-error-place.js";
import type { RowOutcome } from "./types.js";

/** Bytes read at a time. */
const CHUNK = 1 << 20;

/**
 * Reads a results.jsonl written by `simeval run --out` back as row outcomes, one at a time and in file
 * order, so that comparing two files of a million rows holds neither in memory: {@link compareRuns}
 * pairs them as they come (it takes these sync rows and the store's async ones alike). A UTF-8 byte order mark starting
 * the file or a line is skipped. A line that is not a result row, a
 * file that cannot be read or holds no rows, is a USAGE error naming the file and line; so is a result whose `type` is no
 * registered evaluator or whose `score` is not null or one its type can give (see {@link checkResults}), rather than a score
 * left out of the comparison or compared in the wrong direction. A row that could not be read (`error`) may have no results.
 *
 * The one exception: a last line that no line break ends and that is not valid JSON is a line cut short (a run killed
 * outright while writing it; simeval ends every line it writes). It is left out and `onCutShort` is told its line
 * number; without `onCutShort` it is the USAGE error, which then says the line looks cut short.
 * `onRow` is told each row's line number as the row is given, so that a reader can say where a row it leaves out is.
 */
export function* readResultsFile(path: string, chunkBytes = CHUNK, onCutShort?: (line: number) => void, onRow?: (line: number) => void): Generator<RowOutcome> {
  const fd = tryRead(path, () => openSync(path, "r"));
  try {
    const buffer = Buffer.allocUnsafe(chunkBytes);
    const decoder = new StringDecoder("utf8");
    let rest = "";
    let lineNo = 0;
    let rows = 0;
    let cut: number | undefined;
    for (let first = true; ; first = false) {
      const n = tryRead(path, () => readSync(fd, buffer, 0, chunkBytes, null));
      // UTF-16 (PowerShell 5's `>`) or a compressed file (a CI artifact as downloaded) decodes as garbage: said as
      // such, where its one "line" was said to be cut short, or not a result row.
      const notUtf8 = first ? notText(buffer.subarray(0, Math.min(n, MAGIC_BYTES)), "a results.jsonl from simeval run --out") : undefined;
      if (notUtf8) throw new EvalError("USAGE", `${path}: ${notUtf8}`);
      const lines = (rest + (n > 0 ? decoder.write(buffer.subarray(0, n)) : decoder.end())).split("\n");
      rest = n > 0 ? (lines.pop() as string) : "";
      for (let line of lines) {
        lineNo++;
        // A byte order mark starting the file (an editor's on Windows) or a line (files joined with `cat`), as a dataset's is.
        if (line.charCodeAt(0) === 0xfeff) line = line.slice(1);
        if (!line.trim()) continue;
        // At the end of the file (n 0), the one line is what followed the last line break.
        const unended = n === 0;
        if (unended && onCutShort && !isJson(line)) {
          cut = lineNo;
          onCutShort(lineNo);
          continue;
        }
        rows++;
        const outcome = parseResultLine(path, lineNo, line, unended);
        onRow?.(lineNo);
        yield outcome;
      }
      if (n === 0) break;
    }
    // A file of nothing but a line cut short (a run killed while writing its first): said, where "no result rows" alone puzzled.
    const only = cut === undefined ? "" : ` (its one line that is not blank, line ${cut}, is cut short: not valid JSON, with no line break after it, as a run killed while writing it leaves)`;
    if (rows === 0) throw new EvalError("USAGE", `${path}: no result rows${only}`);
  } finally {
    closeSync(fd);
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function parseResultLine(path: string, lineNo: number, line: string, unended: boolean): RowOutcome {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    // The column, as the dataset's readers give it, where V8's 0-based "at position N" was passed on as it said it.
    const fault = jsonFault(line, error);
    const at = fault ? ` at column ${fault.offset + 1}${fault.note}` : "";
    const message = `${path}:${lineNo}: not valid JSON${at} (${jsonParseMessage(error)}); expected a results.jsonl line from simeval run --out`;
    throw new EvalError("USAGE", unended ? `${message}; the file's last line, with no line break after it, looks cut short (a run killed while writing it)` : message);
  }
  const o = value as Partial<RowOutcome>;
  if (typeof o === "object" && o !== null && o.results === undefined && typeof o.error === "object" && o.error !== null) o.results = {}; // an unreadable row
  if (typeof o !== "object" || o === null || typeof o.row !== "number" || typeof o.results !== "object" || o.results === null || Array.isArray(o.results)) {
    // Which part is wrong, when the line is an object: a "row" written as a string is otherwise hard to spot.
    const part = (key: "row" | "results", value: unknown, expected: string) => (value === undefined ? `"${key}" is missing` : `"${key}" must be ${expected}, received ${describeValue(value)}`);
    const wrong =
      typeof o !== "object" || o === null || Array.isArray(o)
        ? `received ${describeValue(o)}`
        : typeof o.row !== "number"
          ? part("row", o.row, "a number")
          : part("results", o.results, "an object");
    throw new EvalError("USAGE", `${path}:${lineNo}: expected {"row": N, "id": …, "results": {…}} as simeval run --out writes; ${wrong}`);
  }
  checkResults(path, lineNo, o.results);
  return o as RowOutcome;
}

/**
 * Checks each evaluator's result on a line: either an error (`{"error": {…}}`) or a result whose `type` is a
 * registered evaluator's (it gives the score's direction) and whose `score` is null or one that type can give: a
 * finite number within ±2^53 and the type's declared range (see {@link scoreFault}). A few
 * property reads a result: nothing next to parsing the line.
 */
function checkResults(path: string, lineNo: number, results: Record<string, unknown>): void {
  for (const name in results) {
    const r = results[name] as Record<string, unknown> | null;
    if (typeof r !== "object" || r === null || Array.isArray(r)) {
      throw resultError(path, lineNo, name, `expected a result object {"type": …, "score": …} or {"error": {…}}, received ${describeValue(r)}`);
    }
    if ("error" in r) {
      if (typeof r["error"] === "object" && r["error"] !== null) continue;
      throw resultError(path, lineNo, name, `"error" must be an object {"code": …, "message": …}, received ${describeValue(r["error"])}`);
    }
    const type = r["type"];
    const definition = typeof type === "string" ? findEvaluator(type) : undefined;
    if (definition === undefined) {
      throw resultError(path, lineNo, name, `"type" must be one of the registered evaluator types (${evaluatorTypes.join(", ")}), received ${describeValue(type)}`);
    }
    const score = r["score"];
    const expected = scoreFault(definition, score);
    if (expected !== null) throw resultError(path, lineNo, name, `"score" must be ${expected}, received ${describeValue(score)}`);
  }
}

/** A USAGE error naming the file, line and evaluator of a result that is not one. */
function resultError(path: string, lineNo: number, name: string, message: string): EvalError {
  return new EvalError("USAGE", `${path}:${lineNo}: evaluator ${JSON.stringify(name)}: ${message}; expected a results.jsonl line from simeval run --out`);
}

function tryRead<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new EvalError("USAGE", `${path}: ${code === "ENOENT" ? "no such file" : (error as Error).message}`);
  }
}
