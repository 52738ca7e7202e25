/**
 * A JSON array of row objects, streamed: {@link JsonArrayScanner} finds each top-level element's bytes by its
 * brackets and strings alone, and JSON.parse reads the element ({@link parseArrayElement}: on a scoring thread,
 * in a run, as a JSONL line is). So memory holds one row at a time, and an element JSON.parse refuses is a row
 * error like a bad JSONL line.
 */
import { jsonFault, jsonParseMessage } from "../json-error-place.js";
import { EXPECTED, JsonArrayScanner } from "./json-array-scanner.js";
import { openDatasetFile, readReusedChunks } from "./read-bytes.js";
import { describeJsonKind, isRowObject, itemsOf, recordItem, rowError, shortMessage, type DatasetItem, type UnparsedRow } from "./rows.js";

/**
 * An element of a JSON array as a row: its record, or why it is not one. A syntax error is placed by its line
 * and byte in the file, from the element's line and `byte` (the bytes before it on that line).
 */
export function parseArrayElement({ row, line, json, byte = 0 }: UnparsedRow): DatasetItem {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (err) {
    const why = shortMessage(jsonParseMessage(err));
    const fault = jsonFault(json, err);
    if (fault === null) return rowError(row, line, `line ${line}: not valid JSON (${why}); expected ${EXPECTED}`);
    const before = json.slice(0, fault.offset);
    const nl = before.lastIndexOf("\n");
    const at = line + (before.match(/\n/g)?.length ?? 0);
    const place = nl === -1 ? byte + Buffer.byteLength(before) : Buffer.byteLength(before.slice(nl + 1));
    return rowError(row, line, `line ${at}: not valid JSON (${why} at byte ${place + 1} of the line${fault.note}); expected ${EXPECTED}`);
  }
  if (isRowObject(value)) return recordItem(row, line, value);
  return rowError(row, line, `line ${line}: expected a row object in the array, found ${describeJsonKind(value)}`);
}

const parsed = (item: DatasetItem | UnparsedRow): DatasetItem => ("json" in item ? parseArrayElement(item) : item);

/**
 * Reads a JSON array file row by row. Whole-file problems (missing, empty, a top level that is not an array,
 * an empty array) throw DATASET_INVALID. An element that is not an object, that JSON.parse refuses, or that holds
 * invalid UTF-8 is a row error, and reading goes on; a fault that leaves the next element's start unknown ends
 * the stream with a DATASET_READ_STOPPED row error naming its line ({@link JsonArrayScanner}). A trailing comma
 * after the last element (`[{…},{…},]`) is invalid JSON too, but hides no row: it is reported once through
 * `onWarning` (its line and byte), if given. With `signal`, an abort rejects the pending `next()` with `signal.reason`.
 */
export function readJsonArray(path: string, signal?: AbortSignal, onWarning?: (message: string) => void): AsyncIterableIterator<DatasetItem> {
  return itemsOf(readJsonArrayBatches(path, signal, onWarning), signal);
}

/**
 * {@link readJsonArray}'s rows, one array per read of the file; with `unparsed`, as {@link UnparsedRow}s (a `byte`
 * each). `onBytes` is told the bytes read so far before each array.
 */
export function readJsonArrayBatches(path: string, signal?: AbortSignal, onWarning?: (message: string) => void): AsyncGenerator<DatasetItem[]>;
export function readJsonArrayBatches(
  path: string,
  signal: AbortSignal | undefined,
  onWarning: ((message: string) => void) | undefined,
  unparsed: boolean,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<(DatasetItem | UnparsedRow)[]>;
export async function* readJsonArrayBatches(path: string, signal?: AbortSignal, onWarning?: (message: string) => void, unparsed = false, onBytes?: (bytes: number) => void): AsyncGenerator<(DatasetItem | UnparsedRow)[]> {
  const handle = await openDatasetFile(path, EXPECTED);
  const scanner = new JsonArrayScanner(path, onWarning);
  let bytes = 0;
  for await (const chunk of readReusedChunks(path, handle, signal)) {
    const items: (DatasetItem | UnparsedRow)[] = [];
    scanner.push(chunk, items);
    bytes += chunk.length;
    onBytes?.(bytes);
    if (items.length > 0) yield unparsed ? items : items.map(parsed);
    if (scanner.stopped) return;
  }
  const items: (DatasetItem | UnparsedRow)[] = [];
  scanner.end(items);
  if (items.length > 0) yield unparsed ? items : items.map(parsed);
}
