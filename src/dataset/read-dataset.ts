/**
 * The one entry point for reading a dataset: picks the format (by extension, else by the first bytes) and
 * streams {@link DatasetItem}s from the matching reader.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { extname } from "node:path";
import { argumentError, isPlainObject } from "../errors.js";
import { fileProblem } from "./errors.js";
import { checkDatasetFile, hasBom, openDatasetFile } from "./read-bytes.js";
import { readCsvBatches } from "./read-csv.js";
import { readJsonArrayBatches } from "./read-json.js";
import { readJsonlBatches } from "./read-jsonl.js";
import { itemsOf, type DatasetFormat, type DatasetItem, type UnparsedRow } from "./rows.js";

export type { DatasetFormat, DatasetItem } from "./rows.js";

/** How many leading bytes {@link detectFormat} looks at when the extension does not decide. */
const SNIFF_BYTES = 4096;

const BY_EXTENSION: Readonly<Record<string, DatasetFormat>> = {
  ".jsonl": "jsonl",
  ".ndjson": "jsonl",
  ".json": "json",
  ".csv": "csv",
  ".tsv": "csv",
};

/** The format an extension names (case-insensitive), or undefined for any other extension. */
export function formatFromExtension(path: string): DatasetFormat | undefined {
  return BY_EXTENSION[extname(path).toLowerCase()];
}

/** INPUT_INVALID unless `path` is a non-empty string: node:fs threw a TypeError for 5 or null. */
function checkPath(fn: string, path: unknown): void {
  if (typeof path !== "string" || path === "") throw argumentError("INPUT_INVALID", fn, "path", "the path of a dataset file (a non-empty string)", path);
}

/** CONFIG_INVALID unless {@link readDataset}'s options are an object of the right kinds: 5 was read as none. */
function checkReadOptions(opts: unknown): void {
  if (!isPlainObject(opts)) throw argumentError("CONFIG_INVALID", "readDataset", "opts", "an object ({ format?, signal?, onWarning? }) or nothing", opts);
  const { format, signal, onWarning } = opts as Record<string, unknown>;
  if (format !== undefined && format !== "jsonl" && format !== "json" && format !== "csv") throw argumentError("CONFIG_INVALID", "readDataset", "opts.format", `"jsonl", "json", "csv" or nothing`, format);
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw argumentError("CONFIG_INVALID", "readDataset", "opts.signal", "an AbortSignal or nothing", signal);
  if (onWarning !== undefined && typeof onWarning !== "function") throw argumentError("CONFIG_INVALID", "readDataset", "opts.onWarning", "a function or nothing", onWarning);
}

/** The first byte after a BOM and JSON whitespace, or undefined if there is none. */
function firstSignificantByte(bytes: Uint8Array): number | undefined {
  for (let i = hasBom(bytes) ? 3 : 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) return b;
  }
  return undefined;
}

function readFirstBytesSync(path: string): Uint8Array {
  checkDatasetFile(path);
  try {
    const fd = openSync(path, "r");
    try {
      const buf = Buffer.alloc(SNIFF_BYTES);
      return buf.subarray(0, readSync(fd, buf, 0, SNIFF_BYTES, 0));
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw fileProblem(path, err);
  }
}

/**
 * The dataset format of `path`: `.jsonl`/`.ndjson` → jsonl, `.json` → json, `.csv`/`.tsv` → csv. Any other
 * extension is decided by the first character after a BOM and whitespace: `[` → json, `{` → jsonl, anything
 * else → csv. Without `firstBytes` it reads the first {@link SNIFF_BYTES} bytes itself (synchronously) when
 * the extension does not decide; a missing or unreadable file, or one that is not a regular file (a pipe),
 * then throws DATASET_INVALID. A `path` that is not a non-empty string, or `firstBytes` given and not a
 * Uint8Array, throws INPUT_INVALID.
 */
export function detectFormat(path: string, firstBytes?: Uint8Array): DatasetFormat {
  checkPath("detectFormat", path);
  if (firstBytes !== undefined && !(firstBytes instanceof Uint8Array)) throw argumentError("INPUT_INVALID", "detectFormat", "firstBytes", "a Uint8Array or nothing", firstBytes);
  const byExtension = formatFromExtension(path);
  if (byExtension !== undefined) return byExtension;
  const first = firstSignificantByte(firstBytes ?? readFirstBytesSync(path));
  if (first === 0x5b) return "json"; // [
  if (first === 0x7b) return "jsonl"; // {
  return "csv";
}

function batchesAs(path: string, format: DatasetFormat, opts: ReadDatasetOptions): AsyncGenerator<(DatasetItem | UnparsedRow)[]> {
  const { signal } = opts;
  switch (format) {
    case "jsonl":
      return readJsonlBatches(path, signal, opts.unparsed ?? false);
    case "json":
      return readJsonArrayBatches(path, signal, opts.onWarning, opts.unparsed ?? false, opts.onBytes);
    case "csv":
      return readCsvBatches(path, signal, extname(path).toLowerCase() === ".tsv" ? "\t" : ",", opts.onBytes, opts.onWarning);
  }
}

/** Options for {@link readDataset} and {@link readDatasetBatches}. */
export interface ReadDatasetOptions {
  /** Skips {@link detectFormat}. */
  format?: DatasetFormat;
  signal?: AbortSignal;
  /** JSONL lines and JSON array elements as {@link UnparsedRow}s, for a runner that parses them where it scores them (readDatasetBatches only). */
  unparsed?: boolean;
  /**
   * Told, before each batch of a JSON array or CSV file, how many of the file's bytes the rows up to it took
   * (readDatasetBatches only): a runner's estimate of the rows to come, where a file's lines do not tell them.
   */
  onBytes?: (bytes: number) => void;
  /**
   * Told about a fault in the file that is not a row and loses none, once each (its message starts `line N:`):
   * a trailing comma after a JSON array's last element, a CSV header with a column `ID` and none `id` (the rows
   * have no ids). Without it, such a fault goes unsaid.
   */
  onWarning?: (message: string) => void;
}

/**
 * Streams the rows of a JSONL, JSON-array or CSV file (format from `opts.format`, else {@link detectFormat}).
 * Memory stays flat whatever the file's size; a single value may be as large as a JS string allows.
 *
 * - Whole-file problems (missing file, a directory, a pipe or device, unreadable, empty or no rows, a JSON top level that is
 *   not an array, a bad CSV header) reject the first `next()` with `EvalError("DATASET_INVALID")`, whose
 *   message starts with `path:`.
 * - A row that cannot be read is yielded as `{ row, line, error: { code: "DATASET_ROW_INVALID", message } }`
 *   with a message starting `line N:`, and reading goes on. A fault that cannot be read past (brackets that
 *   do not pair up in a JSON array, a CSV quote never closed) is a last item with code "DATASET_READ_STOPPED".
 * - A fault that is not a row and hides none (a trailing comma after a JSON array's last element, a CSV column `ID` and none `id`) goes to
 *   `opts.onWarning`, and reading goes on.
 * - An abort of `opts.signal` rejects the pending `next()` with `signal.reason`.
 *
 * The iterator is single-use and safe for several workers calling `next()` at once. A `path` that is not a
 * non-empty string (INPUT_INVALID) or options of the wrong kind (CONFIG_INVALID: a `format` that is none of
 * the three, a `signal` that is no AbortSignal) throw an EvalError at once, naming the argument.
 */
export function readDataset(path: string, opts: Omit<ReadDatasetOptions, "unparsed" | "onBytes"> = {}): AsyncIterableIterator<DatasetItem> {
  checkPath("readDataset", path);
  checkReadOptions(opts);
  return itemsOf(readDatasetBatches(path, opts), opts.signal);
}

/**
 * {@link readDataset}'s items in the order read, one array per read of the file (`CHUNK_BYTES` of input):
 * the cheapest way through a large file, for a runner that handles a batch at a time.
 */
export function readDatasetBatches(path: string, opts?: ReadDatasetOptions & { unparsed?: false }): AsyncGenerator<DatasetItem[]>;
export function readDatasetBatches(path: string, opts: ReadDatasetOptions): AsyncGenerator<(DatasetItem | UnparsedRow)[]>;
export function readDatasetBatches(path: string, opts: ReadDatasetOptions = {}): AsyncGenerator<(DatasetItem | UnparsedRow)[]> {
  const format = opts.format ?? formatFromExtension(path);
  if (format !== undefined) return batchesAs(path, format, opts);
  return (async function* () {
    const handle = await openDatasetFile(path, "a JSONL, JSON or CSV dataset");
    let first: Uint8Array;
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(SNIFF_BYTES), 0, SNIFF_BYTES, 0);
      first = buffer.subarray(0, bytesRead);
    } catch (err) {
      throw fileProblem(path, err);
    } finally {
      await handle.close();
    }
    yield* batchesAs(path, detectFormat(path, first), opts);
  })();
}
